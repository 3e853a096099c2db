/**
 * DER → RevocationListData (RFC 5280 §5; CONTRACT §10.2), read with the same strict reader as
 * certificates (`der.ts`): definite minimal lengths, nothing past a parent's end, no trailing
 * bytes, minimal INTEGERs, known time forms, no repeated extension, and every entry checked once
 * before any answer is given. Stricter than OpenSSL's `d2i_X509_CRL` in a few documented ways
 * (ADR 0042): extensions need version 2, a reasonCode must be one RFC 5280 defines, an
 * invalidityDate must be a GeneralizedTime, and indirect CRLs (a certificateIssuer entry
 * extension) are refused. Work is linear in the input: a CA's full CRL of several megabytes is
 * read in one pass, and its entries are never all held as objects.
 */
import type {
  RevocationListData,
  RevocationReason,
  RevokedEntry,
} from "../../domain/certificates/revocation-list-model.ts";
import {
  children,
  hexLower,
  integerContentOk,
  isBitString,
  isContext,
  isUniversal,
  readAlgorithm,
  readTime,
  readTlv,
  sequence,
  TAG,
  type Tlv,
} from "../../domain/der.ts";
import type { RevocationListDecodeResult, RevocationListDecoder } from "../../domain/ports.ts";
import { Malformed, readExtensions } from "./certificate-fields.ts";
import { readAuthorityKeyIdentifier, serialText } from "./decoder.ts";
import { formatName, opensslLongName } from "./openssl-names.ts";

const OID_CRL_NUMBER = "2.5.29.20";
const OID_AUTHORITY_KEY_IDENTIFIER = "2.5.29.35";
const OID_REASON_CODE = "2.5.29.21";
const OID_INVALIDITY_DATE = "2.5.29.24";
const OID_CERTIFICATE_ISSUER = "2.5.29.29";

/** CRLReason values (RFC 5280 §5.3.1); 7 is not used. */
const REASON_BY_CODE: Readonly<Record<number, RevocationReason>> = {
  0: "unspecified",
  1: "keyCompromise",
  2: "cACompromise",
  3: "affiliationChanged",
  4: "superseded",
  5: "cessationOfOperation",
  6: "certificateHold",
  8: "removeFromCRL",
  9: "privilegeWithdrawn",
  10: "aACompromise",
};

/** Stateless: one instance serves every request and every CLI run. */
export class DerRevocationListDecoder implements RevocationListDecoder {
  decodeRevocationList(der: Uint8Array): RevocationListDecodeResult {
    try {
      // Not copied: a CA's full list can be megabytes. The answer's byte fields are views into `der`.
      const parsed = parseRevocationList(der);
      return parsed instanceof Malformed ? { ok: false, reason: parsed.reason } : { ok: true, list: parsed };
    } catch {
      // Not expected: every reader returns null on bad input. Kept so hostile bytes can never throw.
      return { ok: false, reason: "not a valid certificate revocation list" };
    }
  }
}

function parseRevocationList(buf: Uint8Array): RevocationListData | Malformed {
  if (buf.length === 0) return new Malformed("empty certificate revocation list");
  const top = readTlv(buf, 0, buf.length);
  if (top === null || !isUniversal(top, TAG.SEQUENCE, true)) {
    return new Malformed("not a DER-encoded certificate revocation list");
  }
  if (top.end !== buf.length) return new Malformed("trailing bytes after the certificate revocation list");
  const parts = children(buf, top);
  if (parts === null || parts.length !== 3)
    return new Malformed("not a DER-encoded certificate revocation list");
  const [tbs, outerAlg, signature] = parts as [Tlv, Tlv, Tlv];
  const fields = sequence(buf, tbs);
  if (fields === null) return new Malformed("malformed revocation list body");
  const outer = readAlgorithm(buf, outerAlg);
  if (outer === null) return new Malformed("malformed signature algorithm");
  if (!isBitString(buf, signature)) return new Malformed("malformed signature value");

  let i = 0;
  let version: 1 | 2 = 1;
  if (isUniversal(fields[0], TAG.INTEGER, false)) {
    const v = fields[i++]!;
    // Version OPTIONAL: present, it is v1 (0) or v2 (1), one octet.
    if (v.end - v.body !== 1 || buf[v.body]! > 1) return new Malformed("unsupported revocation list version");
    version = buf[v.body] === 1 ? 2 : 1;
  }
  const inner = readAlgorithm(buf, fields[i++]);
  if (inner === null) return new Malformed("malformed signature algorithm");
  const issuer = fields[i++];
  const issuerText = isUniversal(issuer, TAG.SEQUENCE, true) ? formatName(buf, issuer) : null;
  if (issuerText === null) return new Malformed("malformed issuer name");
  const thisUpdate = readTime(buf, fields[i++]);
  if (thisUpdate === null) return new Malformed("malformed thisUpdate");
  let nextUpdate: Date | null = null;
  const maybeNext = fields[i];
  if (maybeNext !== undefined && !maybeNext.constructed && maybeNext.cls === 0) {
    nextUpdate = readTime(buf, maybeNext);
    if (nextUpdate === null) return new Malformed("malformed nextUpdate");
    i++;
  }
  let revoked: Tlv | null = null;
  if (isUniversal(fields[i], TAG.SEQUENCE, true)) revoked = fields[i++]!;
  let extensionsTlv: Tlv | undefined;
  if (isContext(fields[i], 0, true)) extensionsTlv = fields[i++];
  if (i !== fields.length) return new Malformed("malformed revocation list body");
  if (extensionsTlv !== undefined && version !== 2)
    return new Malformed("extensions need revocation list version 2");

  const extensions =
    extensionsTlv === undefined ? new Map<string, Tlv>() : readExtensions(buf, extensionsTlv);
  if (extensions instanceof Malformed) return extensions;
  const crlNumber = readCrlNumber(buf, extensions.get(OID_CRL_NUMBER));
  if (crlNumber instanceof Malformed) return crlNumber;
  const aki = readAuthorityKeyIdentifier(buf, extensions.get(OID_AUTHORITY_KEY_IDENTIFIER));
  if (aki instanceof Malformed) return aki;

  // Every entry is checked here, once: the answers below re-read only what this pass accepted.
  let entryCount = 0;
  if (revoked !== null) {
    let pos = revoked.body;
    while (pos < revoked.end) {
      const entry = readTlv(buf, pos, revoked.end);
      if (entry === null) return new Malformed("malformed revoked certificate entry");
      const read = readEntry(buf, entry, version);
      if (read instanceof Malformed) return read;
      entryCount++;
      pos = entry.end;
    }
  }

  function* entries(): Generator<RevokedEntry> {
    if (revoked === null) return;
    for (let pos = revoked.body; pos < revoked.end; ) {
      const entry = readTlv(buf, pos, revoked.end)!;
      yield readEntry(buf, entry, version) as RevokedEntry;
      pos = entry.end;
    }
  }

  const span = (t: Tlv) => buf.subarray(t.start, t.end);
  return {
    der: buf,
    tbs: span(tbs),
    signatureParameters: outer.params === undefined ? null : span(outer.params),
    signatureValue: buf[signature.body] === 0 ? buf.subarray(signature.body + 1, signature.end) : null,
    signatureAlgorithm: opensslLongName(outer.oid),
    signatureAlgorithmOid: outer.oid,
    signatureAlgorithmsMatch: sameBytes(buf, inner.tlv, outer.tlv),
    version,
    issuer: issuerText,
    issuerNameKey: hexLower(buf, issuer!.start, issuer!.end),
    thisUpdate,
    nextUpdate,
    crlNumber,
    authorityKeyIdentifier: aki,
    entryCount,
    find(serialNumbers) {
      const wanted = new Set(serialNumbers);
      const found = new Map<string, RevokedEntry>();
      if (revoked === null || wanted.size === 0) return found;
      for (let pos = revoked.body; pos < revoked.end && found.size < wanted.size; ) {
        const entry = readTlv(buf, pos, revoked.end)!;
        pos = entry.end;
        // The serial alone is read for each entry; the rest only for the entries asked for.
        const serial = serialText(buf, readTlv(buf, entry.body, entry.end) ?? undefined);
        if (serial !== null && wanted.has(serial) && !found.has(serial)) {
          found.set(serial, readEntry(buf, entry, version) as RevokedEntry);
        }
      }
      return found;
    },
    entries,
  };
}

/** One revokedCertificates entry: SEQUENCE { serial, revocationDate, crlEntryExtensions OPTIONAL }. */
function readEntry(buf: Uint8Array, entry: Tlv, version: 1 | 2): RevokedEntry | Malformed {
  const parts = sequence(buf, entry);
  if (parts === null || parts.length < 2 || parts.length > 3) {
    return new Malformed("malformed revoked certificate entry");
  }
  const serialNumber = serialText(buf, parts[0]);
  if (serialNumber === null) return new Malformed("malformed serial number in a revoked certificate entry");
  const revocationDate = readTime(buf, parts[1]);
  if (revocationDate === null) return new Malformed("malformed revocation date");
  const extensionList = parts[2];
  if (extensionList === undefined)
    return { serialNumber, revocationDate, reason: null, invalidityDate: null };
  if (version !== 2) return new Malformed("entry extensions need revocation list version 2");
  if (!isUniversal(extensionList, TAG.SEQUENCE, true)) return new Malformed("malformed entry extensions");
  // readExtensions reads the one SEQUENCE OF Extension inside a wrapper: the list's own TLV is that wrapper's content.
  const extensions = readExtensions(buf, { ...extensionList, body: extensionList.start });
  if (extensions instanceof Malformed) return extensions;
  if (extensions.has(OID_CERTIFICATE_ISSUER)) {
    return new Malformed("indirect revocation lists (certificateIssuer entries) are not supported");
  }
  const reason = readReason(buf, extensions.get(OID_REASON_CODE));
  if (reason instanceof Malformed) return reason;
  const invalidityDate = readInvalidityDate(buf, extensions.get(OID_INVALIDITY_DATE));
  if (invalidityDate instanceof Malformed) return invalidityDate;
  return { serialNumber, revocationDate, reason, invalidityDate };
}

/** The single TLV that exactly fills an extension's OCTET STRING, or null. */
function extensionBody(buf: Uint8Array, octets: Tlv): Tlv | null {
  const t = readTlv(buf, octets.body, octets.end);
  return t !== null && t.end === octets.end ? t : null;
}

function readReason(buf: Uint8Array, octets: Tlv | undefined): RevocationReason | null | Malformed {
  if (octets === undefined) return null;
  const value = extensionBody(buf, octets);
  if (value === null || !isUniversal(value, TAG.ENUMERATED, false) || value.end - value.body !== 1) {
    return new Malformed("malformed reasonCode entry extension");
  }
  return (
    REASON_BY_CODE[buf[value.body]!] ?? new Malformed("unknown reasonCode in a revoked certificate entry")
  );
}

function readInvalidityDate(buf: Uint8Array, octets: Tlv | undefined): Date | null | Malformed {
  if (octets === undefined) return null;
  const value = extensionBody(buf, octets);
  const date =
    value !== null && isUniversal(value, TAG.GENERALIZED_TIME, false) ? readTime(buf, value) : null;
  return date ?? new Malformed("malformed invalidityDate entry extension");
}

/** cRLNumber (RFC 5280 §5.2.3): a non-negative INTEGER of at most 20 octets, in decimal. */
function readCrlNumber(buf: Uint8Array, octets: Tlv | undefined): string | null | Malformed {
  if (octets === undefined) return null;
  const value = extensionBody(buf, octets);
  if (
    value === null ||
    !isUniversal(value, TAG.INTEGER, false) ||
    !integerContentOk(buf, value) ||
    buf[value.body]! & 0x80 ||
    value.end - value.body > 21
  ) {
    return new Malformed("malformed cRLNumber extension");
  }
  return BigInt(`0x${hexLower(buf, value.body, value.end)}`).toString(10);
}

function sameBytes(buf: Uint8Array, a: Tlv, b: Tlv): boolean {
  if (a.end - a.start !== b.end - b.start) return false;
  for (let k = 0; k < a.end - a.start; k++) if (buf[a.start + k] !== buf[b.start + k]) return false;
  return true;
}
