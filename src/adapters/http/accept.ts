/**
 * `Accept` negotiation between the two representations of public-ip (CONTRACT §5):
 * q-values and wildcards per RFC 9110 §12.5.1; JSON on a missing header, on a tie, and
 * when neither is acceptable (RFC 9110 allows ignoring an unsatisfiable Accept).
 */

export type Representation = "json" | "text";

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of header.split(",")) {
    const [mediaRange = "", ...parameters] = element.split(";");
    const slash = mediaRange.indexOf("/");
    if (slash === -1) continue;
    const type = mediaRange.slice(0, slash).trim().toLowerCase();
    const subtype = mediaRange
      .slice(slash + 1)
      .trim()
      .toLowerCase();
    if (type === "" || subtype === "" || (type === "*" && subtype !== "*")) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [name = "", value = ""] = parameter.split("=");
      if (name.trim().toLowerCase() !== "q") continue;
      const text = value.trim();
      q = /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(text) ? Number(text) : 0;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q-value the most specific matching range gives `type/subtype`, or 0 when none matches. */
function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = -1;
  let quality = 0;
  for (const range of ranges) {
    let specificity: number;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (range.type === type && range.subtype === "*") specificity = 1;
    else if (range.type === "*" && range.subtype === "*") specificity = 0;
    else continue;
    if (specificity > best) {
      best = specificity;
      quality = range.q;
    }
  }
  return quality;
}

/** Chooses JSON or text for an `Accept` header value (null when the header is absent). */
export function negotiate(accept: string | null): Representation {
  if (accept === null || accept.trim() === "") return "json";
  const ranges = parseAccept(accept);
  const json = qualityOf(ranges, "application", "json");
  const text = qualityOf(ranges, "text", "plain");
  return text > json ? "text" : "json";
}
