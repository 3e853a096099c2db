/**
 * How findings name certificates and distinguished names (CONTRACT §4.3, Wording): by position
 * and common name, "certificate 1 (CN=R11)"; without a CN by position and the first attribute of
 * the subject; with an empty subject by position alone. Names come from the RFC 4514 text the
 * decoder already produced (control characters there are escaped), shortened when very long.
 */
import type { CertificateData } from "./model.ts";

/** Longest attribute shown in a sentence; longer ones end with "…". */
export const MAX_SHOWN_ATTRIBUTE = 64;

/** `certificate 1 (CN=R11)`, `certificate 2 (O=Example)`, or `certificate 3` for an empty subject. */
export function certificateName(certificate: CertificateData, index: number): string {
  const attribute = nameLabel(certificate.subject);
  return attribute === null ? `certificate ${index}` : `certificate ${index} (${attribute})`;
}

/** `Certificate 3 (CN=R11) repeats certificate 1 (CN=R11): same SHA-256 fingerprint.` */
export function repeatObserved(
  certificates: readonly CertificateData[],
  first: number,
  repeat: number,
): string {
  const repeated = certificateName(certificates[repeat]!, repeat);
  return `${capitalize(repeated)} repeats ${certificateName(certificates[first]!, first)}: same SHA-256 fingerprint.`;
}

/**
 * The attribute that names a distinguished name best: its first (most specific) CN, else its first
 * attribute, as RFC 4514 text (`CN=R11`); null for an empty name.
 */
export function nameLabel(rfc4514: string): string | null {
  const known = labels.get(rfc4514);
  if (known !== undefined) return known;
  const attributes = splitAttributes(rfc4514);
  const chosen = attributes.find((attribute) => /^CN=/i.test(attribute)) ?? attributes[0];
  const label = chosen === undefined ? null : showText(chosen);
  // A request names each certificate many times: its label is read once (a pure function of the text).
  if (labels.size >= MAX_REMEMBERED_LABELS) labels.clear();
  labels.set(rfc4514, label);
  return label;
}

const MAX_REMEMBERED_LABELS = 1024;
const labels = new Map<string, string | null>();

/** The first letter in upper case, for a sentence that starts with a name. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `a, b and 3 more`: at most `max` items, then how many more. */
export function listSome(items: readonly string[], max: number): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/** The attributes of RFC 4514 text, in order, split at unescaped `,` and `+`. */
export function splitAttributes(rfc4514: string): string[] {
  const attributes: string[] = [];
  let current = "";
  for (let i = 0; i < rfc4514.length; i++) {
    const char = rfc4514[i]!;
    if (char === "\\" && i + 1 < rfc4514.length) {
      current += char + rfc4514[++i];
      continue;
    }
    if (char === "," || char === "+") {
      if (current !== "") attributes.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  if (current !== "") attributes.push(current);
  return attributes;
}

/** Certificate text fit for a one-line sentence: control characters as `?`, at most MAX_SHOWN_ATTRIBUTE characters. */
export function showText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > MAX_SHOWN_ATTRIBUTE ? `${clean.slice(0, MAX_SHOWN_ATTRIBUTE)}…` : clean;
}
