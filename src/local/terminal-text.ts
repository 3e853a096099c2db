/**
 * Text from outside (a server's banner, GeoIP strings, certificate and CSR fields, anything a
 * `--server` answers) made safe for a terminal: the one escaping function of everything `nettools`
 * prints that it did not write itself (issue 30; CONTRACT §8.3's quoting rule).
 *
 * Escaped, so that no byte of outside text can move the cursor, clear the screen, set the window
 * title, start a new line that looks like ours (a fake `ASN:` line) or reorder what follows it:
 * - C0 control characters (U+0000–U+001F, line breaks and tabs included), DEL (U+007F) and the C1
 *   controls (U+0080–U+009F, among them the 8-bit CSI) as `\xHH`, lowercase hex;
 * - the Unicode line and paragraph separators and the bidirectional controls (U+061C, U+200E,
 *   U+200F, U+202A–U+202E, U+2066–U+2069), which reorder or break a line, as `\u{HHHH}`.
 * Everything else, non-ASCII letters included, is shown as it is.
 *
 * No Bun, Node or DOM API: the CLI and the page may both import it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One byte or code unit below U+0100 as `\xHH`. */
export function escapedByte(code: number): string {
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

/** `text` with every character that could act on a terminal written as an escape (see above). */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? escapedByte(code) : `\\u{${code.toString(16).padStart(4, "0")}}`;
  });
}

/**
 * Bytes a server sent, quoted for one line (CONTRACT §8.3): every byte outside printable ASCII
 * (controls, DEL, and every non-ASCII byte: the bytes may not be UTF-8) as `\xHH`, cut to
 * `maxCharacters` after escaping (never inside an escape), in double quotes.
 */
export function quoteBytes(said: Uint8Array, maxCharacters: number): string {
  let text = "";
  for (const byte of said) {
    const piece = byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : escapedByte(byte);
    if (text.length + piece.length > maxCharacters) break;
    text += piece;
  }
  return `"${text}"`;
}
