/**
 * The `hostname` of the certificate-chain request (CONTRACT §7.1): a DNS name under the bundle's
 * rules (§4.1), or an IPv4 or IPv6 address under the address text rules (§2) matched against the
 * leaf's `ip` SANs only. An IPv4-mapped IPv6 SAN never matches an IPv4 name: the addresses are
 * compared as written, family included. Text of only digits and dots that is not a valid IPv4
 * address (`1.2.3`, `010.0.0.1`, `192.0.2.256`) is refused rather than read as a name.
 */
import type { Issue } from "../errors.ts";
import { type IpAddr, parseAddr } from "../ip/addr.ts";
import { MAX_HOSTNAME_LENGTH } from "../limits.ts";
import { matchHostname, validateHostname } from "./hostname.ts";
import type { SubjectAltName } from "./model.ts";

/** The identity to check: a DNS name (lowercase, no trailing dot) or an address. */
export type ExpectedIdentity = { kind: "dns"; name: string } | { kind: "ip"; address: IpAddr; text: string };

export interface IdentityValidation {
  /** Null when no identity check applies (omitted or blank). */
  expected: ExpectedIdentity | null;
  issues: Issue[];
}

const DIGITS_AND_DOTS = /^[0-9.]+$/;

/** Validates `hostname` as a DNS name or an IP address (CONTRACT §7.1). */
export function validateIdentity(raw: string | undefined): IdentityValidation {
  if (raw === undefined) return { expected: null, issues: [] };
  if (raw.length > MAX_HOSTNAME_LENGTH) {
    return reject(`hostname is longer than ${MAX_HOSTNAME_LENGTH} characters`);
  }
  const trimmed = raw.trim();
  if (trimmed === "") return { expected: null, issues: [] };
  if (DIGITS_AND_DOTS.test(trimmed) || trimmed.includes(":")) {
    const parsed = parseAddr(trimmed);
    if (parsed.ok) {
      return { expected: { kind: "ip", address: parsed.value, text: parsed.value.toString() }, issues: [] };
    }
    if (DIGITS_AND_DOTS.test(trimmed)) {
      return reject(
        `hostname is neither a DNS name nor a valid IPv4 address: ${stripQuoted(parsed.message)}`,
      );
    }
  }
  const name = validateHostname(trimmed, { addressesAccepted: true });
  if (name.issues.length > 0 || name.expected === null) return { expected: null, issues: name.issues };
  return { expected: { kind: "dns", name: name.expected }, issues: [] };
}

/**
 * The SAN (as written) that covers `expected`, or null: a DNS name against `dns` SANs with the
 * wildcard rules of §4.3, an address against `ip` SANs by equal canonical text.
 */
export function matchIdentity(expected: ExpectedIdentity, sans: readonly SubjectAltName[]): string | null {
  if (expected.kind === "dns") return matchHostname(expected.name, sans);
  for (const san of sans) if (san.type === "ip" && san.value === expected.text) return san.value;
  return null;
}

/** The identity as the problems show it: the name, or the canonical address. */
export function identityText(expected: ExpectedIdentity): string {
  return expected.kind === "dns" ? expected.name : expected.text;
}

/** The reason part of a parse message (the entry itself is quoted by `parseAddr`; keep only why). */
function stripQuoted(message: string): string {
  const colon = message.indexOf(": ");
  return colon === -1 ? message : message.slice(colon + 2);
}

function reject(message: string): IdentityValidation {
  return { expected: null, issues: [{ message, path: ["hostname"] }] };
}
