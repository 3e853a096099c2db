/**
 * Dependency audit gate (issue 7, item 6): `npm audit --omit=dev --json`, then fail on any high or
 * critical advisory against a production dependency that `audit-allowlist.json` does not
 * acknowledge. How to acknowledge one: docs/reliability.md, "Dependency hygiene".
 *
 *   bun scripts/audit.ts                       # run npm audit and judge it
 *   bun scripts/audit.ts --report saved.json   # judge a saved `npm audit --json` report
 *
 * Exit codes: 0 clean (or everything acknowledged), 1 unacknowledged high/critical advisories or
 * an expired acknowledgement, 2 a malformed allow-list or bad arguments, 3 the audit service
 * could not be asked (unless AUDIT_IF_UNAVAILABLE=warn, which reports it and exits 0).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
export const ALLOWLIST_PATH = join(ROOT, "audit-allowlist.json");
const BLOCKING = new Set(["high", "critical"]);

export interface Advisory {
  /** GHSA id when the advisory has one, else `npm:<source>`. */
  id: string;
  package: string;
  severity: string;
  title: string;
  url: string;
}

export interface Acknowledgement {
  id: string;
  package?: string;
  reason: string;
  /** YYYY-MM-DD: the last day the acknowledgement holds. */
  expires: string;
}

export interface Verdict {
  blocking: { advisory: Advisory; why: string }[];
  acknowledged: { advisory: Advisory; acknowledgement: Acknowledgement }[];
  /** Lower-severity advisories: reported, never blocking. */
  other: Advisory[];
  /** Acknowledgements that match nothing any more: remove them. */
  stale: Acknowledgement[];
}

/** Thrown for an allow-list that cannot be trusted (exit code 2). */
export class AllowlistError extends Error {}

/** Reads and checks the allow-list: every entry needs an id, a reason and a real expiry date. */
export function parseAllowlist(text: string): Acknowledgement[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AllowlistError("audit-allowlist.json is not valid JSON");
  }
  const entries = (data as { advisories?: unknown })?.advisories;
  if (!Array.isArray(entries)) throw new AllowlistError('audit-allowlist.json needs an "advisories" array');
  return entries.map((entry, i) => {
    const e = entry as Partial<Acknowledgement> | null;
    const where = `audit-allowlist.json advisories[${i}]`;
    if (typeof e?.id !== "string" || e.id.trim() === "") throw new AllowlistError(`${where} needs an "id"`);
    if (typeof e.reason !== "string" || e.reason.trim().length < 10)
      throw new AllowlistError(`${where} (${e.id}) needs a "reason" saying why it is acceptable`);
    if (
      typeof e.expires !== "string" ||
      !/^\d{4}-\d{2}-\d{2}$/.test(e.expires) ||
      Number.isNaN(Date.parse(e.expires))
    )
      throw new AllowlistError(`${where} (${e.id}) needs an "expires" date as YYYY-MM-DD`);
    if (e.package !== undefined && typeof e.package !== "string")
      throw new AllowlistError(`${where} (${e.id}): "package" must be a string`);
    return {
      id: e.id.trim(),
      reason: e.reason,
      expires: e.expires,
      ...(e.package ? { package: e.package } : {}),
    };
  });
}

/** The advisories of an `npm audit --json` report (auditReportVersion 2), one per id and package. */
export function advisoriesOf(report: unknown): Advisory[] {
  const vulnerabilities = (report as { vulnerabilities?: Record<string, { via?: unknown[] }> })
    .vulnerabilities;
  if (vulnerabilities === undefined || typeof vulnerabilities !== "object") {
    throw new Error("not an npm audit report (no vulnerabilities object)");
  }
  const found = new Map<string, Advisory>();
  for (const [name, vulnerability] of Object.entries(vulnerabilities)) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== "object" || via === null) continue; // a package name: reported under its own key
      const v = via as { source?: number; name?: string; title?: string; url?: string; severity?: string };
      const ghsa = /GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/i.exec(v.url ?? "")?.[0];
      const advisory: Advisory = {
        id: ghsa ?? `npm:${v.source ?? "unknown"}`,
        package: v.name ?? name,
        severity: v.severity ?? "unknown",
        title: v.title ?? "",
        url: v.url ?? "",
      };
      found.set(`${advisory.id} ${advisory.package}`, advisory);
    }
  }
  return [...found.values()].sort((a, b) => a.package.localeCompare(b.package) || a.id.localeCompare(b.id));
}

/** Judges the advisories against the acknowledgements on `today` (YYYY-MM-DD). */
export function evaluate(advisories: Advisory[], allowlist: Acknowledgement[], today: string): Verdict {
  const verdict: Verdict = { blocking: [], acknowledged: [], other: [], stale: [] };
  const used = new Set<Acknowledgement>();
  for (const advisory of advisories) {
    if (!BLOCKING.has(advisory.severity)) {
      verdict.other.push(advisory);
      continue;
    }
    const match = allowlist.find(
      (a) =>
        a.id.toLowerCase() === advisory.id.toLowerCase() &&
        (a.package === undefined || a.package === advisory.package),
    );
    if (match === undefined) {
      verdict.blocking.push({ advisory, why: "not acknowledged in audit-allowlist.json" });
      continue;
    }
    used.add(match);
    if (match.expires < today) {
      verdict.blocking.push({ advisory, why: `its acknowledgement expired on ${match.expires}` });
    } else {
      verdict.acknowledged.push({ advisory, acknowledgement: match });
    }
  }
  verdict.stale = allowlist.filter((a) => !used.has(a));
  return verdict;
}

function runNpmAudit(): { report: unknown } | { unavailable: string } {
  const result = Bun.spawnSync(["npm", "audit", "--omit=dev", "--json"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const text = result.stdout.toString();
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return {
      unavailable: `npm audit printed no JSON (exit ${result.exitCode}): ${result.stderr.toString().trim().slice(0, 300)}`,
    };
  }
  const r = report as { vulnerabilities?: unknown; message?: string; error?: { summary?: string } };
  if (r.vulnerabilities === undefined) {
    return { unavailable: r.message ?? r.error?.summary ?? "npm audit returned no report" };
  }
  return { report };
}

function main(argv: string[]): number {
  let reportPath: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--report" && argv[i + 1]) reportPath = argv[++i]!;
    else {
      process.stderr.write("usage: bun scripts/audit.ts [--report npm-audit.json]\n");
      return 2;
    }
  }
  let allowlist: Acknowledgement[];
  try {
    allowlist = existsSync(ALLOWLIST_PATH) ? parseAllowlist(readFileSync(ALLOWLIST_PATH, "utf8")) : [];
  } catch (error) {
    process.stderr.write(`audit: ${(error as Error).message}\n`);
    return 2;
  }

  let report: unknown;
  if (reportPath !== null) report = JSON.parse(readFileSync(reportPath, "utf8"));
  else {
    const outcome = runNpmAudit();
    if ("unavailable" in outcome) {
      const warnOnly = process.env.AUDIT_IF_UNAVAILABLE === "warn";
      process.stderr.write(
        `audit: ${warnOnly ? "WARNING" : "FAIL"}: the npm audit service could not be asked: ${outcome.unavailable}\n` +
          `audit: production dependencies were NOT checked${warnOnly ? " (AUDIT_IF_UNAVAILABLE=warn)" : ""}\n`,
      );
      return warnOnly ? 0 : 3;
    }
    report = outcome.report;
  }

  const today = new Date().toISOString().slice(0, 10);
  const verdict = evaluate(advisoriesOf(report), allowlist, today);
  for (const a of verdict.other)
    process.stdout.write(`audit: ${a.severity}: ${a.package} ${a.id} ${a.title}\n`);
  for (const { advisory: a, acknowledgement: k } of verdict.acknowledged) {
    process.stdout.write(
      `audit: acknowledged until ${k.expires}: ${a.package} ${a.id} (${a.severity}) — ${k.reason}\n`,
    );
  }
  for (const k of verdict.stale)
    process.stdout.write(`audit: note: ${k.id} is acknowledged but no longer reported; remove it\n`);
  for (const { advisory: a, why } of verdict.blocking) {
    process.stderr.write(`audit: FAIL: ${a.severity}: ${a.package} ${a.id} ${a.title} ${a.url} — ${why}\n`);
  }
  if (verdict.blocking.length > 0) return 1;
  process.stdout.write("audit: no unacknowledged high or critical advisories in production dependencies\n");
  return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
