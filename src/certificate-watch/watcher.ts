/**
 * The certificate watcher (CONTRACT §10.1): the files CERT_WATCH names, read and judged as chains
 * at start, every interval and on request (SIGHUP), and their series kept for the metrics
 * listener to render.
 *
 * Where it runs: in one process only, never in a request worker (src/server.ts starts it in the
 * supervisor with WORKERS > 1, in the one serving process otherwise), and off the request path:
 * a pass reads one file at a time and yields to the event loop between files (setImmediate), the
 * signature checks run a few milliseconds of each turn of the loop at most (ADR 68), and a file whose certificates have not changed is not judged
 * again until an instant at which its verdict could change (see {@link recheckInstant}), so a
 * pass over 1,000 unchanged files costs their reads and a digest each.
 *
 * A file that disappears or stops reading keeps its last answer for one interval (one failed
 * pass), then its series go; every failed read adds one to `x509_read_errors{filepath}`. Log lines
 * name the file and a reason in fixed words, never the file's content (ADR 0040).
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { CertificateDecoder } from "../domain/ports.ts";
import type { LogRecord } from "../process/logger.ts";
import {
  type ChainJudge,
  certificateTextOf,
  judgeCertificateText,
  MAX_CERTIFICATE_FILE_BYTES,
} from "./certificate-file.ts";
import { type FileReport, renderCertificateExposition } from "./exposition.ts";
import { listWatchedFiles, MAX_WATCHED_FILES } from "./watched-files.ts";

const DAY_MS = 86_400_000;
/**
 * How long before a certificate's notAfter its file is judged on every pass: past §9.5's largest
 * default `EXPIRING` threshold (at most 30 days), so the warning appears on the pass it becomes true.
 */
export const EXPIRY_WINDOW_MS = 31 * DAY_MS;
/** An unchanged file is judged again at least this often, whatever its dates say. */
export const MAX_REUSE_MS = 3_600_000;

export interface CertificateWatcherOptions {
  /** CERT_WATCH's entries. */
  paths: readonly string[];
  intervalSeconds: number;
  judge: ChainJudge;
  decoder: CertificateDecoder;
  log: (record: LogRecord) => void;
  /** Milliseconds since the epoch (tests pass their own). */
  now?: () => number;
}

interface WatchedFile {
  /** The last answer; null before the first one, for a key-only file, and once a failure outlived it. */
  report: FileReport | null;
  /** SHA-256 of the certificate text the answer was judged from (no key is in that text). */
  digest: string | null;
  /** Until this instant an unchanged file keeps its answer without being judged again. */
  reuseUntil: number;
  /** Failed passes in a row. */
  failures: number;
  lastReason: string | null;
}

/** What one pass did, for its log line and for tests. */
export interface PassSummary {
  files: number;
  judged: number;
  unchanged: number;
  failed: number;
  durationMs: number;
}

const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class CertificateWatcher {
  private readonly files = new Map<string, WatchedFile>();
  private readonly readErrors = new Map<string, number>();
  private readonly now: () => number;
  private current: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private overLimit = false;
  /** The last exposition, true until a pass changes something or `validUntil` (seconds) has passed. */
  private rendered: { text: string; validUntil: number } | null = null;
  /** The summary of the last finished pass (null before the first). */
  lastPass: PassSummary | null = null;

  constructor(private readonly options: CertificateWatcherOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The first pass now, then one every interval; the timer never keeps the process alive. */
  start(): void {
    void this.runPass();
    this.timer = setInterval(() => void this.runPass(), this.options.intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Runs a pass now (SIGHUP, the interval); while one runs, one more follows it (requests never
   * pile up). Resolves when no pass is left to run.
   */
  runPass(): Promise<void> {
    if (this.current !== null) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (error) {
          // Never the error's message: it could carry a path's content. The next pass tries again.
          this.options.log({
            level: "error",
            msg: "certificate watch pass failed",
            errorName: error instanceof Error ? error.name : "unknown",
          });
        }
      } while (this.again);
    })().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  /**
   * The series of every file with an answer, and the read-error counters, at the present instant.
   * Rendered again only after a pass changed something, or once a certificate's notAfter has
   * passed (its `x509_cert_expired` turns 1): a scrape of 1,000 unchanged files costs nothing.
   */
  exposition(): string {
    const nowSeconds = Math.floor(this.now() / 1000);
    if (this.rendered !== null && nowSeconds <= this.rendered.validUntil) return this.rendered.text;
    const reports = [...this.files.values()].flatMap((file) => (file.report === null ? [] : [file.report]));
    let validUntil = Number.POSITIVE_INFINITY;
    for (const report of reports)
      for (const certificate of report.certificates)
        if (certificate.notAfter >= nowSeconds) validUntil = Math.min(validUntil, certificate.notAfter);
    const text = renderCertificateExposition(reports, this.readErrors, nowSeconds);
    this.rendered = { text, validUntil };
    return text;
  }

  private async pass(): Promise<void> {
    const started = performance.now();
    const listing = await listWatchedFiles(this.options.paths);
    let listed = listing.files;
    if (listed.length > MAX_WATCHED_FILES) {
      if (!this.overLimit)
        this.options.log({
          level: "warn",
          msg: "certificate watch: too many files",
          reason: `${listed.length} certificate files found; the first ${MAX_WATCHED_FILES} in path order are watched`,
        });
      this.overLimit = true;
      listed = listed.slice(0, MAX_WATCHED_FILES);
    } else this.overLimit = false;
    // A named file that vanished is still read (and fails): it stays watched, its errors counted.
    const present = new Set([...listed, ...listing.missing.filter((path) => this.files.has(path))]);
    for (const path of listed)
      if (!this.files.has(path))
        this.files.set(path, { report: null, digest: null, reuseUntil: 0, failures: 0, lastReason: null });
    const summary: PassSummary = { files: 0, judged: 0, unchanged: 0, failed: 0, durationMs: 0 };
    for (const [path, file] of this.files) {
      await yieldToRequests();
      if (!present.has(path) && file.report === null && file.failures === 0) {
        this.files.delete(path); // gone from its directory with nothing exported (a key file)
        this.rendered = null;
        continue;
      }
      summary.files += 1;
      const outcome = present.has(path)
        ? await this.read(path, file)
        : this.failed(path, file, "no longer found in its directory");
      summary[outcome] += 1;
      // A file gone from its directory is forgotten once its last answer has been dropped.
      if (!present.has(path) && file.report === null) {
        this.files.delete(path);
        this.rendered = null;
      }
    }
    this.forgetOldCounters();
    summary.durationMs = Math.round(performance.now() - started);
    this.lastPass = summary;
    this.options.log({ level: "debug", msg: "certificate watch pass", watchPass: { ...summary } });
  }

  /** Reads and (when its certificates changed or their dates call for it) judges one file. */
  private async read(path: string, file: WatchedFile): Promise<"judged" | "unchanged" | "failed"> {
    let bytes: Uint8Array;
    try {
      const info = await stat(path);
      if (info.size > MAX_CERTIFICATE_FILE_BYTES)
        return this.failed(path, file, `larger than ${MAX_CERTIFICATE_FILE_BYTES} bytes`);
      bytes = new Uint8Array(await readFile(path));
    } catch (error) {
      return this.failed(path, file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    const text = certificateTextOf(bytes, path);
    bytes.fill(0); // the bytes may hold a key: not kept beyond this read
    if (text.kind === "unreadable") return this.failed(path, file, text.reason);
    if (text.kind === "key-only") {
      if (file.report !== null) this.rendered = null;
      Object.assign(file, { report: null, digest: null, reuseUntil: 0 });
      return this.succeeded(path, file, "unchanged");
    }
    const digest = createHash("sha256").update(text.pem).digest("hex");
    const now = this.now();
    if (file.report !== null && file.digest === digest && now < file.reuseUntil)
      return this.succeeded(path, file, "unchanged");
    const judged = await judgeCertificateText(text.pem, path, this.options.judge, this.options.decoder);
    if (!judged.ok) return this.failed(path, file, judged.reason);
    file.report = judged.report;
    this.rendered = null;
    file.digest = digest;
    file.reuseUntil = recheckInstant(judged.report, now);
    this.readErrors.set(path, this.readErrors.get(path) ?? 0);
    return this.succeeded(path, file, "judged");
  }

  private succeeded(path: string, file: WatchedFile, outcome: "judged" | "unchanged"): typeof outcome {
    if (file.failures > 0)
      this.options.log({ level: "info", msg: "certificate file read again", filepath: path });
    file.failures = 0;
    file.lastReason = null;
    return outcome;
  }

  /** One failed read: counted; the last answer kept for this pass only. */
  private failed(path: string, file: WatchedFile, reason: string): "failed" {
    this.readErrors.set(path, (this.readErrors.get(path) ?? 0) + 1);
    this.rendered = null;
    file.failures += 1;
    if (file.failures >= 2) Object.assign(file, { report: null, digest: null, reuseUntil: 0 });
    if (reason !== file.lastReason)
      this.options.log({ level: "warn", msg: "certificate file not read", filepath: path, reason });
    file.lastReason = reason;
    return "failed";
  }

  /** Counters of files no longer watched are kept (a counter that vanishes reads as a reset) up to a bound. */
  private forgetOldCounters(): void {
    if (this.readErrors.size <= 2 * MAX_WATCHED_FILES) return;
    this.rendered = null;
    for (const path of this.readErrors.keys()) if (!this.files.has(path)) this.readErrors.delete(path);
  }
}

/**
 * Until when an unchanged file's answer stays true: the next instant at which one of its
 * certificates becomes valid or enters the last {@link EXPIRY_WINDOW_MS} of its life, at most
 * {@link MAX_REUSE_MS} ahead; `now` itself (judge on every pass) while any certificate is inside
 * that window or has just expired. Everything else a verdict reads is fixed by the certificates.
 */
export function recheckInstant(report: FileReport, now: number): number {
  let next = now + MAX_REUSE_MS;
  for (const certificate of report.certificates) {
    const notBefore = certificate.notBefore * 1000;
    const notAfter = certificate.notAfter * 1000;
    const windowStart = notAfter - EXPIRY_WINDOW_MS;
    if (now >= windowStart && now <= notAfter + 1000) return now;
    for (const instant of [notBefore, windowStart]) if (instant > now) next = Math.min(next, instant);
  }
  return next;
}
