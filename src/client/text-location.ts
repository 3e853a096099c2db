/**
 * Finding the text an issue `location` points at (CONTRACT §4.1: one-based line, zero-based
 * UTF-16 `offset` and exclusive `end` into the original text; lines end at LF, CRLF or lone CR).
 * The server never echoes PEM text, so showing the offending line is the caller's job: the CLI
 * underlines it, the web page highlights it.
 */

export interface LocatedLine {
  /** One-based line number. */
  line: number;
  /** Offset of the line's first character in the text. */
  start: number;
  /** The line's text, without its line break. */
  text: string;
  /** The located span within the line, as columns (`to` exclusive), clamped to the line. */
  from: number;
  to: number;
  /** One-based line on which the location ends (a whole PEM block spans several lines). */
  endLine: number;
}

/** Start offsets of every line of `text`. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

/** The line `location.line` of `text` and the part of it the location covers, or null if absent. */
export function locateLine(
  text: string,
  location: { line: number; offset: number; end: number },
): LocatedLine | null {
  const starts = lineStarts(text);
  const start = starts[location.line - 1];
  if (start === undefined) return null;
  const next = starts[location.line];
  let stop = next === undefined ? text.length : next;
  while (stop > start && (text.charCodeAt(stop - 1) === 10 || text.charCodeAt(stop - 1) === 13)) stop--;
  const lineText = text.slice(start, stop);
  const from = Math.max(0, Math.min(lineText.length, location.offset - start));
  const to = Math.max(from, Math.min(lineText.length, location.end - start));
  let endLine = location.line;
  while (endLine < starts.length && starts[endLine]! < location.end) endLine++;
  return { line: location.line, start, text: lineText, from, to, endLine };
}
