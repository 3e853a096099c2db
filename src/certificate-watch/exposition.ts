/**
 * The certificate series of CONTRACT §10.1 in the Prometheus text exposition format (0.0.4): the
 * names, labels, units and help texts of enix/x509-certificate-exporter for each certificate of a
 * file, and the chain's own series beside them. One renderer for the metrics listener
 * (`CERT_WATCH`) and for `nettools chain --format prom` (node_exporter's textfile collector), so
 * both print the same series for the same file.
 *
 * Plain data in, text out: no runtime API, no clock of its own (the scrape's instant is given).
 * Label values come from the operator's files (a path, names and serials of certificates), never
 * from a request; they are escaped as the format requires, and no key material is ever among them
 * (a file is reduced to {@link FileReport} before anything is rendered).
 */
import type { ChainStatus } from "../domain/certificates/chain.ts";

/** One certificate of a watched file: what enix's exporter labels and measures. */
export interface CertificateFacts {
  /** The subject's last (most specific) CN, or "" when it has none. */
  subjectCN: string;
  /** The issuer's last (most specific) CN, or "" when it has none. */
  issuerCN: string;
  /** The serial in decimal, as Go's `big.Int.String()` writes it (enix's `serial_number`). */
  serialNumber: string;
  /** notBefore and notAfter, in whole seconds since the epoch. */
  notBefore: number;
  notAfter: number;
}

/** The chain verdict of a file (CONTRACT §7.1), reduced to what is exported. */
export interface ChainFacts {
  status: ChainStatus;
  /** How many problems of each code (with its severity); codes that did not occur are absent. */
  problems: { code: string; severity: string; count: number }[];
  /** The earliest notAfter of the path, in seconds since the epoch; null when there is no path. */
  earliestExpiry: number | null;
}

/** Everything exported about one file that was read and judged. */
export interface FileReport {
  /** The path as the operator named it (through a directory of CERT_WATCH, or a FILE argument). */
  filepath: string;
  /** Every certificate of the file, in file order. */
  certificates: CertificateFacts[];
  chain: ChainFacts;
}

/** §7.1's closed set of statuses: each file has one series per status, 1 for its current one. */
export const CHAIN_STATUSES = [
  "complete",
  "incomplete",
  "ambiguous",
  "no-leaf",
] as const satisfies readonly ChainStatus[];
// Fails to compile when the domain gains a status this list does not export.
const EVERY_STATUS: Exclude<ChainStatus, (typeof CHAIN_STATUSES)[number]> extends never ? true : never = true;
void EVERY_STATUS;

/** enix/x509-certificate-exporter's help texts (its v3 collector), so the families read the same. */
const HELP = {
  notAfter: "Indicates the certificate's not after timestamp",
  notBefore: "Indicates the certificate's not before timestamp",
  expired: "Indicates if the certificate is expired",
  readErrors: "Indicates the number of read failure(s)",
} as const;

const NEEDS_ESCAPE = /[\\"\n]/;

/** A label value escaped for the text format: backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\"\n]/g, (character) =>
    character === "\\" ? "\\\\" : character === '"' ? '\\"' : "\\n",
  );
}

function labels(pairs: readonly (readonly [string, string])[]): string {
  return `{${pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

/**
 * The exposition of `reports` at `nowSeconds` (which decides `x509_cert_expired`), with the read
 * error counters of `readErrors` (file path → failed reads so far). Files appear in path order,
 * certificates in file order; a certificate whose labels repeat an earlier one's in the same file
 * (the same certificate twice) is written once, so no series is ever duplicated.
 */
export function renderCertificateExposition(
  reports: readonly FileReport[],
  readErrors: ReadonlyMap<string, number>,
  nowSeconds: number,
): string {
  const files = [...reports].sort((a, b) => compareText(a.filepath, b.filepath));
  const certificateRows = files.flatMap((report) => {
    const seen = new Set<string>();
    return report.certificates.flatMap((certificate) => {
      const text = labels([
        ["filepath", report.filepath],
        ["subject_CN", certificate.subjectCN],
        ["issuer_CN", certificate.issuerCN],
        ["serial_number", certificate.serialNumber],
      ]);
      if (seen.has(text)) return [];
      seen.add(text);
      return [{ labels: text, certificate }];
    });
  });
  const out: string[] = [];
  const family = (name: string, type: "gauge" | "counter", help: string): void => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  };
  family("x509_cert_not_after", "gauge", HELP.notAfter);
  for (const row of certificateRows) out.push(`x509_cert_not_after${row.labels} ${row.certificate.notAfter}`);
  family("x509_cert_not_before", "gauge", HELP.notBefore);
  for (const row of certificateRows)
    out.push(`x509_cert_not_before${row.labels} ${row.certificate.notBefore}`);
  family("x509_cert_expired", "gauge", HELP.expired);
  for (const row of certificateRows)
    out.push(`x509_cert_expired${row.labels} ${nowSeconds > row.certificate.notAfter ? 1 : 0}`);
  family("x509_read_errors", "counter", HELP.readErrors);
  for (const [filepath, count] of [...readErrors].sort((a, b) => compareText(a[0], b[0])))
    out.push(`x509_read_errors${labels([["filepath", filepath]])} ${count}`);
  family(
    "network_tools_chain_status",
    "gauge",
    "The chain verdict of each watched file (CONTRACT 7.1): 1 for its current status, 0 for the others.",
  );
  for (const report of files)
    for (const status of CHAIN_STATUSES)
      out.push(
        `network_tools_chain_status${labels([
          ["filepath", report.filepath],
          ["status", status],
        ])} ${report.chain.status === status ? 1 : 0}`,
      );
  family(
    "network_tools_chain_problems",
    "gauge",
    "Problems of each watched file's chain, by code and severity (codes that did not occur are absent).",
  );
  for (const report of files)
    for (const problem of report.chain.problems)
      out.push(
        `network_tools_chain_problems${labels([
          ["filepath", report.filepath],
          ["code", problem.code],
          ["severity", problem.severity],
        ])} ${problem.count}`,
      );
  family(
    "network_tools_chain_earliest_expiry_seconds",
    "gauge",
    "The earliest notAfter on each watched file's chain path, in seconds since the epoch (absent without a path).",
  );
  for (const report of files)
    if (report.chain.earliestExpiry !== null)
      out.push(
        `network_tools_chain_earliest_expiry_seconds${labels([["filepath", report.filepath]])} ${report.chain.earliestExpiry}`,
      );
  return `${out.join("\n")}\n`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
