/**
 * Trust anchors for one request (CONTRACT §7.2): the reference root store the service ships,
 * composed with CA certificates the caller supplies (`roots` in the API, `--roots` and
 * `NETTOOLS_ROOTS` in the CLI). Supplied roots are tried first and match the way shipped roots do:
 * by subject name, and by key id where both the child's authority key id and the root's subject key
 * id exist, so a same-name root with another key id does not match. Any CA certificate may be
 * supplied, self-signed or not (an intermediate the caller trusts, like openssl's -partial_chain).
 */
import type { Issue } from "../errors.ts";
import type { CertificateDecoder, RootStore } from "../ports.ts";
import { NOT_A_CERTIFICATE_MESSAGE } from "./bundle.ts";
import type { CertificateData } from "./model.ts";
import { DEFAULT_PEM_LIMITS, type PemLimits, scanPem } from "./pem.ts";

/** Where a path's anchor came from: the caller's roots or the shipped reference store. */
export type RootOrigin = "supplied-root" | "known-root";

/** A root that ends a path, with the certificate `includeRoot` appends. */
export interface RootMatch {
  kind: RootOrigin;
  der: Uint8Array;
}

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

/** The reference store and the caller's roots as one RootStore, supplied roots first. */
export class RequestRootStore implements RootStore {
  constructor(
    private readonly reference: RootStore,
    private readonly supplied: readonly CertificateData[] = [],
  ) {}

  /** The root that ends a path at a member with this issuer, and where it came from, or null. */
  match(issuerNameKey: string, authorityKeyIdentifier: string | null): RootMatch | null {
    const own = this.supplied.find((root) => rootAnswers(root, issuerNameKey, authorityKeyIdentifier));
    if (own !== undefined) return { kind: "supplied-root", der: own.der };
    const shipped = this.reference.findRoot(issuerNameKey, authorityKeyIdentifier);
    return shipped === null ? null : { kind: "known-root", der: shipped };
  }

  isKnownRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): boolean {
    return this.match(issuerNameKey, authorityKeyIdentifier) !== null;
  }

  findRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): Uint8Array | null {
    return this.match(issuerNameKey, authorityKeyIdentifier)?.der ?? null;
  }
}

/** Supplied roots read from PEM text: the certificates, or every issue (path `["roots"]`, located). */
export interface SuppliedRoots {
  roots: CertificateData[];
  issues: Issue[];
}

/**
 * Reads the caller's `roots` text with the same PEM rules and limits as `pem` (CONTRACT §7.2):
 * empty or blank means none. Every issue has path `["roots"]`; block problems keep their
 * `location`. A certificate that is not a CA is refused at its block.
 */
export async function readSuppliedRoots(
  text: string | undefined,
  decoder: CertificateDecoder,
  limits: PemLimits = DEFAULT_PEM_LIMITS,
): Promise<SuppliedRoots> {
  if (text === undefined || text.trim() === "") return { roots: [], issues: [] };
  const scan = scanPem(text, limits);
  const issues: Issue[] = scan.issues.map(asRootsIssue);
  const roots: CertificateData[] = [];
  const decoded = await Promise.all(scan.blocks.map((block) => decoder.decode(block.der)));
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
  return { roots, issues };
}

/** A `pem` issue restated for the `roots` field (same text rules, other field name). */
function asRootsIssue(issue: Issue): Issue {
  const message = issue.message.startsWith("pem ") ? `roots ${issue.message.slice(4)}` : issue.message;
  return { ...issue, message, path: ["roots"] };
}

function normalizeKeyId(keyId: string): string {
  return keyId.replace(/:/g, "").toUpperCase();
}
