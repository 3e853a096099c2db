/**
 * The reference root store (RootStore port, CONTRACT §4.3 `issuerIsKnownRoot`, §9.2): by default
 * the committed snapshot of Mozilla's roots for TLS server authentication, with their distrust
 * dates (src/adapters/reference-roots.json, rebuilt by scripts/build-reference-roots.ts from NSS certdata.txt and
 * the Chrome Root Store; docs/decisions/0009), or the certificates of a trust-store file that
 * replaces it (REFERENCE_ROOTS_FILE, `--reference-roots`: no distrust dates then). Indexed by
 * subject-name DER, each name with its roots and their subjectKeyIdentifiers.
 *
 * Only two things are read from each root, with the project's strict DER reader (`der.ts`): the
 * subject Name's DER (the same bytes `DerCertificateDecoder` turns into `subjectNameKey`) and the
 * subjectKeyIdentifier. That keeps the index synchronous (the decoder is async only for the
 * fingerprint, which is not needed here). A root that does not read is left out of the index.
 *
 * Built at construction; `mozillaRootStore()` builds the built-in store once per process, on first
 * use, so the server pays the cost at start (measured in docs/performance.md) and a CLI run that
 * never inspects a bundle never pays it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { trustStoreCertificates } from "../../domain/certificates/trust-store-file.ts";
import {
  children,
  hexLower,
  isContext,
  isUniversal,
  readOid,
  readTlv,
  sequence,
  TAG,
} from "../../domain/der.ts";
import type { ReferenceRootsInfo, RootDistrust, RootStore } from "../../domain/ports.ts";
import snapshot from "../reference-roots.json" with { type: "json" };

const OID_SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
const BEGIN = "-----BEGIN CERTIFICATE-----";
const END = "-----END CERTIFICATE-----";

/** One root given to a store: its DER and, for the built-in snapshot, its distrust dates. */
export interface ReferenceRoot {
  der: Uint8Array;
  distrust?: RootDistrust | null;
}

/** Subject name key and subjectKeyIdentifier (normalized uppercase hex without colons, or null). */
export interface RootKeys {
  subjectNameKey: string;
  subjectKeyIdentifier: string | null;
}

/** A RootStore over a fixed list of root certificates (DER), with their distrust dates where known. */
export class ReferenceRootStore implements RootStore {
  /** subjectNameKey → the roots with that name, in the given order, each with its subjectKeyIdentifier. */
  private readonly byName = new Map<string, { subjectKeyIdentifier: string | null; der: Uint8Array }[]>();
  /** The roots with a distrust date, by DER length (a lookup compares a handful of byte strings). */
  private readonly distrusted = new Map<number, { der: Uint8Array; distrust: RootDistrust }[]>();
  /** The indexed roots' DER, in store order. */
  private readonly ders: Uint8Array[] = [];
  /** How many of the given certificates were indexed. */
  readonly size: number;

  constructor(
    roots: Iterable<Uint8Array | ReferenceRoot>,
    /** Where the roots came from, for {@link describe}. */
    private readonly origin: { source: "built-in" | "file"; version: string } = {
      source: "file",
      version: "(in memory)",
    },
  ) {
    for (const given of roots) {
      const { der, distrust = null } = given instanceof Uint8Array ? { der: given } : given;
      const keys = readRootKeys(der);
      if (keys === null) continue;
      this.ders.push(der);
      const named = this.byName.get(keys.subjectNameKey);
      const entry = { subjectKeyIdentifier: keys.subjectKeyIdentifier, der };
      if (named === undefined) this.byName.set(keys.subjectNameKey, [entry]);
      else named.push(entry);
      if (distrust !== null && (distrust.serverDistrustAfter !== null || distrust.sctNotAfter !== null)) {
        const sameLength = this.distrusted.get(der.length) ?? [];
        sameLength.push({ der, distrust });
        this.distrusted.set(der.length, sameLength);
      }
    }
    this.size = this.ders.length;
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

  distrustOf(rootDer: Uint8Array): RootDistrust | null {
    const candidates = this.distrusted.get(rootDer.length) ?? [];
    return candidates.find((root) => Buffer.from(root.der).equals(Buffer.from(rootDer)))?.distrust ?? null;
  }

  /** Where the store came from, how many roots and distrust dates it holds, and its digest. */
  describe(): ReferenceRootsInfo {
    this.description ??= this.computeDescription();
    return { ...this.description };
  }

  /** The store never changes once built: its description is computed once, on first ask. */
  private description: ReferenceRootsInfo | null = null;

  private computeDescription(): ReferenceRootsInfo {
    const hash = createHash("sha256");
    for (const der of this.ders) hash.update(der);
    let distrustDates = 0;
    for (const sameLength of this.distrusted.values()) distrustDates += sameLength.length;
    return {
      source: this.origin.source,
      version: this.origin.version,
      certificates: this.size,
      distrustDates,
      sha256: hash.digest("hex"),
    };
  }
}

/** A reference-roots file that cannot replace the built-in store: the message says why. */
export class ReferenceRootsFileError extends Error {
  override name = "ReferenceRootsFileError";
}

/**
 * The certificates of a trust-store file as the reference store (CONTRACT §9.2, §9.6), with the
 * labels of the blocks skipped. Throws ReferenceRootsFileError when the file cannot be read or
 * holds no certificate that reads; the message names the path, never the file's content.
 */
export function rootStoreFromFile(path: string): { store: ReferenceRootStore; skippedLabels: string[] } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReferenceRootsFileError(`cannot read ${path}${code ? ` (${code})` : ""}`);
  }
  const { ders, skippedLabels } = trustStoreCertificates(text);
  const store = new ReferenceRootStore(ders, { source: "file", version: basename(path) });
  if (store.size === 0) throw new ReferenceRootsFileError(`${path} holds no certificate`);
  return { store, skippedLabels };
}

let builtInStore: ReferenceRootStore | null = null;

/**
 * The built-in store: the committed snapshot of Mozilla's roots with their distrust dates
 * (reference-roots.json), indexed once per process on the first call.
 */
export function mozillaRootStore(): ReferenceRootStore {
  if (builtInStore === null) {
    const date = (text: string | undefined) => (text === undefined ? null : Date.parse(text));
    builtInStore = new ReferenceRootStore(
      snapshot.roots.map((root) => ({
        der: Buffer.from(root.der, "base64"),
        distrust: {
          serverDistrustAfter: date("serverDistrustAfter" in root ? root.serverDistrustAfter : undefined),
          sctNotAfter: date("sctNotAfter" in root ? root.sctNotAfter : undefined),
        },
      })),
      { source: "built-in", version: snapshot.version },
    );
  }
  return builtInStore;
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
