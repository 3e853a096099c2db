/**
 * The reference root store (RootStore port, CONTRACT §4.3 `issuerIsKnownRoot`): the Mozilla roots
 * the runtime bundles (`tls.rootCertificates`, the same list Node and Bun trust by default),
 * indexed by subject-name DER, each name with its roots and their subjectKeyIdentifiers.
 *
 * Only two things are read from each root, with the project's strict DER reader (`der.ts`): the
 * subject Name's DER (the same bytes `DerCertificateDecoder` turns into `subjectNameKey`) and the
 * subjectKeyIdentifier. That keeps the index synchronous (the decoder is async only for the
 * fingerprint, which is not needed here). A root that does not read is left out of the index.
 *
 * Built at construction; `mozillaRootStore()` builds the runtime's store once per process, on
 * first use, so the server pays the cost at start (measured in docs/performance.md) and a CLI run
 * that never inspects a bundle never pays it.
 */
import { createRequire } from "node:module";
import type { RootStore } from "../../domain/ports.ts";
import { children, hexLower, isContext, isUniversal, readOid, readTlv, sequence, TAG } from "./der.ts";

const OID_SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
const BEGIN = "-----BEGIN CERTIFICATE-----";
const END = "-----END CERTIFICATE-----";

/** Subject name key and subjectKeyIdentifier (normalized uppercase hex without colons, or null). */
export interface RootKeys {
  subjectNameKey: string;
  subjectKeyIdentifier: string | null;
}

/** A RootStore over a fixed list of root certificates (DER). */
export class ReferenceRootStore implements RootStore {
  /** subjectNameKey → the roots with that name, in the given order, each with its subjectKeyIdentifier. */
  private readonly byName = new Map<string, { subjectKeyIdentifier: string | null; der: Uint8Array }[]>();
  /** How many of the given certificates were indexed. */
  readonly size: number;

  constructor(roots: Iterable<Uint8Array>) {
    let size = 0;
    for (const der of roots) {
      const keys = readRootKeys(der);
      if (keys === null) continue;
      size++;
      const named = this.byName.get(keys.subjectNameKey);
      const entry = { subjectKeyIdentifier: keys.subjectKeyIdentifier, der };
      if (named === undefined) this.byName.set(keys.subjectNameKey, [entry]);
      else named.push(entry);
    }
    this.size = size;
  }

  isKnownRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): boolean {
    return this.findRoots(issuerNameKey, authorityKeyIdentifier).length > 0;
  }

  findRoots(issuerNameKey: string, authorityKeyIdentifier: string | null): readonly Uint8Array[] {
    const named = this.byName.get(issuerNameKey);
    if (named === undefined) return [];
    const keyId = authorityKeyIdentifier === null ? null : normalizeKeyId(authorityKeyIdentifier);
    return named
      .filter(
        (root) => keyId === null || root.subjectKeyIdentifier === null || root.subjectKeyIdentifier === keyId,
      )
      .map((root) => root.der);
  }
}

let runtimeStore: ReferenceRootStore | null = null;

/**
 * The runtime's Mozilla roots as a RootStore, built once per process on the first call.
 * `node:tls` is loaded here rather than imported at the top: loading it costs about 20 ms, which a
 * CLI run that never inspects a certificate should not pay.
 */
export function mozillaRootStore(): ReferenceRootStore {
  if (runtimeStore === null) {
    const { rootCertificates } = createRequire(import.meta.url)("node:tls") as typeof import("node:tls");
    runtimeStore = new ReferenceRootStore(rootCertificates.map(pemToDer).filter((der) => der !== null));
  }
  return runtimeStore;
}

/** The DER of a one-certificate PEM string (as `tls.rootCertificates` holds them), or null. */
export function pemToDer(pem: string): Uint8Array | null {
  const begin = pem.indexOf(BEGIN);
  const end = pem.indexOf(END, begin + BEGIN.length);
  if (begin === -1 || end === -1) return null;
  const der = Buffer.from(pem.slice(begin + BEGIN.length, end), "base64");
  return der.length === 0 ? null : der;
}

/**
 * The subject name DER (lowercase hex) and subjectKeyIdentifier of one certificate, or null when
 * its outer structure does not read. Reads only what it needs: the decoder does the strict checks.
 */
export function readRootKeys(der: Uint8Array): RootKeys | null {
  const cert = readTlv(der, 0, der.length);
  const top = cert && sequence(der, cert);
  const tbs = top && sequence(der, top[0]);
  if (!tbs) return null;
  const offset = isContext(tbs[0], 0, true) ? 1 : 0;
  const subject = tbs[offset + 4];
  if (!isUniversal(subject, TAG.SEQUENCE, true)) return null;
  let subjectKeyIdentifier: string | null = null;
  const extensions = tbs.find((part) => isContext(part, 3, true));
  const list = extensions && children(der, extensions);
  const entries = list?.length === 1 ? sequence(der, list[0]) : null;
  for (const entry of entries ?? []) {
    const parts = sequence(der, entry);
    if (!parts || readOid(der, parts[0]) !== OID_SUBJECT_KEY_IDENTIFIER) continue;
    const octets = parts[parts.length - 1];
    const inner = isUniversal(octets, TAG.OCTET_STRING, false) ? readTlv(der, octets.body, octets.end) : null;
    if (isUniversal(inner ?? undefined, TAG.OCTET_STRING, false) && inner) {
      subjectKeyIdentifier = hexLower(der, inner.body, inner.end).toUpperCase();
    }
  }
  return { subjectNameKey: hexLower(der, subject.start, subject.end), subjectKeyIdentifier };
}

function normalizeKeyId(keyId: string): string {
  return keyId.replace(/:/g, "").toUpperCase();
}
