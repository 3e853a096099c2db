/**
 * `nettools chain --crl FILE…` (CONTRACT §10.2): the chain's path checked against the operator's
 * CRLs, offline. Each list is read (PEM or DER, any size), and used only when a certificate named
 * as its issuer — in the bundle, among the user's roots or in the reference store — verifies its
 * signature; each path member is then looked up in the lists of its issuer (`REVOKED`), and a
 * list past its nextUpdate is `CRL_STALE`. The problems join the chain's, in the contract's order.
 * The certificate adapters come from the caller (the CLI's composition root), the files through
 * the LocalFiles port.
 */
import type { ResultOf } from "../contract/operations.ts";
import { sortProblems } from "../domain/certificates/chain-problems.ts";
import { readCertificates } from "../domain/certificates/csr.ts";
import type { CertificateBundleDeps } from "../domain/certificates/inspect.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import {
  type ChainRevocationList,
  checkListSignature,
  parseInstant,
  revocationProblems,
} from "../domain/certificates/revocation.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { RevocationListDecoder } from "../domain/ports.ts";
import type { Notify } from "./local-inputs.ts";
import type { LocalFiles } from "./ports.ts";
import { readRevocationListFile } from "./revocation-list-check.ts";

type ChainResult = ResultOf<"certificateChain">;

/** What the check reads with: the certificate adapters, the CRL reader, the user's files. */
export interface RevocationCheckDeps {
  certificates: CertificateBundleDeps;
  revocationLists: RevocationListDecoder;
  files: LocalFiles;
}

/**
 * Adds `REVOKED` and `CRL_STALE` to `result.problems` (in place, sorted). Returns null, or the one
 * line about a CRL file that cannot be read (the command's exit 2); `notify` hears of a list that
 * is not used.
 */
export async function addRevocationProblems(
  result: ChainResult,
  files: readonly string[],
  bundlePem: string,
  rootsPem: string | undefined,
  using: RevocationCheckDeps,
  notify: Notify,
): Promise<{ unreadable: string } | null> {
  const deps = using.certificates;
  const bundle = (await readCertificates(bundlePem, "pem", deps.decoder, LOCAL_CERTIFICATE_LIMITS))
    .certificates;
  const roots =
    rootsPem === undefined
      ? []
      : (await readCertificates(rootsPem, "roots", deps.decoder, LOCAL_CERTIFICATE_LIMITS)).certificates;
  const lists: ChainRevocationList[] = [];
  for (const file of files) {
    const read = await readRevocationListFile(using.files, file, using.revocationLists);
    if (!read.ok) return { unreadable: read.message };
    const list = read.list;
    const named: CertificateData[] = [...bundle, ...roots].filter(
      (c) => c.subjectNameKey === list.issuerNameKey,
    );
    for (const der of deps.roots.findRoots(list.issuerNameKey, list.authorityKeyIdentifier)) {
      const decoded = await deps.decoder.decode(der);
      if (decoded.ok) named.push(decoded.certificate);
    }
    let verified = false;
    for (const issuer of named) {
      if ((await checkListSignature(list, issuer, deps.verifier)) === "verified") {
        verified = true;
        break;
      }
    }
    if (verified) lists.push({ list, name: file });
    else {
      const why =
        named.length === 0
          ? "no certificate of its issuer is in the bundle, --roots or the reference store"
          : "its issuer's key does not verify it";
      notify(`${file} is not used: ${why} (${list.issuer})`);
    }
  }
  const members = result.path.flatMap((index) => {
    const certificate = bundle[index];
    return certificate === undefined ? [] : [{ index, certificate }];
  });
  const evaluatedAt = parseInstant(result.evaluatedAt) ?? new Date();
  result.problems.push(...revocationProblems(members, lists, evaluatedAt));
  sortProblems(result.problems);
  return null;
}
