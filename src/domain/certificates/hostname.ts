/**
 * The `hostname` field of the certificate-bundle request and its match against a leaf's DNS names
 * (spec §2.8, §4.4 rules 6–7; CONTRACT §4.1, §4.3; RFC 6125 §6.4 with the wildcard rules of
 * RFC 9525 §6.3: a wildcard is only the whole leftmost label); and the words for an address
 * written in a form no hostname field takes (CONTRACT §7.3 "Hostnames in messages").
 */
import type { Issue } from "../errors.ts";
import { parseAddr } from "../ip/addr.ts";
import { MAX_HOSTNAME_LENGTH } from "../limits.ts";
import type { SubjectAltName } from "./model.ts";

/** RFC 1035 §2.3.4: a name of at most 253 characters in text form, without the trailing dot. */
export const MAX_DNS_NAME_LENGTH = 253;
/** RFC 1035 §2.3.4: a label of 1 to 63 octets. */
export const MAX_DNS_LABEL_LENGTH = 63;
/** A wildcard name needs at least this many labels after `*` (so `*.com` never matches). */
export const MIN_WILDCARD_BASE_LABELS = 2;

/** `expected` is null when no identity check applies (omitted or blank hostname). */
export interface HostnameValidation {
  expected: string | null;
  issues: Issue[];
}

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const NON_ASCII = /[\u0080-\uffff]/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const URL_CHARACTERS = /[/?#@\\]/;
const DIGITS = /^[0-9]+$/;
const PORT = /^[^:]*:[0-9]*$/;

/** What the field being validated accepts besides DNS names. */
export interface HostnameOptions {
  /**
   * True where bare IPv4/IPv6 addresses are accepted by the caller (the chain's `hostname`,
   * CONTRACT §7.1): an address in another form is then refused with the form that is accepted.
   * False (the bundle's `hostname`, DNS names only): every address form is "not an IP address".
   */
  addressesAccepted: boolean;
}

/**
 * Validates and normalizes `hostname` (CONTRACT §4.1). Surrounding whitespace (as `trim` defines it)
 * is removed; blank means no check. Otherwise it must be an ASCII DNS name: labels of letters,
 * digits and hyphens, 1–63 characters, no hyphen at either end, at most 253 characters without one
 * optional trailing dot. A URL, a port, an IP address, a wildcard and a non-ASCII name each get
 * their own message. `expected` is lowercase without the trailing dot.
 *
 * An address in brackets (`[2001:db8::1]`, `[2001:db8::1]:443`), with a zone index
 * (`fe80::1%eth0`) or with a prefix length (`2001:db8::1/128`, `192.0.2.1/32`) is never called a
 * URL or a port: with `addressesAccepted` the message names the accepted form
 * ({@link addressFormProblem}); without it, it says that the field takes DNS names only.
 */
export function validateHostname(
  raw: string | undefined,
  options: HostnameOptions = { addressesAccepted: false },
): HostnameValidation {
  if (raw === undefined) return { expected: null, issues: [] };
  if (raw.length > MAX_HOSTNAME_LENGTH) {
    return reject(`hostname is longer than ${MAX_HOSTNAME_LENGTH} characters`);
  }
  const trimmed = raw.trim();
  if (trimmed === "") return { expected: null, issues: [] };
  const addressForm = addressFormProblem(trimmed);
  if (addressForm !== null) return reject(options.addressesAccepted ? addressForm : NOT_AN_ADDRESS);
  if (NON_ASCII.test(trimmed)) {
    return reject(
      "hostname must be ASCII: convert an internationalized name to its A-label (xn--) form first",
    );
  }
  if (URL_SCHEME.test(trimmed) || URL_CHARACTERS.test(trimmed)) {
    return reject("hostname must be a bare DNS name, not a URL");
  }
  if (trimmed.startsWith("[") || trimmed.split(":").length > 2) {
    return reject(options.addressesAccepted ? notAnyAddress(trimmed) : NOT_AN_ADDRESS);
  }
  if (PORT.test(trimmed)) return reject("hostname must not include a port");
  if (trimmed.includes("*")) {
    return reject("hostname must not be a wildcard: give the exact name to check");
  }
  const name = trimmed.endsWith(".") ? trimmed.slice(0, -1) : trimmed;
  const lower = asciiLowercase(name);
  const labels = lower.split(".");
  if (name !== "" && labels.every((label) => DIGITS.test(label))) return reject(NOT_AN_ADDRESS);
  if (name.length > MAX_DNS_NAME_LENGTH) {
    return reject(`hostname is longer than ${MAX_DNS_NAME_LENGTH} characters without its trailing dot`);
  }
  for (const [position, label] of labels.entries()) {
    const ordinal = position + 1;
    if (label === "") return reject("hostname has an empty label (a leading dot or two dots in a row)");
    if (label.length > MAX_DNS_LABEL_LENGTH) {
      return reject(`label ${ordinal} of hostname is longer than ${MAX_DNS_LABEL_LENGTH} characters`);
    }
    if (!LDH_LABEL.test(label)) {
      return reject(
        /^[a-z0-9-]+$/.test(label)
          ? `label ${ordinal} of hostname starts or ends with a hyphen`
          : "hostname may contain only letters, digits, hyphens and dots",
      );
    }
  }
  return { expected: lower, issues: [] };
}

const NOT_AN_ADDRESS = "hostname must be a DNS name, not an IP address";

/**
 * Why `text` (trimmed) is an IP address in a form no hostname field takes, naming the accepted
 * form, or null when it is not such an address (CONTRACT §7.3):
 * - `[2001:db8::1]`: "give the address without brackets" (and "without a port" for `[…]:443`);
 * - `fe80::1%eth0`: "zone indexes are not accepted";
 * - `2001:db8::1/128`, `192.0.2.1/32`: "a hostname has no prefix length".
 * The address inside must itself parse (CONTRACT §2), so `[example.com]` or `a/b` are left to
 * the DNS-name rules. The message quotes only the canonical address, never the rest of the text.
 */
export function addressFormProblem(text: string): string | null {
  const bracketed = /^\[([^\]]*)\](?::([0-9]*))?$/.exec(text);
  if (bracketed !== null) {
    const inner = addressPart(bracketed[1]!);
    if (inner === null) return null;
    const port = bracketed[2] === undefined ? "" : " and without a port";
    return `hostname is an address in brackets: give the address without brackets${port} (${inner})`;
  }
  const zone = text.indexOf("%");
  if (zone > 0) {
    const address = addressPart(text.slice(0, zone));
    if (address === null || !address.includes(":")) return null;
    return `hostname has a zone index: zone indexes are not accepted; give the address alone (${address})`;
  }
  const slash = /^([^/]+)\/([0-9]{1,3})$/.exec(text);
  if (slash !== null) {
    const address = addressPart(slash[1]!);
    if (address === null) return null;
    return `hostname has a prefix length: a hostname has no prefix length; give the address alone (${address})`;
  }
  return null;
}

/** For a field that takes addresses: text that looks like one (brackets, colons) but is not. */
function notAnyAddress(text: string): string {
  const parsed = parseAddr(text.startsWith("[") ? text.slice(1).replace(/\].*$/, "") : text);
  const reason = parsed.ok ? "" : `: ${parsed.message.slice(parsed.message.indexOf(": ") + 2)}`;
  return `hostname is neither a DNS name nor a valid IP address${reason}`;
}

/** The canonical text of `text` when it is one IP address (a zone or prefix inside it is not). */
function addressPart(text: string): string | null {
  const parsed = parseAddr(text);
  return parsed.ok ? parsed.value.toString() : null;
}

/**
 * The first `dns` SAN (as written) that `expected` matches, or null. Only `dns` entries count;
 * there is no Common Name fallback (spec §4.4 rule 6).
 * @param expected a name from `validateHostname`: lowercase, no trailing dot.
 */
export function matchHostname(expected: string, sans: readonly SubjectAltName[]): string | null {
  for (const san of sans) {
    if (san.type === "dns" && dnsNameMatches(expected, san.value)) return san.value;
  }
  return null;
}

/**
 * Whether `expected` (lowercase, no trailing dot) matches one DNS SAN `pattern`, ASCII
 * case-insensitively, one trailing dot on the pattern tolerated. A `*` is a wildcard only as the
 * whole leftmost label of a name with at least two more labels, and then matches exactly one
 * non-empty label: `f*.example.com`, `*.*.example.com` and `*.com` never match anything.
 */
export function dnsNameMatches(expected: string, pattern: string): boolean {
  let name = asciiLowercase(pattern);
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (name === "" || expected === "") return false;
  if (!name.includes("*")) return name === expected;
  const labels = name.split(".");
  const base = labels.slice(1);
  if (labels[0] !== "*" || base.length < MIN_WILDCARD_BASE_LABELS) return false;
  if (base.some((label) => label === "" || label.includes("*"))) return false;
  const hostLabels = expected.split(".");
  if (hostLabels.length !== labels.length || hostLabels[0] === "") return false;
  return hostLabels.slice(1).join(".") === base.join(".");
}

/** Lowercases A–Z only: no Unicode case mapping (the Kelvin sign must not become `k`). */
export function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function reject(message: string): HostnameValidation {
  return { expected: null, issues: [{ message, path: ["hostname"] }] };
}
