/**
 * Human-readable output of the command-line tool: aligned tables, findings grouped by severity,
 * error envelopes with their issues (and, for PEM, the offending line of the user's own input).
 * Colour is decided by the caller (`Style`); nothing here writes anywhere.
 */
import type {
  CertificateBundleResultType,
  CidrCoverResultType,
  CidrSubtractResultType,
  ErrorIssue,
  Finding,
  RangeToCidrsResultType,
} from "../client/index.ts";
import { locateLine } from "../client/text-location.ts";
import { cidrSpanRow } from "../local/address-facts.ts";
import { escapeForTerminal } from "../local/terminal-text.ts";
import type { Style } from "./style.ts";

export { COLOUR, chooseStyle, PLAIN, type Style } from "./style.ts";

/** Rows as columns padded to the widest cell; `header` is styled bold. The last column is not padded. */
export function table(header: string[] | null, rows: string[][], style: Style, indent = ""): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (row: string[]) =>
    indent +
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out: string[] = [];
  if (header) out.push(style.bold(line(header)));
  for (const row of rows) out.push(line(row));
  return `${out.join("\n")}\n`;
}

/** A list of CIDRs as a table (each with its span), then `facts` about the list as aligned rows. */
function cidrTable(cidrs: readonly string[], style: Style, facts: string[][]): string {
  const list =
    cidrs.length === 0
      ? `${style.dim("(no CIDRs: nothing remains)")}\n`
      : table(["CIDR", "FIRST", "LAST", "ADDRESSES"], cidrs.map(cidrSpanRow), style);
  return `${list}\n${table(null, facts, style)}`;
}

export function renderCover(result: CidrCoverResultType, style: Style): string {
  return `${table(
    null,
    [
      ["cidr", style.bold(result.cidr)],
      ["family", result.family],
      ["range", `${result.range.first} – ${result.range.last}`],
      ["input addresses", result.inputAddressCount],
      ["covered addresses", result.coveredAddressCount],
      ["additional addresses", result.additionalAddressCount],
    ],
    style,
  )}\n${style.bold("normalized inputs")}\n${result.normalizedInputs.map((c) => `  ${c}\n`).join("")}`;
}

export function renderSubtract(result: CidrSubtractResultType, style: Style): string {
  return cidrTable(result.cidrs, style, [
    ["family", result.family],
    ["included addresses", result.includedAddressCount],
    ["removed addresses", result.removedAddressCount],
    ["remaining addresses", result.remainingAddressCount],
    ["CIDRs", String(result.cidrs.length)],
  ]);
}

/** A cidr-merge result: the CIDR table, then the counts per family. */
export function renderMixedMerge(
  result: { cidrs: readonly string[]; ipv4AddressCount: string; ipv6AddressCount: string },
  style: Style,
): string {
  const v4 = result.cidrs.filter((cidr) => !cidr.includes(":")).length;
  return cidrTable(result.cidrs, style, [
    ["IPv4", `${v4} CIDRs, ${result.ipv4AddressCount} addresses`],
    ["IPv6", `${result.cidrs.length - v4} CIDRs, ${result.ipv6AddressCount} addresses`],
  ]);
}

/** A cidr-split result: the subnet table, then what was split. */
export function renderSplit(
  result: { network: string; prefixLength: number; subnetCount: string; cidrs: readonly string[] },
  style: Style,
): string {
  return cidrTable(result.cidrs, style, [
    ["network", result.network],
    ["subnets", `${result.subnetCount} × /${result.prefixLength}`],
  ]);
}

/** A cidr-allocate result: the allocated blocks, then what stays free. */
export function renderAllocate(
  result: { cidrs: readonly string[]; freeAddressCount: string },
  style: Style,
): string {
  return cidrTable(result.cidrs, style, [["still free", `${result.freeAddressCount} addresses`]]);
}

export function cidrLines(result: { cidrs: readonly string[] }): string {
  return result.cidrs.length === 0 ? "" : `${result.cidrs.join("\n")}\n`;
}

export function renderRange(result: RangeToCidrsResultType, style: Style): string {
  return cidrTable(result.cidrs, style, [
    ["family", result.family],
    ["range", `${result.range.first} – ${result.range.last}`],
    ["addresses", result.addressCount],
    ["CIDRs", String(result.cidrCount)],
  ]);
}

const SEVERITIES = ["error", "warning", "info"] as const;

function severityStyle(severity: Finding["severity"], style: Style): (text: string) => string {
  return severity === "error" ? style.red : severity === "warning" ? style.yellow : style.cyan;
}

function yesNo(value: boolean | null): string {
  return value === null ? "-" : value ? "yes" : "no";
}

/** Findings grouped by severity, each with its certificates, observation and next action. */
export function renderFindings(
  findings: readonly (Pick<Finding, "severity" | "certificateIndexes" | "observed" | "nextAction"> & {
    code: string;
  })[],
  style: Style,
  none = "No findings.",
): string {
  let out = "";
  for (const severity of SEVERITIES) {
    const group = findings.filter((finding) => finding.severity === severity);
    if (group.length === 0) continue;
    const paint = severityStyle(severity, style);
    out += `${paint(style.bold(`${severity.toUpperCase()} (${group.length})`))}\n`;
    for (const finding of group) {
      const where = finding.certificateIndexes.length ? ` [#${finding.certificateIndexes.join(", #")}]` : "";
      out += `  ${paint(escapeForTerminal(finding.code))}${where}\n`;
      out += `    ${escapeForTerminal(finding.observed)}\n`;
      out += `    ${style.dim("→")} ${escapeForTerminal(finding.nextAction)}\n`;
    }
  }
  return out || `${style.green(none)}\n`;
}

/**
 * The bundle result for a terminal. `hostname` replaces the words of the hostname row when the CLI
 * checked the name itself (an address, CONTRACT §7.6) or knows more (the SAN that matched).
 */
export function renderCertificates(
  result: CertificateBundleResultType,
  style: Style,
  hostname?: string,
): string {
  const certificates = table(
    ["#", "LINE", "SUBJECT", "NOT AFTER", "CA", "SELF-SIGNATURE"],
    result.certificates.map((c) => [
      String(c.index),
      String(c.line),
      escapeForTerminal(c.subject) || "(empty)",
      escapeForTerminal(c.notAfter),
      yesNo(c.ca),
      c.selfSignature ?? "-",
    ]),
    style,
  );
  const links = result.relationships.length
    ? table(
        ["CHILD", "ISSUER", "SIGNATURE", "ISSUER ELIGIBLE", "KEY ID MATCH"],
        result.relationships.map((r) => [
          `#${r.childIndex}`,
          `#${r.issuerIndex}`,
          r.signature,
          yesNo(r.issuerEligible),
          yesNo(r.keyIdentifierMatch),
        ]),
        style,
      )
    : `${style.dim("(no issuer in the bundle for any certificate)")}\n`;
  const hostnameWords =
    hostname ??
    (result.hostname === null ? "not checked" : `${result.hostname.expected}: ${result.hostname.status}`);
  const leaves = result.leafIndexes.length ? result.leafIndexes.map((i) => `#${i}`).join(", ") : "none";
  const summary = table(
    null,
    [
      ["evaluated at", result.evaluatedAt],
      ["possible leaves", leaves],
      ["selected leaf", result.selectedLeafIndex === null ? "-" : `#${result.selectedLeafIndex}`],
      ["hostname", hostnameWords],
    ],
    style,
  );
  return [
    `${style.bold("Certificates")}\n${certificates}`,
    `${style.bold("Issuer links")}\n${links}`,
    summary,
    `${style.bold("Findings")}\n${renderFindings(result.findings, style)}`,
  ].join("\n");
}

function describeIssuePath(path: readonly (string | number)[] | undefined): string {
  if (path === undefined || path.length === 0) return "";
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text ? `.${part}` : part;
  return `${text}: `;
}

/**
 * The offending line of `source` with the located span underlined (the user's own input, local
 * only). `lineShift` is added to the line numbers shown, for a source made of several files.
 */
export function excerpt(
  source: string,
  location: NonNullable<ErrorIssue["location"]>,
  style: Style,
  lineShift = 0,
): string {
  const found = locateLine(source, location);
  if (found === null) return "";
  const limit = 100;
  const shown = found.text.length > limit ? `${found.text.slice(0, limit)}…` : found.text;
  const from = Math.min(found.from, limit);
  const width = Math.max(1, Math.min(found.to, limit) - from);
  const gutter = `${found.line + lineShift} | `;
  const through = found.endLine > found.line ? style.dim(` (through line ${found.endLine + lineShift})`) : "";
  return `    ${style.dim(gutter)}${shown}\n    ${" ".repeat(gutter.length + from)}${style.red("^".repeat(width))}${through}\n`;
}

/** An error (server envelope or client-side) with each issue on its own line. */
export function renderError(
  error: { code: string; message: string; issues?: readonly ErrorIssue[] | undefined },
  style: Style,
  source?: string,
): string {
  let out = `${style.red(style.bold("error"))} ${style.bold(error.code)}: ${error.message}\n`;
  for (const issue of error.issues ?? []) {
    const at = issue.location ? `line ${issue.location.line}: ` : describeIssuePath(issue.path);
    out += `  - ${at}${issue.message}\n`;
    if (issue.location && source !== undefined) out += excerpt(source, issue.location, style);
  }
  return out;
}
