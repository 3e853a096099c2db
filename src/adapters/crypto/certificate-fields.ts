/**
 * The fields a certificate and a certification request share, read the same way by both decoders
 * (decoder.ts, csr-decoder.ts): the last CN of a Name, the extensions list, the subjectAltName's
 * names, and the short phrase a decode failure says. Kept apart so that neither decoder imports
 * the other's helpers (the certificate decoder binds the request decoder).
 */
import type { SubjectAltName } from "../../domain/certificates/model.ts";
import {
  anyValueOk,
  children,
  hexLower,
  hexUpper,
  isContext,
  isUniversal,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
  UNIVERSAL,
} from "../../domain/der.ts";
import { IpAddr } from "../../domain/ip/addr.ts";
import { attributeText, formatName, nameEntries } from "./openssl-names.ts";

const OID_COMMON_NAME = "2.5.4.3";
export const OID_SUBJECT_ALT_NAME = "2.5.29.17";

/** What a decode failure says: a short phrase about the structure, never certificate content. */
export class Malformed {
  constructor(readonly reason: string) {}
}

/** The text of the last (most specific) CN attribute of a Name, or null. */
export function lastCommonName(buf: Uint8Array, name: Tlv): string | null {
  const entries = nameEntries(buf, name);
  if (entries === null) return null;
  for (let k = entries.length - 1; k >= 0; k--) {
    const entry = entries[k]!;
    if (entry.oid === OID_COMMON_NAME) return attributeText(buf, entry.value);
  }
  return null;
}

/**
 * extnID → extnValue content (the OCTET STRING), rejecting malformed or repeated extensions.
 * `wrapper` holds exactly one SEQUENCE OF Extension: a certificate's `[3]`, or the value SET of a
 * request's extensionRequest attribute (csr-decoder.ts).
 */
export function readExtensions(
  buf: Uint8Array,
  wrapper: Tlv,
  /** When given, receives the OID of every extension marked critical (criticality TRUE), in order. */
  critical?: string[],
): Map<string, Tlv> | Malformed {
  const inner = children(buf, wrapper);
  // An empty list breaks RFC 5280's SIZE (1..MAX) but OpenSSL loads it: so does this.
  const list = inner?.length === 1 ? sequence(buf, inner[0]) : null;
  if (list === null) return new Malformed("malformed extensions");
  const out = new Map<string, Tlv>();
  for (const extension of list) {
    const parts = sequence(buf, extension);
    if (parts === null || parts.length < 2 || parts.length > 3) return new Malformed("malformed extensions");
    const oid = readOid(buf, parts[0]);
    if (oid === null) return new Malformed("malformed extensions");
    if (parts.length === 3) {
      const flag = parts[1];
      if (!isUniversal(flag, TAG.BOOLEAN, false) || flag.end - flag.body !== 1) {
        return new Malformed("malformed extensions");
      }
      if (buf[flag.body] !== 0) critical?.push(oid);
    }
    const value = parts[parts.length - 1];
    if (!isUniversal(value, TAG.OCTET_STRING, false)) return new Malformed("malformed extensions");
    if (out.has(oid)) return new Malformed("duplicate extension");
    out.set(oid, value);
  }
  return out;
}

/** The single TLV that exactly fills an extension's OCTET STRING, or null. */
export function extensionBody(buf: Uint8Array, octets: Tlv): Tlv | null {
  const t = readTlv(buf, octets.body, octets.end);
  return t !== null && t.end === octets.end ? t : null;
}

/** dNSName, rfc822Name and URI are IA5String; stray non-ASCII octets are read as UTF-8. */
const ia5Text = new TextDecoder("utf-8");

const SAN_TYPES = [
  "otherName",
  "email",
  "dns",
  "x400Address",
  "directoryName",
  "ediPartyName",
  "uri",
  "ip",
  "registeredId",
] as const;

/** The names of a subjectAltName extension's OCTET STRING (none without it), or why it is malformed. */
export function readSubjectAltNames(buf: Uint8Array, octets: Tlv | undefined): SubjectAltName[] | Malformed {
  if (octets === undefined) return [];
  const bad = new Malformed("malformed subjectAltName extension");
  const names = (() => {
    const body = extensionBody(buf, octets);
    return body === null ? null : sequence(buf, body);
  })();
  if (names === null) return bad; // an empty list (against RFC 5280, accepted by OpenSSL) means no names
  const out: SubjectAltName[] = [];
  for (const gn of names) {
    if (gn.cls !== 2 || gn.tag > 8) return bad;
    const type = SAN_TYPES[gn.tag]!;
    switch (gn.tag) {
      case 1: // rfc822Name
      case 2: // dNSName
      case 6: // uniformResourceIdentifier
        if (gn.constructed) return bad;
        out.push({ type, value: ia5Text.decode(buf.subarray(gn.body, gn.end)) });
        break;
      case 7: {
        if (gn.constructed) return bad;
        out.push({ type, value: ipText(buf, gn) });
        break;
      }
      case 8: {
        const oid = gn.constructed ? null : readOidContent(buf, gn);
        if (oid === null) return bad;
        out.push({ type, value: oid });
        break;
      }
      case 4: {
        const inner = gn.constructed ? children(buf, gn) : null;
        const name = inner?.length === 1 ? inner[0] : undefined;
        const text =
          name !== undefined && isUniversal(name, TAG.SEQUENCE, true) ? formatName(buf, name) : null;
        if (text === null || name === undefined) return bad;
        out.push({ type, value: text, nameKey: hexLower(buf, name.start, name.end) });
        break;
      }
      case 0:
        if (!otherNameOk(buf, gn)) return bad;
        out.push({ type, value: `#${hexUpper(buf, gn.start, gn.end)}` });
        break;
      default: // x400Address, ediPartyName: the GeneralName's whole DER
        out.push({ type, value: `#${hexUpper(buf, gn.start, gn.end)}` });
    }
  }
  return out;
}

/**
 * An otherName (`[0] IMPLICIT SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }`,
 * RFC 5280 §4.2.1.6) that OpenSSL's OTHERNAME template reads: exactly those two parts, a valid
 * OID, and one value inside `[0]` that OpenSSL's `ANY` accepts (`anyValueOk`: DER only, so a
 * constructed string is refused although OpenSSL would gather it). OpenSSL refuses the whole
 * subjectAltName otherwise (`openssl x509 -ext subjectAltName` dumps it raw); so does this.
 */
function otherNameOk(buf: Uint8Array, gn: Tlv): boolean {
  const parts = gn.constructed ? children(buf, gn) : null;
  if (parts === null || parts.length !== 2 || readOid(buf, parts[0]) === null) return false;
  const wrapper = parts[1];
  const inner = isContext(wrapper, 0, true) ? children(buf, wrapper) : null;
  return inner !== null && inner.length === 1 && anyValueOk(buf, inner[0]!);
}

function readOidContent(buf: Uint8Array, t: Tlv): string | null {
  // A registeredID is an IMPLICIT OBJECT IDENTIFIER: the content octets are the OID's.
  return readOid(buf, { ...t, cls: UNIVERSAL, tag: TAG.OID });
}

/** Canonical address text (CONTRACT §2) for 4 or 16 octets, else `#` + hex of the octets. */
function ipText(buf: Uint8Array, t: Tlv): string {
  const len = t.end - t.body;
  const word = (at: number) =>
    ((buf[at]! << 24) | (buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!) >>> 0;
  if (len === 4) return IpAddr.v4(word(t.body)).toString();
  if (len === 16) {
    return IpAddr.v6(word(t.body), word(t.body + 4), word(t.body + 8), word(t.body + 12)).toString();
  }
  return `#${hexUpper(buf, t.body, t.end)}`;
}
