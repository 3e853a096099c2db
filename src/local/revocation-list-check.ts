/**
 * `nettools crl` as a use case of the user's machine (CONTRACT §10.2): a CRL file of any size read
 * through the LocalFiles port, the certificates to look up and the issuer's read from their files
 * (PEM, DER or PKCS#7; stdin once for "-"), the list's signature checked with the issuer that
 * verifies it, and every entry in the API's words. Nothing is fetched and nothing printed: the
 * command (src/cli/commands/crl.ts) prints what these return.
 */
import { readCertificates } from "../domain/certificates/csr.ts";
import { rfc3339 } from "../domain/certificates/findings.ts";
import type { CertificateData } from "../domain/certificates/model.ts";
import { answerRevocationList, type RevocationListResult } from "../domain/certificates/revocation.ts";
import type { RevocationListData } from "../domain/certificates/revocation-list-model.ts";
import type { Issue } from "../domain/errors.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { CertificateDecoder, RevocationListDecoder, SignatureVerifier } from "../domain/ports.ts";
import { CertificateBundleText } from "./certificate-files.ts";
import { INPUT_LIMITS } from "./input-limits.ts";
import { addCertificateFile, inputBytes, sourceName } from "./key-safe-inputs.ts";
import type { LocalInputs } from "./local-inputs.ts";
import type { LocalFiles } from "./ports.ts";
import { MAX_CRL_FILE_BYTES, readRevocationListBytes } from "./revocation-list-file.ts";

/** One revoked certificate of `--entries`, in the API's words. */
export interface RevocationListEntry {
  serialNumber: string;
  revocationDate: string;
  reason: string | null;
  invalidityDate: string | null;
}

/** A CRL file read whole (any size up to the cap), or one line saying why it cannot be. */
export async function readRevocationListFile(
  files: LocalFiles,
  path: string,
  decoder: RevocationListDecoder,
): Promise<{ ok: true; list: RevocationListData } | { ok: false; message: string }> {
  const file = await files.readCapped(path, MAX_CRL_FILE_BYTES);
  return file.ok ? readRevocationListBytes(file.bytes, path, decoder) : file;
}

/** Every entry of `list`, in its order. */
export function revocationListEntries(list: RevocationListData): RevocationListEntry[] {
  const out: RevocationListEntry[] = [];
  for (const entry of list.entries()) {
    out.push({
      serialNumber: entry.serialNumber,
      revocationDate: rfc3339(entry.revocationDate),
      reason: entry.reason,
      invalidityDate: entry.invalidityDate === null ? null : rfc3339(entry.invalidityDate),
    });
  }
  return out;
}

/**
 * Certificates from files (PEM, DER, PKCS#7), decoded here: the certificates, or one line (a DER
 * key, binary data: nothing of it shown), or the issues of a text that holds no readable
 * certificate with the bundle they are located in.
 */
export async function certificatesOfFiles(
  io: LocalInputs,
  files: readonly string[],
  field: "certificatePem" | "issuerPem",
  stdin: () => Promise<Uint8Array>,
  decoder: CertificateDecoder,
): Promise<
  | { ok: true; certificates: CertificateData[] }
  | { ok: false; message: string }
  | { ok: false; issues: Issue[]; text: CertificateBundleText }
> {
  if (files.length === 0) return { ok: true, certificates: [] };
  const text = new CertificateBundleText();
  for (const file of files) {
    const bytes = await inputBytes(io, file, stdin, INPUT_LIMITS.certificates);
    const problem = addCertificateFile(text, bytes, sourceName(file));
    if (problem !== null) return { ok: false, message: problem };
  }
  const read = await readCertificates(text.pem, field, decoder, LOCAL_CERTIFICATE_LIMITS);
  if (read.issues.length === 0) return { ok: true, certificates: read.certificates };
  return { ok: false, issues: read.issues, text };
}

/**
 * The list judged at `at`: its facts and each certificate looked up; with `issuers` (the `--issuer`
 * file's certificates, `issuerFile` naming it), its signature checked by the one whose subject is
 * the list's issuer, in a file of several (a CA chain) the one whose key verifies it. A file with
 * no such certificate is one line.
 */
export async function checkRevocationList(
  list: RevocationListData,
  certificates: readonly CertificateData[],
  issuers: { file: string; certificates: readonly CertificateData[] } | null,
  at: Date,
  verifier: SignatureVerifier,
): Promise<{ ok: true; result: RevocationListResult } | { ok: false; message: string }> {
  let signature: "verified" | "failed" | null = null;
  if (issuers !== null) {
    const named = issuers.certificates.filter((c) => c.subjectNameKey === list.issuerNameKey);
    if (named.length === 0) {
      return {
        ok: false,
        message: `${issuers.file} holds no certificate whose subject is the list's issuer (${list.issuer})`,
      };
    }
    for (const candidate of named) {
      const answer = await answerRevocationList(list, candidate, [], at, verifier);
      signature = answer.signature === "verified" ? "verified" : "failed";
      if (signature === "verified") break;
    }
  }
  const result = await answerRevocationList(list, null, certificates, at, verifier);
  if (signature !== null) result.signature = signature;
  return { ok: true, result };
}
