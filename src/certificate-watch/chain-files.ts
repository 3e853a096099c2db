/**
 * Certificate files judged once and written as the watch's series (CONTRACT §10.1), for
 * `nettools chain --format prom FILE…` and node_exporter's textfile collector: each file read as
 * the watcher reads it ({@link certificateTextOf}), judged as its own chain
 * ({@link judgeCertificateText}), and the reports rendered as the metrics listener exposes them
 * with CERT_WATCH. A file that cannot be read or judged counts in `x509_read_errors`; one that
 * holds only a private key is left out. What became of each file is told to the caller, in words
 * that never quote the file, so that a command can say it and choose its exit status.
 *
 * No Bun or Node API: the files come through `read`, so this runs under Node too.
 */
import type { CertificateChainResult } from "../domain/certificates/chain.ts";
import type { CertificateDecoder } from "../domain/ports.ts";
import { type ChainJudge, certificateTextOf, judgeCertificateText } from "./certificate-file.ts";
import { type FileReport, renderCertificateExposition } from "./exposition.ts";

/** What became of one file. */
export type ChainFileOutcome =
  /** Judged: its chain's verdict (its series are written). */
  | { kind: "judged"; result: CertificateChainResult }
  /** Only a private key: skipped, no series and no read error. */
  | { kind: "key-only" }
  /** Not read as certificates (cannot be read, binary, none in it): a read error. */
  | { kind: "unreadable"; reason: string }
  /** Read, but the judge gave no verdict: a read error. */
  | { kind: "unjudged"; reason: string };

/** The files, how to read and judge them, and whom to tell what became of each. */
export interface ChainFiles {
  readonly files: readonly string[];
  /** A file's bytes, or why they cannot be read (one phrase). */
  read(file: string): Promise<Uint8Array | { reason: string }>;
  readonly judge: ChainJudge;
  readonly decoder: CertificateDecoder;
  /** The time of the exposition, in seconds since the epoch: read once every file is judged. */
  now(): number;
  tell(file: string, outcome: ChainFileOutcome): void;
}

/** Reads and judges each file in turn; returns the exposition text of all of them. */
export async function exposeChainFiles(input: ChainFiles): Promise<string> {
  const reports: FileReport[] = [];
  const readErrors = new Map<string, number>();
  for (const file of input.files) {
    const outcome = await judgeFile(file, input, reports);
    if (outcome.kind !== "key-only") readErrors.set(file, outcome.kind === "judged" ? 0 : 1);
    input.tell(file, outcome);
  }
  return renderCertificateExposition(reports, readErrors, input.now());
}

async function judgeFile(file: string, input: ChainFiles, reports: FileReport[]): Promise<ChainFileOutcome> {
  const bytes = await input.read(file);
  if (!(bytes instanceof Uint8Array)) return { kind: "unreadable", reason: bytes.reason };
  const text = certificateTextOf(bytes, file);
  bytes.fill(0);
  if (text.kind !== "certificates") return text;
  const seen: { verdict?: CertificateChainResult } = {};
  const judged = await judgeCertificateText(
    text.pem,
    file,
    async (pem) => {
      const answer = await input.judge(pem);
      if (answer.ok) seen.verdict = answer.result;
      return answer;
    },
    input.decoder,
  );
  if (!judged.ok) return { kind: "unjudged", reason: judged.reason };
  reports.push(judged.report);
  // A report is made only from a verdict.
  return { kind: "judged", result: seen.verdict! };
}
