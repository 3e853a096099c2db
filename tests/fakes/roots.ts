/** A scripted RootStore (CONTRACT §4.3 `issuerIsKnownRoot`), typed against the port. */
import { createHash } from "node:crypto";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import type { RootStore } from "../../src/domain/ports.ts";

/**
 * Knows the given certificates as roots: a name is known when one of them has it as its subject,
 * and, when the question carries an authority key id and that root a subjectKeyIdentifier, the
 * two are equal (colons and case ignored). Records every question.
 */
export function fakeRootStore(roots: readonly CertificateData[] = []) {
  const questions: { issuerNameKey: string; authorityKeyIdentifier: string | null }[] = [];
  const normal = (id: string) => id.replace(/:/g, "").toUpperCase();
  return {
    questions,
    isKnownRoot(issuerNameKey: string, authorityKeyIdentifier: string | null): boolean {
      return this.findRoots(issuerNameKey, authorityKeyIdentifier).length > 0;
    },
    findRoots(issuerNameKey: string, authorityKeyIdentifier: string | null): Uint8Array[] {
      questions.push({ issuerNameKey, authorityKeyIdentifier });
      return roots
        .filter(
          (candidate) =>
            candidate.subjectNameKey === issuerNameKey &&
            (authorityKeyIdentifier === null ||
              candidate.subjectKeyIdentifier === null ||
              normal(candidate.subjectKeyIdentifier) === normal(authorityKeyIdentifier)),
        )
        .map((root) => root.der);
    },
    describe() {
      const hash = createHash("sha256");
      for (const root of roots) hash.update(root.der);
      return {
        source: "file" as const,
        version: "fake-roots.pem",
        certificates: roots.length,
        distrustDates: 0,
        sha256: hash.digest("hex"),
      };
    },
  } satisfies RootStore & { questions: unknown[] };
}

/** A store that knows no root: every missing issuer reads as a missing intermediate. */
export const noKnownRoots = fakeRootStore();
