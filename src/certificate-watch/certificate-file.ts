/**
 * One watched certificate file, read and judged (CONTRACT §10.1): its bytes read as §7.6 reads a
 * certificate file (PEM, DER, PEM or DER PKCS#7; a private key set aside, its bytes never kept),
 * then judged as a chain by the chain use case with no hostname and no `expiryWarningDays` (the
 * §9.5 default), and reduced to the plain facts that are exported ({@link FileReport}).
 *
 * Two steps, so that a watcher can skip the second for a file whose certificates have not changed:
 * {@link certificateTextOf} (bytes → the file's certificates as PEM text, no key in it) and
 * {@link judgeCertificateText}. A failure is a reason in words chosen here (a position at most),
 * never a message that could quote the file: nothing of a key file can reach a log line.
 *
 * No Bun or Node API: `nettools chain --format prom` runs this under Node too.
 */

import { readCertificateBlocks } from "../domain/certificates/bundle.ts";
import type { CertificateChainResult } from "../domain/certificates/chain.ts";
import { LOCAL_CERTIFICATE_LIMITS } from "../domain/limits.ts";
import type { CertificateDecoder } from "../domain/ports.ts";
import { BinaryInputError, CertificateBundleText } from "../local/certificate-files.ts";
import type { CertificateFacts, ChainFacts, FileReport } from "./exposition.ts";

/** What a file's bytes hold, once read as a certificate file. */
export type CertificateText =
  /** Certificates, as PEM text (DER and PKCS#7 converted, key blocks blanked). */
  | { kind: "certificates"; pem: string }
  /** Only private-key material: not a certificate file, skipped without an error (a `privkey.pem`). */
  | { kind: "key-only" }
  | { kind: "unreadable"; reason: string };

/**
 * The chain use case for one file's PEM text: its verdict, or why there is none (in words that
 * never quote the input).
 */
export type ChainJudge = (
  pem: string,
) => Promise<{ ok: true; result: CertificateChainResult } | { ok: false; reason: string }>;

export type FileJudgement = { ok: true; report: FileReport } | { ok: false; reason: string };

/** `2 problems, the first at line 7`: how many issues, and the line of the first that has one. */
export function problemsAt(issues: readonly { location?: { line: number } | undefined }[]): string {
  const count = issues.length;
  const line = issues.find((issue) => issue.location !== undefined)?.location?.line;
  const problems = count === 1 ? "1 problem" : `${count} problems`;
  return `${problems}${line === undefined ? "" : `, the first at line ${line}`}`;
}

/** The BEGIN line of a certificate block (not of a request, a key or parameters). */
const CERTIFICATE_BEGIN = /-----BEGIN (?:X509 |TRUSTED )?CERTIFICATE-----/;

/** Larger files are not read: the local limit of a certificate bundle (4 MiB of PEM text). */
export const MAX_CERTIFICATE_FILE_BYTES = LOCAL_CERTIFICATE_LIMITS.maxPemLength;

/**
 * Reads `bytes` as a certificate file named `filepath`. The bytes are not kept: the caller may
 * zero them once this returns.
 */
export function certificateTextOf(bytes: Uint8Array, filepath: string): CertificateText {
  if (bytes.length > MAX_CERTIFICATE_FILE_BYTES)
    return { kind: "unreadable", reason: `larger than ${MAX_CERTIFICATE_FILE_BYTES} bytes` };
  const bundle = new CertificateBundleText();
  try {
    bundle.addFile(bytes, filepath);
  } catch (error) {
    if (!(error instanceof BinaryInputError)) throw error;
    return {
      kind: "unreadable",
      reason: `binary data from byte ${error.offset}, not a certificate (PEM, DER or PKCS#7)`,
    };
  }
  const pem = bundle.pem;
  if (CERTIFICATE_BEGIN.test(pem)) return { kind: "certificates", pem };
  // The reader's notices name what it set aside (positions only): a key file (with its
  // `EC PARAMETERS` block, as `openssl ecparam -genkey` writes one) holds no certificate.
  if (bundle.notices.some((notice) => notice.includes("private key"))) return { kind: "key-only" };
  return { kind: "unreadable", reason: "no certificate in the file" };
}

/**
 * Judges the certificates of one file: the chain verdict, and every certificate's names, serial
 * and dates.
 */
export async function judgeCertificateText(
  pem: string,
  filepath: string,
  judge: ChainJudge,
  decoder: CertificateDecoder,
): Promise<FileJudgement> {
  const verdict = await judge(pem);
  if (!verdict.ok) return verdict;
  const blocks = await readCertificateBlocks(pem, decoder, LOCAL_CERTIFICATE_LIMITS);
  const certificates: CertificateFacts[] = blocks.decoded.flatMap((block) => {
    const certificate = block.certificate;
    if (certificate === undefined) return [];
    return [
      {
        subjectCN: certificate.commonName ?? "",
        issuerCN: lastCommonName(certificate.issuer) ?? "",
        serialNumber: decimalSerial(certificate.serialNumber),
        notBefore: Math.floor(certificate.notBefore.getTime() / 1000),
        notAfter: Math.floor(certificate.notAfter.getTime() / 1000),
      },
    ];
  });
  return { ok: true, report: { filepath, certificates, chain: chainFacts(verdict.result) } };
}

/** The exported part of a chain verdict: status, problem counts by code, the path's earliest expiry. */
export function chainFacts(result: CertificateChainResult): ChainFacts {
  const counts = new Map<string, { code: string; severity: string; count: number }>();
  for (const problem of result.problems) {
    const key = `${problem.code} ${problem.severity}`;
    const entry = counts.get(key);
    if (entry === undefined) counts.set(key, { code: problem.code, severity: problem.severity, count: 1 });
    else entry.count += 1;
  }
  const expiries = result.certificates.map((member) => Math.floor(Date.parse(member.notAfter) / 1000));
  return {
    status: result.status,
    problems: [...counts.values()],
    earliestExpiry: expiries.length === 0 ? null : Math.min(...expiries),
  };
}

/**
 * A serial as `openssl x509 -serial` prints it (uppercase hex, `-` for a negative one) in decimal,
 * as Go's `big.Int.String()` writes it: enix's exporter labels serials so.
 */
export function decimalSerial(hex: string): string {
  const negative = hex.startsWith("-");
  const digits = negative ? hex.slice(1) : hex;
  if (!/^[0-9A-Fa-f]+$/.test(digits)) return hex;
  const value = BigInt(`0x${digits}`).toString(10);
  return negative && value !== "0" ? `-${value}` : value;
}

/** RFC 4514 §2.4: the characters a backslash may escape as themselves. */
const ESCAPABLE = new Set([" ", '"', "#", "+", ",", ";", "<", "=", ">", "\\"]);
const UTF8 = new TextEncoder();

/**
 * The value of the first `CN` attribute of an RFC 4514 name (the string starts with the most
 * specific RDN, so this is the certificate's last CN in DER order, Go's `pkix.Name.CommonName`),
 * unescaped; null when there is none or it is written in the `#hex` form.
 */
export function lastCommonName(name: string): string | null {
  let at = 0;
  while (at < name.length) {
    const equals = name.indexOf("=", at);
    if (equals === -1) return null;
    const type = name.slice(at, equals).trim();
    const bytes: number[] = [];
    let i = equals + 1;
    for (; i < name.length; i++) {
      const character = name[i]!;
      if (character === "," || character === "+") break;
      if (character !== "\\") {
        const point = name.codePointAt(i)!;
        bytes.push(...UTF8.encode(String.fromCodePoint(point)));
        if (point > 0xffff) i += 1;
        continue;
      }
      const next = name[i + 1] ?? "";
      const pair = name.slice(i + 1, i + 3);
      if (ESCAPABLE.has(next)) {
        bytes.push(next.charCodeAt(0));
        i += 1;
      } else if (/^[0-9A-Fa-f]{2}$/.test(pair)) {
        bytes.push(Number.parseInt(pair, 16));
        i += 2;
      }
    }
    if (type.toUpperCase() === "CN") {
      const text = new TextDecoder().decode(Uint8Array.from(bytes));
      return text.startsWith("#") && name[equals + 1] === "#" ? null : text;
    }
    at = i + 1;
  }
  return null;
}
