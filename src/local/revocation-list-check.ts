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
import { addCertificateFile, inputBytes, sourceName, stdinBytesOnce } from "./key-safe-inputs.ts";
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

/** What `nettools crl` asks: the list's file, the certificate files to look up, the issuer's file, when, and whether every entry is listed. */
export interface RevocationListRequest {
  list: string;
  certificates: readonly string[];
  issuer?: string | undefined;
  at: Date;
  entries: boolean;
}

/** The certificate adapters (made on first use) and the CRL reader a check runs with. */
export interface RevocationListPorts {
  certificates(): { decoder: CertificateDecoder; verifier: SignatureVerifier };
  readonly revocationLists: RevocationListDecoder;
}

/**
 * The judgement of a request: the list's facts and lookups (with `--entries` every entry), or one
 * line, or certificate files that are not readable as certificates (`files`), with their issues.
 */
export type RevocationListJudgement =
  | { ok: true; result: RevocationListResult; entries: RevocationListEntry[] | null }
  | { ok: false; message: string }
  | { ok: false; files: readonly string[]; issues: Issue[]; text: CertificateBundleText };

/**
 * `nettools crl`'s run: the CRL file read, the certificates and the issuer read from their files
 * (stdin once for "-"), and the list judged at `request.at` ({@link checkRevocationList}).
 */
export async function judgeRevocationListFiles(
  io: LocalInputs,
  request: RevocationListRequest,
  ports: RevocationListPorts,
): Promise<RevocationListJudgement> {
  const read = await readRevocationListFile(io.ports.files, request.list, ports.revocationLists);
  if (!read.ok) return read;
  const stdin = stdinBytesOnce(io);
  const decoder = ports.certificates().decoder;
  const certificates = await certificatesOfFiles(io, request.certificates, "certificatePem", stdin, decoder);
  if (!certificates.ok)
    return "message" in certificates ? certificates : { ...certificates, files: request.certificates };
  let issuers: { file: string; certificates: CertificateData[] } | null = null;
  if (request.issuer !== undefined) {
    const candidates = await certificatesOfFiles(io, [request.issuer], "issuerPem", stdin, decoder);
    if (!candidates.ok)
      return "message" in candidates ? candidates : { ...candidates, files: [request.issuer] };
    issuers = { file: request.issuer, certificates: candidates.certificates };
  }
  const verifier = ports.certificates().verifier;
  const checked = await checkRevocationList(
    read.list,
    certificates.certificates,
    issuers,
    request.at,
    verifier,
  );
  if (!checked.ok) return checked;
  return {
    ok: true,
    result: checked.result,
    entries: request.entries ? revocationListEntries(read.list) : null,
  };
}

/** Whether the list passes (`crl`'s exit 0): its signature not failed, not stale, no given certificate revoked. */
export function revocationListPasses(result: RevocationListResult): boolean {
  return !(result.signature === "failed" || result.stale || result.certificates.some((c) => c.revoked));
}
