/**
 * `nettools chain --crl FILE…` (CONTRACT §10.2): the chain's path checked against the operator's
 * CRLs, offline. Each list is read (PEM or DER, any size), and used only when a certificate named
 * as its issuer — in the bundle, among the user's roots or in the reference store — verifies its
 * signature; each path member is then looked up in the lists of its issuer (`REVOKED`), and a
 * list past its nextUpdate is `CRL_STALE`. The problems join the chain's, in the contract's order.
 */
import type { ResultOf } from "../contract/operations.ts";
import { sortProblems } from "../domain/certificates/chain-problems.ts";
import { readCertificates } from "../domain/certificates/csr.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import {
  type ChainRevocationList,
  checkListSignature,
  parseInstant,
  revocationProblems,
} from "../domain/certificates/revocation.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import { MAX_CRL_FILE_BYTES, readRevocationListBytes } from "../local/revocation-list-file.ts";
import type { Run } from "./args.ts";
import { localCertificateDeps, revocationListDecoder } from "./composition-root.ts";
import { EXIT } from "./io.ts";

type ChainResult = ResultOf<"certificateChain">;

/**
 * Adds `REVOKED` and `CRL_STALE` to `result.problems` (in place, sorted). Returns null, or the exit
 * code after one line about a CRL file that cannot be read (2).
 */
export async function addRevocationProblems(
  run: Run,
  result: ChainResult,
  files: readonly string[],
  bundlePem: string,
  rootsPem: string | undefined,
): Promise<number | null> {
  const deps = localCertificateDeps();
  const bundle = (await readCertificates(bundlePem, "pem", deps.decoder, LOCAL_CERTIFICATE_LIMITS))
    .certificates;
  const roots =
    rootsPem === undefined
      ? []
      : (await readCertificates(rootsPem, "roots", deps.decoder, LOCAL_CERTIFICATE_LIMITS)).certificates;
  const lists: ChainRevocationList[] = [];
  for (const file of files) {
    const bytes = await run.io.ports.files.readCapped(file, MAX_CRL_FILE_BYTES);
    const read = bytes.ok ? readRevocationListBytes(bytes.bytes, file, revocationListDecoder) : bytes;
    if (!read.ok) {
      run.io.stderr(`${run.err.red("error")}: ${read.message}\n`);
      return EXIT.invalidInput;
    }
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
      run.io.stderr(`${run.err.dim("notice")}: ${file} is not used: ${why} (${list.issuer})\n`);
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
