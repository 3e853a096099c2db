/**
 * Name constraints against a certificate's names (RFC 5280 §4.2.1.10, as CONTRACT §8.1 and §9.4
 * evaluate them): the subject against directoryName subtrees, `dns`, `ip`, `email` and `uri` SANs
 * against subtrees of their form, and forms that cannot be evaluated refused (`violatingNameOf`).
 *
 * - A name satisfies a dNSName subtree when it equals it or ends with `.` + it, compared
 *   case-insensitively ("adding zero or more labels to the left-hand side"); a subtree written with
 *   a leading dot (`.example.com`) matches proper subdomains only, and an empty one every name, as
 *   OpenSSL's `nc_dns` and Go read them.
 * - An address satisfies an iPAddress subtree when it has the subtree's length (4 octets against an
 *   8-octet subtree, 16 against 32) and equals its address under its mask; an IPv4-mapped SAN is
 *   16 octets and meets IPv6 subtrees only (OpenSSL `nc_ip`).
 * - Violated: some permitted subtree of that type exists and none is satisfied, or an excluded
 *   subtree of that type is satisfied.
 */
import { type IpAddr, parseAddr } from "../ip/addr.ts";
import {
  canonicalRdns,
  directoryNameWithin,
  rdnsOfContent,
  rdnsOfName,
  type SubjectEmail,
  subjectEmails,
} from "./directory-names.ts";
import type { NameConstraints, NameSubtrees, SubjectAltName } from "./model.ts";

/** The address as its octets, most significant first: 4 for IPv4, 16 for IPv6. */
export function ipOctets(address: IpAddr): Uint8Array {
  const words = address.family === 4 ? [address.w3] : [address.w0, address.w1, address.w2, address.w3];
  const octets = new Uint8Array(words.length * 4);
  for (const [k, word] of words.entries()) {
    octets[k * 4] = word >>> 24;
    octets[k * 4 + 1] = (word >>> 16) & 0xff;
    octets[k * 4 + 2] = (word >>> 8) & 0xff;
    octets[k * 4 + 3] = word & 0xff;
  }
  return octets;
}

/**
 * Whether a DNS name lies within a dNSName subtree (see the module comment). A name with an empty
 * label (`.example.com`, `a..b`) is not a DNS name and lies within none (x509-limbo
 * `nc-permits-invalid-dns-san`).
 */
export function dnsWithin(name: string, base: string): boolean {
  if (name.startsWith(".") || name.includes("..")) return false;
  const host = name.toLowerCase();
  const subtree = base.toLowerCase();
  if (subtree === "") return true;
  if (subtree.startsWith(".")) return host.length > subtree.length && host.endsWith(subtree);
  return host === subtree || host.endsWith(`.${subtree}`);
}

/**
 * Whether a wildcard SAN (`*.example.com`) stands for some name within an excluded dNSName subtree:
 * the subtree is one label under the wildcard's zone (`bar.example.com`), so a client would accept
 * the certificate for a name its CA may not issue for (CVE-2025-61727, x509-limbo
 * `nc-forbids-dnsname-wildcard-san`).
 */
export function wildcardMayMatch(name: string, base: string): boolean {
  if (!name.startsWith("*.")) return false;
  const zone = name.slice(2).toLowerCase();
  const subtree = base.toLowerCase().replace(/^\./, "");
  const dot = subtree.indexOf(".");
  return dot > 0 && subtree.slice(dot + 1) === zone;
}

/** Whether an address (4 or 16 octets) lies within an iPAddress subtree. */
export function ipWithin(octets: Uint8Array, subtree: NameSubtrees["ip"][number]): boolean {
  if (octets.length !== subtree.address.length) return false;
  for (let k = 0; k < octets.length; k++) {
    if ((octets[k]! & subtree.mask[k]!) !== (subtree.address[k]! & subtree.mask[k]!)) return false;
  }
  return true;
}

/** The host of a rfc822Name (after its last `@`), or null without one. */
function mailboxHost(mailbox: string): string | null {
  const at = mailbox.lastIndexOf("@");
  return at < 0 ? null : mailbox.slice(at + 1);
}

/**
 * Whether a mailbox lies within an rfc822Name subtree (RFC 5280 §4.2.1.10): a base with `@` is
 * one mailbox (the host compared case-insensitively), a base with a leading dot every host below
 * that domain, any other base that one host.
 */
export function emailWithin(mailbox: string, base: string): boolean {
  const host = mailboxHost(mailbox);
  if (host === null) return false;
  if (base.includes("@")) {
    // A base with an empty local part (`@example.com`) names every mailbox at that host (OpenSSL).
    const baseHost = mailboxHost(base)!;
    const baseLocal = base.slice(0, base.length - baseHost.length);
    return (
      (baseLocal === "@" || mailbox.slice(0, mailbox.length - host.length) === baseLocal) &&
      host.toLowerCase() === baseHost.toLowerCase()
    );
  }
  const lower = host.toLowerCase();
  const subtree = base.toLowerCase();
  if (subtree.startsWith(".")) return lower.length > subtree.length && lower.endsWith(subtree);
  return lower === subtree;
}

/**
 * The host of a URI (`scheme://[userinfo@]host[:port]…`, RFC 3986 §3.2.2), lowercased, or null
 * when it has none or its host is an address literal (neither can be checked against a
 * uniformResourceIdentifier subtree: Go and OpenSSL refuse such a name).
 */
export function uriHost(uri: string): string | null {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(uri);
  if (match === null) return null;
  const authority = match[1]!.slice(match[1]!.lastIndexOf("@") + 1);
  if (authority.startsWith("[")) return null;
  const host = authority.replace(/:\d*$/, "").toLowerCase();
  if (host === "" || /^[0-9.]+$/.test(host)) return null;
  return host;
}

/** Whether a URI's host lies within a uniformResourceIdentifier subtree (a host, or `.domain` for those below it). */
export function uriWithin(host: string, base: string): boolean {
  const subtree = base.toLowerCase();
  if (subtree.startsWith(".")) return host.length > subtree.length && host.endsWith(subtree);
  return host === subtree;
}

/** The content octets (the RDNs) of a DER Name given as lowercase hex, as directoryName subtrees hold them. */
export function nameContent(nameKey: string): string {
  const first = Number.parseInt(nameKey.slice(2, 4), 16);
  const header = first < 0x80 ? 2 : 2 + (first & 0x7f);
  return nameKey.slice(header * 2);
}

/**
 * Whether an iPAddress subtree is not an address with a prefix mask (CIDR): a base of neither 8 nor
 * 32 octets (kept with an empty mask), or a mask whose one bits do not all come first. Go refuses
 * to read such a certificate ("invalid IP mask"); x509-limbo `nc::invalid-ipv4-address`.
 */
export function malformedIpSubtree(subtree: NameSubtrees["ip"][number]): boolean {
  if (subtree.mask.length === 0 || subtree.mask.length !== subtree.address.length) return true;
  let zeroSeen = false;
  for (const octet of subtree.mask) {
    for (let bit = 7; bit >= 0; bit--) {
      const one = ((octet >> bit) & 1) === 1;
      if (one && zeroSeen) return true;
      if (!one) zeroSeen = true;
    }
  }
  return false;
}

/** The form `violatingNameOf` reports for a CA whose iPAddress subtrees are not CIDR blocks. */
export const MALFORMED_IP_SUBTREE = "malformed iPAddress subtree";

/** A name that violates a CA's nameConstraints, and its form. */
export interface ViolatingName {
  /**
   * `directoryName` (the subject, or a SAN of that form), `dns`, `ip`, `email` (a SAN, or an
   * emailAddress of the subject), `emailAddress` (one that is not an IA5String), `uri`, or an
   * unsupported form.
   */
  form: string;
  /** The name as the certificate shows it. */
  value: string;
  /** Whether the name is in the subject (its DN, an emailAddress) rather than a SAN. */
  inSubject: boolean;
  /** False for a name clients cannot check and so refuse (an unsupported form, a malformed value). */
  readable: boolean;
}

/**
 * Counts the name comparisons `violatingNameOf` makes (one per name against one subtree), so a
 * caller or a test can hold the rule to its bound: at most names × subtrees per call.
 */
export interface NameComparisonTally {
  comparisons: number;
}

/** What `violatingNameOf` asks besides the certificate and the constraints. */
export interface NameCheckOptions {
  tally?: NameComparisonTally | undefined;
}

/** A subject read once for name constraints: canonical RDNs and emailAddress attributes. */
interface SubjectNames {
  rdns: string[] | null;
  raw: string;
  emails: SubjectEmail[];
}

const subjectCache = new WeakMap<object, SubjectNames>();

function subjectNamesOf(certificate: { subjectNameKey: string }): SubjectNames {
  let names = subjectCache.get(certificate);
  if (names === undefined) {
    const rdns = rdnsOfName(certificate.subjectNameKey);
    names = {
      rdns: rdns === null ? null : canonicalRdns(rdns),
      raw: nameContent(certificate.subjectNameKey),
      emails: rdns === null ? [] : subjectEmails(rdns),
    };
    subjectCache.set(certificate, names);
  }
  return names;
}

/** A directoryName subtree's RDNs (content hex) in canonical form, or null when they do not parse. */
const subtreeCache = new Map<string, string[] | null>();

function canonicalSubtree(content: string): string[] | null {
  let canonical = subtreeCache.get(content);
  if (canonical === undefined) {
    const rdns = rdnsOfContent(bytesOf(content));
    canonical = rdns === null ? null : canonicalRdns(rdns);
    if (subtreeCache.size > 4096) subtreeCache.clear();
    subtreeCache.set(content, canonical);
  }
  return canonical;
}

function bytesOf(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let k = 0; k < bytes.length; k++) bytes[k] = Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16);
  return bytes;
}

/**
 * Whether a name (canonical RDNs, and its RDNs' content hex for a name that does not parse) lies
 * within a directoryName subtree (its content hex): canonically when both parse, else by octets.
 */
function nameWithin(name: { rdns: string[] | null; raw: string }, subtree: string): boolean {
  const canonical = canonicalSubtree(subtree);
  if (name.rdns !== null && canonical !== null) return directoryNameWithin(name.rdns, canonical);
  return name.raw.startsWith(subtree);
}

/**
 * Violated: some permitted subtree of the form exists and none holds the name, or an excluded one
 * does. Each subtree compared counts one in `tally`.
 */
function violates<Base>(
  bases: { permitted: readonly Base[]; excluded: readonly Base[] },
  within: (base: Base) => boolean,
  tally: NameComparisonTally | undefined,
) {
  const counted = (base: Base) => {
    if (tally !== undefined) tally.comparisons++;
    return within(base);
  };
  if (bases.permitted.length > 0 && !bases.permitted.some(counted)) return true;
  return bases.excluded.some(counted);
}

/**
 * The first name of `certificate` that violates `constraints` (CONTRACT §9.4), or null, in
 * OpenSSL's order (`NAME_CONSTRAINTS_check`):
 * - its subject against directoryName subtrees (see directory-names.ts), when it has one;
 * - each emailAddress attribute of its subject against rfc822Name subtrees (RFC 5280 §4.2.1.6
 *   keeps legacy addresses there; OpenSSL checks them whether or not an rfc822Name SAN exists);
 *   one that is not an IA5String violates any nameConstraints (OpenSSL: unsupported name syntax);
 * - its SANs in extension order: `dns`, `ip` (an address of neither 4 nor 16 octets violates any
 *   iPAddress subtree), `email` (a mailbox without `@` violates any rfc822Name subtree), `uri` (by
 *   host; a URI without a host name violates any URI subtree), `directoryName` against
 *   directoryName subtrees, and a form the service cannot evaluate (`otherName`, `x400Address`,
 *   `ediPartyName`, `registeredId`) violates when a subtree of that form exists.
 * The commonName is not read (CONTRACT §9.4 lists the forms; Go, Chromium and x509-limbo's
 * BetterTLS cases ignore it, only OpenSSL's `NAME_CONSTRAINTS_check_CN` reads it: ADR 0046).
 * At most (names + 1) × subtrees comparisons, counted in `options.tally`.
 */
export function violatingNameOf(
  certificate: { subjectNameKey: string; subject: string; sans: readonly SubjectAltName[] },
  constraints: NameConstraints,
  options: NameCheckOptions = {},
): ViolatingName | null {
  const { tally } = options;
  const { permitted, excluded } = constraints;
  const malformed = [...permitted.ip, ...excluded.ip].find(malformedIpSubtree);
  if (malformed !== undefined) {
    const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return {
      form: MALFORMED_IP_SUBTREE,
      value: `#${hex(malformed.address)}${hex(malformed.mask)}`,
      inSubject: false,
      readable: false,
    };
  }
  const side = <Base>(pick: (subtrees: NameSubtrees) => readonly Base[]) => ({
    permitted: pick(permitted),
    excluded: pick(excluded),
  });
  const directoryNames = side((s) => s.directoryName);
  const emails = side((s) => s.email);
  const dns = side((s) => s.dns);
  const subject = subjectNamesOf(certificate);
  if (subject.raw !== "") {
    if (violates(directoryNames, (base) => nameWithin(subject, base), tally)) {
      return { form: "directoryName", value: certificate.subject, inSubject: true, readable: true };
    }
    for (const email of subject.emails) {
      if (!email.ia5) return { form: "emailAddress", value: email.value, inSubject: true, readable: false };
      if (mailboxViolates(email.value, emails, tally)) {
        return { form: "email", value: email.value, inSubject: true, readable: true };
      }
    }
  }
  for (const san of certificate.sans) {
    let violated = false;
    switch (san.type) {
      case "dns":
        violated =
          violates(dns, (base) => dnsWithin(san.value, base), tally) ||
          dns.excluded.some((base) => wildcardMayMatch(san.value, base));
        break;
      case "ip": {
        const ips = side((s) => s.ip);
        const parsed = parseAddr(san.value);
        if (!parsed.ok) violated = ips.permitted.length + ips.excluded.length > 0;
        else {
          const octets = ipOctets(parsed.value);
          violated = violates(ips, (subtree) => ipWithin(octets, subtree), tally);
        }
        break;
      }
      case "email":
        violated = mailboxViolates(san.value, emails, tally);
        break;
      case "uri": {
        const uris = side((s) => s.uri);
        const host = uriHost(san.value);
        violated =
          host === null
            ? uris.permitted.length + uris.excluded.length > 0
            : violates(uris, (base) => uriWithin(host, base), tally);
        break;
      }
      case "directoryName": {
        const name = sanDirectoryName(san);
        violated = name !== null && violates(directoryNames, (base) => nameWithin(name, base), tally);
        break;
      }
      default:
        violated = permitted.unsupported.includes(san.type) || excluded.unsupported.includes(san.type);
    }
    if (violated) {
      const readable = ["dns", "ip", "email", "uri", "directoryName"].includes(san.type);
      return { form: san.type, value: san.value, inSubject: false, readable };
    }
  }
  return null;
}

/** A mailbox against rfc822Name subtrees; one without `@` violates any (OpenSSL `nc_email`). */
function mailboxViolates(
  mailbox: string,
  emails: { permitted: readonly string[]; excluded: readonly string[] },
  tally: NameComparisonTally | undefined,
): boolean {
  if (mailboxHost(mailbox) === null) return emails.permitted.length + emails.excluded.length > 0;
  return violates(emails, (base) => emailWithin(mailbox, base), tally);
}

/** A SAN directoryName's name for comparison: canonical RDNs from its DER (`nameKey`), or null without it. */
function sanDirectoryName(san: SubjectAltName): { rdns: string[] | null; raw: string } | null {
  if (san.nameKey === undefined) return null;
  const rdns = rdnsOfName(san.nameKey);
  return { rdns: rdns === null ? null : canonicalRdns(rdns), raw: nameContent(san.nameKey) };
}

/**
 * The first `dns` or `ip` SAN (in extension order) that violates `constraints`, or null. An `ip`
 * SAN whose value is not an address of 4 or 16 octets (`#…`) is not evaluated.
 */
export function violatingName(
  sans: readonly SubjectAltName[],
  constraints: NameConstraints,
): SubjectAltName | null {
  const { permitted, excluded } = constraints;
  for (const san of sans) {
    if (san.type === "dns") {
      const allowed = permitted.dns.length === 0 || permitted.dns.some((base) => dnsWithin(san.value, base));
      if (!allowed || excluded.dns.some((base) => dnsWithin(san.value, base))) return san;
    } else if (san.type === "ip") {
      const parsed = parseAddr(san.value);
      if (!parsed.ok) continue;
      const octets = ipOctets(parsed.value);
      const allowed = permitted.ip.length === 0 || permitted.ip.some((subtree) => ipWithin(octets, subtree));
      if (!allowed || excluded.ip.some((subtree) => ipWithin(octets, subtree))) return san;
    }
  }
  return null;
}
