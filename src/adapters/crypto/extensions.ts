/**
 * The extensions behind the chain's client rules (CONTRACT §8.1): extendedKeyUsage (RFC 5280
 * §4.2.1.12), nameConstraints (§4.2.1.10), cRLDistributionPoints (§4.2.1.13) and the embedded
 * SignedCertificateTimestampList (RFC 6962 §3.3).
 *
 * Strict like the other extension readers (docs/certificates-der.md): a value that is not the
 * extension's DER structure makes the reader answer null and the decoder refuse the certificate —
 * except the SCT list, whose content is TLS encoding inside an OCTET STRING: one that cannot be
 * read counts 0 SCTs (CONTRACT §8.1), as a client that cannot read it finds none. Work is linear
 * in the extension's length.
 */
import type { NameConstraints, NameSubtrees } from "../../domain/certificates/model.ts";
import {
  children,
  isContext,
  isUniversal,
  readOid,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";

export const OID_EXTENDED_KEY_USAGE = "2.5.29.37";
export const OID_NAME_CONSTRAINTS = "2.5.29.30";
export const OID_CRL_DISTRIBUTION_POINTS = "2.5.29.31";
/** Embedded SCT list (RFC 6962 §3.3). */
export const OID_SCT_LIST = "1.3.6.1.4.1.11129.2.4.2";

/** KeyPurposeId names (RFC 5280 §4.2.1.12, OpenSSL's short names); any other purpose is its dotted OID. */
const KEY_PURPOSES: ReadonlyMap<string, string> = new Map([
  ["1.3.6.1.5.5.7.3.1", "serverAuth"],
  ["1.3.6.1.5.5.7.3.2", "clientAuth"],
  ["1.3.6.1.5.5.7.3.3", "codeSigning"],
  ["1.3.6.1.5.5.7.3.4", "emailProtection"],
  ["1.3.6.1.5.5.7.3.8", "timeStamping"],
  ["1.3.6.1.5.5.7.3.9", "OCSPSigning"],
  ["2.5.29.37.0", "anyExtendedKeyUsage"],
]);

/** GeneralName tags (RFC 5280 §4.2.1.6). */
const GENERAL_NAME = { email: 1, dns: 2, directoryName: 4, uri: 6, ip: 7, maxTag: 8 } as const;

/** The GeneralName forms the chain cannot evaluate under nameConstraints, by tag. */
const UNSUPPORTED_FORMS: Readonly<Record<number, string>> = {
  0: "otherName",
  3: "x400Address",
  5: "ediPartyName",
  8: "registeredId",
};

/** IA5String read as UTF-8 (stray non-ASCII octets stay visible, as for the SANs). */
const ia5Text = new TextDecoder("utf-8");

/** The single TLV that exactly fills an extension's OCTET STRING, or null. */
function body(buf: Uint8Array, octets: Tlv): Tlv | null {
  const t = readTlv(buf, octets.body, octets.end);
  return t !== null && t.end === octets.end ? t : null;
}

/** The elements of the SEQUENCE that exactly fills an extension's OCTET STRING, or null. */
function sequenceValue(buf: Uint8Array, octets: Tlv): Tlv[] | null {
  const value = body(buf, octets);
  return value === null ? null : sequence(buf, value);
}

/**
 * ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId: the purposes in extension order,
 * named; null without the extension. `undefined` for a malformed value. An empty list (against
 * RFC 5280's SIZE, as OpenSSL loads it) is an empty list.
 */
export function readExtendedKeyUsage(buf: Uint8Array, octets: Tlv | undefined): string[] | null | undefined {
  if (octets === undefined) return null;
  const oids = sequenceValue(buf, octets)?.map((purpose) => readOid(buf, purpose));
  if (oids === undefined || oids.includes(null)) return undefined;
  return oids.map((oid) => KEY_PURPOSES.get(oid!) ?? oid!);
}

/**
 * NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
 * excludedSubtrees [1] GeneralSubtrees OPTIONAL }, each GeneralSubtree a SEQUENCE { base
 * GeneralName, minimum [0] DEFAULT 0, maximum [1] OPTIONAL }. Keeps the dNSName bases (text) and
 * the iPAddress bases (address, then mask; another length is kept whole, matching nothing), the
 * rfc822Name and URI bases (text), the directoryName bases (the Name's RDNs as hex), and which
 * other forms appear (CONTRACT §9.4: a form that cannot be evaluated violates). Null without the
 * extension, `undefined` for a malformed value.
 */
export function readNameConstraints(
  buf: Uint8Array,
  octets: Tlv | undefined,
): NameConstraints | null | undefined {
  if (octets === undefined) return null;
  const parts = sequenceValue(buf, octets);
  if (parts === null || parts.length > 2) return undefined;
  const constraints: NameConstraints = { permitted: emptySubtrees(), excluded: emptySubtrees() };
  let last = -1;
  for (const part of parts) {
    if (!(isContext(part, 0, true) || isContext(part, 1, true)) || part.tag <= last) return undefined;
    last = part.tag;
    const subtrees = children(buf, part);
    if (subtrees === null) return undefined;
    const into = part.tag === 0 ? constraints.permitted : constraints.excluded;
    for (const subtree of subtrees) if (!readSubtree(buf, subtree, into)) return undefined;
  }
  return constraints;
}

function emptySubtrees(): NameSubtrees {
  return { dns: [], ip: [], email: [], uri: [], directoryName: [], unsupported: [] };
}

/** One GeneralSubtree into `into`; false when malformed. */
function readSubtree(buf: Uint8Array, subtree: Tlv, into: NameSubtrees): boolean {
  const fields = sequence(buf, subtree);
  if (fields === null || fields.length < 1 || fields.length > 3) return false;
  const [base, ...distances] = fields as [Tlv, ...Tlv[]];
  let last = -1;
  for (const distance of distances) {
    // minimum [0] and maximum [1]: IMPLICIT INTEGER, in order.
    if (distance.cls !== 2 || distance.constructed || distance.tag > 1 || distance.tag <= last) return false;
    if (distance.end === distance.body) return false;
    last = distance.tag;
  }
  if (base.cls !== 2 || base.tag > GENERAL_NAME.maxTag) return false;
  const text = () => ia5Text.decode(buf.subarray(base.body, base.end));
  switch (base.tag) {
    case GENERAL_NAME.dns:
    case GENERAL_NAME.email:
    case GENERAL_NAME.uri: {
      if (base.constructed) return false;
      const list =
        base.tag === GENERAL_NAME.dns ? into.dns : base.tag === GENERAL_NAME.email ? into.email : into.uri;
      list.push(text());
      return true;
    }
    case GENERAL_NAME.ip: {
      if (base.constructed) return false;
      const length = base.end - base.body;
      if (length === 8 || length === 32) {
        const half = length / 2;
        into.ip.push({
          address: buf.slice(base.body, base.body + half),
          mask: buf.slice(base.body + half, base.end),
        });
      } else {
        into.ip.push({ address: buf.slice(base.body, base.end), mask: new Uint8Array() });
      }
      return true;
    }
    case GENERAL_NAME.directoryName: {
      // [4] EXPLICIT Name: one SEQUENCE inside; its content octets are the RDNs.
      const inner = base.constructed ? children(buf, base) : null;
      const name = inner?.length === 1 ? inner[0] : undefined;
      if (name === undefined || !isUniversal(name, TAG.SEQUENCE, true)) return false;
      into.directoryName.push(hexOf(buf, name.body, name.end));
      return true;
    }
    default: {
      const form = UNSUPPORTED_FORMS[base.tag]!;
      if (!into.unsupported.includes(form)) into.unsupported.push(form);
      return true;
    }
  }
}

/**
 * CRLDistributionPoints ::= SEQUENCE OF DistributionPoint { distributionPoint [0]
 * DistributionPointName OPTIONAL, reasons [1] OPTIONAL, cRLIssuer [2] OPTIONAL }: the URIs of every
 * `fullName` ([0] GeneralNames), in extension order. A `nameRelativeToCRLIssuer` names no URL.
 * Empty without the extension; `undefined` for a malformed value.
 */
export function readCrlUrls(buf: Uint8Array, octets: Tlv | undefined): string[] | undefined {
  if (octets === undefined) return [];
  const points = sequenceValue(buf, octets);
  if (points === null) return undefined;
  const urls: string[] = [];
  for (const point of points) {
    const fields = sequence(buf, point);
    if (fields === null) return undefined;
    let last = -1;
    for (const field of fields) {
      if (field.cls !== 2 || field.tag > 2 || field.tag <= last) return undefined;
      last = field.tag;
      if (field.tag !== 0) continue;
      // distributionPoint [0] holds one DistributionPointName: fullName [0] or nameRelativeToCRLIssuer [1].
      const name = field.constructed ? children(buf, field) : null;
      const choice = name?.length === 1 ? name[0] : undefined;
      if (isContext(choice, 1, true)) continue;
      if (!isContext(choice, 0, true)) return undefined;
      const names = children(buf, choice);
      if (names === null) return undefined;
      for (const general of names) {
        if (general.cls !== 2 || general.tag > GENERAL_NAME.maxTag) return undefined;
        if (general.tag !== GENERAL_NAME.uri) continue;
        if (general.constructed) return undefined;
        urls.push(ia5Text.decode(buf.subarray(general.body, general.end)));
      }
    }
  }
  return urls;
}

function hexOf(buf: Uint8Array, start: number, end: number): string {
  let out = "";
  for (let k = start; k < end; k++) out += buf[k]!.toString(16).padStart(2, "0");
  return out;
}

/**
 * The earliest timestamp (milliseconds since the epoch) of the embedded SCTs, or null: each
 * SerializedSCT starts with its version (1 octet), the log's id (32) and a uint64 timestamp in
 * milliseconds (RFC 6962 §3.2). Read only when `countScts` counts the list as well-formed.
 */
export function earliestSctTimestamp(buf: Uint8Array, octets: Tlv | undefined): number | null {
  if (countScts(buf, octets) === 0 || octets === undefined) return null;
  const value = body(buf, octets)!;
  let earliest: number | null = null;
  for (let at = value.body + 2; at < value.end; ) {
    const length = (buf[at]! << 8) | buf[at + 1]!;
    const entry = at + 2;
    if (length >= 41 && buf[entry] === 0) {
      let ms = 0;
      for (let k = 0; k < 8; k++) ms = ms * 256 + buf[entry + 33 + k]!;
      if (earliest === null || ms < earliest) earliest = ms;
    }
    at = entry + length;
  }
  return earliest;
}

/**
 * How many SCTs the embedded SignedCertificateTimestampList holds (RFC 6962 §3.3): the extension's
 * value is an OCTET STRING holding the TLS structure `opaque SerializedSCT<1..2^16-1>
 * sct_list<1..2^16-1>`, so a 2-octet total length, then entries of a 2-octet length and that many
 * octets. 0 without the extension, and 0 when any of those lengths does not add up.
 */
export function countScts(buf: Uint8Array, octets: Tlv | undefined): number {
  if (octets === undefined) return 0;
  const value = body(buf, octets);
  if (value === null || !isUniversal(value, TAG.OCTET_STRING, false)) return 0;
  const start = value.body;
  const end = value.end;
  if (end - start < 2) return 0;
  const total = (buf[start]! << 8) | buf[start + 1]!;
  if (total !== end - start - 2 || total === 0) return 0;
  let count = 0;
  for (let at = start + 2; at < end; ) {
    if (end - at < 2) return 0;
    const length = (buf[at]! << 8) | buf[at + 1]!;
    if (length === 0 || at + 2 + length > end) return 0;
    at += 2 + length;
    count++;
  }
  return count;
}
