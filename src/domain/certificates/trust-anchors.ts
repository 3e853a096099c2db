/**
 * Trust anchors for one request (CONTRACT §7.2): the reference root store the service ships,
 * composed with CA certificates the caller supplies (`roots` in the API, `--roots` and
 * `NETTOOLS_ROOTS` in the CLI). Supplied roots are tried first and match the way shipped roots do:
 * by subject name, and by key id where both the child's authority key id and the root's subject key
 * id exist, so a same-name root with another key id does not match. Any CA certificate may be
 * supplied, self-signed or not (an intermediate the caller trusts, like openssl's -partial_chain).
 * A root that matches ends a path only once its key verifies the member (`issuerRoot`).
 */
import type { Issue } from "../errors.ts";
import type {
  CertificateDecoder,
  ReferenceRootsInfo,
  RootDistrust,
  RootStore,
  SignatureCheck,
} from "../ports.ts";
import { NOT_A_CERTIFICATE_MESSAGE } from "./bundle.ts";
import type { CertificateData } from "./model.ts";
import { checkPemSize, DEFAULT_PEM_LIMITS, type PemLimits, scanPem } from "./pem.ts";
import { certificateDer, readTrustStoreText } from "./trust-store-file.ts";

/** Where a path's anchor came from: the caller's roots or the shipped reference store. */
export type RootOrigin = "supplied-root" | "known-root";

/** A root that ends a path, with the certificate `includeRoot` appends and its name. */
export interface RootMatch {
  kind: RootOrigin;
  der: Uint8Array;
  /** The root's subject, RFC 4514 (for the wording). */
  subject: string;
  /**
   * A supplied root only: the decoded certificate and its 0-based position among the `roots`
   * blocks (CONTRACT §9.4: a supplied root is judged and named by `suppliedRoot`).
   */
  supplied?: { certificate: CertificateData; index: number };
}

/**
 * How the request's roots answer for one certificate's issuer: the first root (supplied ones
 * first) whose key verifies the certificate, and, when none does, where a root of the right name
 * and key id was found whose key does not (null when no root answered at all).
 */
export interface IssuerRoot {
  match: RootMatch | null;
  refused: RootOrigin | null;
}

/** Checks a certificate's signature with a root's key: the request's SignatureCheckCache. */
export type CheckWith = (child: CertificateData, root: CertificateData) => Promise<SignatureCheck>;

/** Message for a supplied certificate that is not a CA (cA true in basicConstraints). */
export const SUPPLIED_ROOT_NOT_CA_MESSAGE =
  "this certificate is not a CA certificate (basicConstraints cA is not true), so it cannot be a trust anchor";

/** Whether `root` answers for an issuer named `issuerNameKey` with authority key id `authorityKeyIdentifier`. */
export function rootAnswers(
  root: Pick<CertificateData, "subjectNameKey" | "subjectKeyIdentifier">,
  issuerNameKey: string,
  authorityKeyIdentifier: string | null,
): boolean {
  if (root.subjectNameKey !== issuerNameKey) return false;
  if (authorityKeyIdentifier === null || root.subjectKeyIdentifier === null) return true;
  return normalizeKeyId(root.subjectKeyIdentifier) === normalizeKeyId(authorityKeyIdentifier);
}

/** Where a root answering for this issuer comes from, in any RootStore (a plain store has only shipped roots). */
export function rootOrigin(
  roots: RootStore,
  issuerNameKey: string,
  authorityKeyIdentifier: string | null,
): RootOrigin | null {
  if (roots instanceof RequestRootStore) return roots.originOf(issuerNameKey, authorityKeyIdentifier);
  return roots.isKnownRoot(issuerNameKey, authorityKeyIdentifier) ? "known-root" : null;
}

/**
 * Whether `certificate` is, byte for byte, a root of the reference store (not one the caller
 * supplied): the in-bundle anchor that makes a chain's profile `webpki` (CONTRACT §8.1).
 */
export function isReferenceRoot(roots: RootStore, certificate: CertificateData): boolean {
  const reference = roots instanceof RequestRootStore ? roots.reference : roots;
  return reference
    .findRoots(certificate.subjectNameKey, certificate.subjectKeyIdentifier)
    .some((der) => sameBytes(der, certificate.der));
}

/** Whether two byte strings are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** The reference store and the caller's roots as one RootStore, supplied roots first. */
export class RequestRootStore implements RootStore {
  constructor(
    /** The shipped reference store. */
    readonly reference: RootStore,
    private readonly supplied: readonly CertificateData[] = [],
  ) {}

  /** The supplied roots that answer for this issuer, in the order given. */
  suppliedRoots(issuerNameKey: string, authorityKeyIdentifier: string | null): CertificateData[] {
    return this.supplied.filter((root) => rootAnswers(root, issuerNameKey, authorityKeyIdentifier));
  }

  /**
   * Where the first root that answers for this issuer comes from (name and key id only: a hint),
   * or null: the bundle's `issuerIsKnownRoot` and its wording (a supplied root is the user's own).
   */
  originOf(issuerNameKey: string, authorityKeyIdentifier: string | null): RootOrigin | null {
    if (this.suppliedRoots(issuerNameKey, authorityKeyIdentifier).length > 0) return "supplied-root";
    return this.reference.isKnownRoot(issuerNameKey, authorityKeyIdentifier) ? "known-root" : null;
  }

  isKnownRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): boolean {
    return this.originOf(issuerNameKey, authorityKeyIdentifier) !== null;
  }

  findRoots(issuerNameKey: string, authorityKeyIdentifier: string | null): readonly Uint8Array[] {
    return [
      ...this.suppliedRoots(issuerNameKey, authorityKeyIdentifier).map((root) => root.der),
      ...this.reference.findRoots(issuerNameKey, authorityKeyIdentifier),
    ];
  }

  /** The reference store's distrust dates for this root (CONTRACT §9.2); a supplied root has none. */
  distrustOf(rootDer: Uint8Array): RootDistrust | null {
    return this.reference.distrustOf?.(rootDer) ?? null;
  }

  /** The reference store's description: a request's supplied roots are not part of it. */
  describe(): ReferenceRootsInfo {
    return this.reference.describe();
  }

  /** How many roots answer for this issuer: the most checks `issuerRoot` makes for it. */
  answering(certificate: CertificateData): number {
    return this.findRoots(certificate.issuerNameKey, certificate.authorityKeyIdentifier).length;
  }

  /**
   * The root that issued `certificate` (CONTRACT §7.2): the first root answering by name and key id
   * (supplied roots first, then the reference store's in its order) whose key verifies the
   * certificate's signature, exactly as a bundle member must to be an issuer. A reference root
   * is decoded with `decoder` before its key is used; one that does not decode is skipped.
   */
  async issuerRoot(
    certificate: CertificateData,
    check: CheckWith,
    decoder: CertificateDecoder,
  ): Promise<IssuerRoot> {
    const { issuerNameKey, authorityKeyIdentifier } = certificate;
    let refused: RootOrigin | null = null;
    for (const root of this.suppliedRoots(issuerNameKey, authorityKeyIdentifier)) {
      if ((await check(certificate, root)).outcome === "verified") {
        const supplied = { certificate: root, index: this.supplied.indexOf(root) };
        return {
          match: { kind: "supplied-root", der: root.der, subject: root.subject, supplied },
          refused: null,
        };
      }
      refused ??= "supplied-root";
    }
    for (const der of this.reference.findRoots(issuerNameKey, authorityKeyIdentifier)) {
      const decoded = await decoder.decode(der);
      if (!decoded.ok) continue;
      if ((await check(certificate, decoded.certificate)).outcome === "verified") {
        return { match: { kind: "known-root", der, subject: decoded.certificate.subject }, refused: null };
      }
      refused ??= "known-root";
    }
    return { match: null, refused };
  }
}

/** Supplied roots read from PEM text: the certificates, or every issue (path `["roots"]`, located). */
export interface SuppliedRoots {
  roots: CertificateData[];
  issues: Issue[];
  /** Labels of blocks skipped as not certificates (CONTRACT §9.6), each once: the caller's one notice. */
  skippedLabels: string[];
}

/**
 * Reads the caller's `roots` text as a trust-store file (CONTRACT §9.6, trust-store-file.ts: text
 * outside blocks ignored, `TRUSTED CERTIFICATE` read as its certificate, other labels skipped) with
 * `pem`'s rules inside the blocks and its limits (§7.2): empty or blank means none. Every issue has
 * path `["roots"]`; block problems keep their `location`. A certificate that is not a CA is
 * refused at its block.
 */
export async function readSuppliedRoots(
  text: string | undefined,
  decoder: CertificateDecoder,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<SuppliedRoots> {
  if (text === undefined || text.trim() === "") return { roots: [], issues: [], skippedLabels: [] };
  const tooLong = checkPemSize(text, limits.maxPemLength);
  if (tooLong) return { roots: [], issues: [asRootsIssue(tooLong)], skippedLabels: [] };
  const store = readTrustStoreText(text);
  const scan = scanPem(store.masked, { ...limits, maxBlocks: limits.maxRootBlocks ?? limits.maxBlocks });
  const issues: Issue[] = scan.issues.map(asRootsIssue);
  const roots: CertificateData[] = [];
  const decoded = await Promise.all(
    scan.blocks.map((block) =>
      decoder.decode(certificateDer(block.der, store.trustedAt.has(block.location.offset))),
    ),
  );
  for (const [k, result] of decoded.entries()) {
    const block = scan.blocks[k]!;
    if (!result.ok) {
      issues.push({
        message: NOT_A_CERTIFICATE_MESSAGE,
        path: ["roots"],
        location: block.location,
      });
    } else if (!result.certificate.ca) {
      issues.push({ message: SUPPLIED_ROOT_NOT_CA_MESSAGE, path: ["roots"], location: block.location });
    } else {
      roots.push(result.certificate);
    }
  }
  issues.sort((a, b) => (a.location?.offset ?? Infinity) - (b.location?.offset ?? Infinity));
  return { roots, issues, skippedLabels: store.skippedLabels };
}

/** A `pem` issue restated for the `roots` field (same text rules, other field name). */
function asRootsIssue(issue: Issue): Issue {
  const message = issue.message.startsWith("pem ") ? `roots ${issue.message.slice(4)}` : issue.message;
  return { ...issue, message, path: ["roots"] };
}

function normalizeKeyId(keyId: string): string {
  return keyId.replace(/:/g, "").toUpperCase();
}
