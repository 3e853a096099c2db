/**
 * The dependency audit gate's judgement (scripts/audit.ts) on saved `npm audit --json` reports:
 * high and critical advisories block unless acknowledged with a reason and an unexpired date.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ALLOWLIST_PATH,
  AllowlistError,
  advisoriesOf,
  evaluate,
  parseAllowlist,
} from "../../scripts/audit.ts";

const REPORT = {
  auditReportVersion: 2,
  vulnerabilities: {
    "left-pad": {
      name: "left-pad",
      severity: "high",
      via: [
        {
          source: 1001,
          name: "left-pad",
          title: "Prototype pollution",
          url: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc",
          severity: "high",
        },
      ],
    },
    "uses-left-pad": { name: "uses-left-pad", severity: "high", via: ["left-pad"] },
    "tiny-thing": {
      name: "tiny-thing",
      severity: "moderate",
      via: [
        {
          source: 1002,
          name: "tiny-thing",
          title: "ReDoS",
          url: "https://github.com/advisories/GHSA-dddd-eeee-ffff",
          severity: "moderate",
        },
      ],
    },
    "old-crit": {
      name: "old-crit",
      severity: "critical",
      via: [{ source: 1003, name: "old-crit", title: "RCE", url: "", severity: "critical" }],
    },
  },
  metadata: {},
};

const ack = (id: string, expires = "2099-01-01") => ({
  id,
  reason: "not reachable from our code paths",
  expires,
});

describe("scripts/audit.ts", () => {
  test("reads advisories once each, with GHSA ids where there are any", () => {
    expect(advisoriesOf(REPORT).map((a) => `${a.package} ${a.id} ${a.severity}`)).toEqual([
      "left-pad GHSA-aaaa-bbbb-cccc high",
      "old-crit npm:1003 critical",
      "tiny-thing GHSA-dddd-eeee-ffff moderate",
    ]);
    expect(() => advisoriesOf({ message: "405 Method Not Allowed" })).toThrow();
  });

  test("high and critical block; moderate is only reported", () => {
    const verdict = evaluate(advisoriesOf(REPORT), [], "2026-06-01");
    expect(verdict.blocking.map((b) => b.advisory.id)).toEqual(["GHSA-aaaa-bbbb-cccc", "npm:1003"]);
    expect(verdict.other.map((a) => a.id)).toEqual(["GHSA-dddd-eeee-ffff"]);
  });

  test("an acknowledgement with a future expiry lets an advisory through; an expired one does not", () => {
    const list = [ack("GHSA-aaaa-bbbb-cccc"), ack("npm:1003", "2026-05-31"), ack("GHSA-0000-0000-0000")];
    const verdict = evaluate(advisoriesOf(REPORT), list, "2026-06-01");
    expect(verdict.acknowledged.map((a) => a.advisory.id)).toEqual(["GHSA-aaaa-bbbb-cccc"]);
    expect(verdict.blocking).toEqual([
      {
        advisory: expect.objectContaining({ id: "npm:1003" }),
        why: "its acknowledgement expired on 2026-05-31",
      },
    ]);
    expect(verdict.stale.map((a) => a.id)).toEqual(["GHSA-0000-0000-0000"]);
    // the expiry day itself still counts
    expect(evaluate(advisoriesOf(REPORT), list, "2026-05-31").blocking).toEqual([]);
  });

  test("an acknowledgement naming another package does not apply", () => {
    const verdict = evaluate(
      advisoriesOf(REPORT),
      [{ ...ack("GHSA-aaaa-bbbb-cccc"), package: "right-pad" }],
      "2026-06-01",
    );
    expect(verdict.blocking.map((b) => b.advisory.id)).toContain("GHSA-aaaa-bbbb-cccc");
  });

  test("the allow-list needs a reason and an expiry for every entry", () => {
    expect(parseAllowlist('{"advisories":[]}')).toEqual([]);
    for (const bad of [
      "not json",
      "{}",
      '{"advisories":[{"reason":"because it is fine","expires":"2027-01-01"}]}',
      '{"advisories":[{"id":"GHSA-x","expires":"2027-01-01"}]}',
      '{"advisories":[{"id":"GHSA-x","reason":"ok","expires":"2027-01-01"}]}',
      '{"advisories":[{"id":"GHSA-x","reason":"because it is fine","expires":"next year"}]}',
    ]) {
      expect(() => parseAllowlist(bad)).toThrow(AllowlistError);
    }
  });

  test("the committed allow-list is valid", () => {
    expect(() => parseAllowlist(readFileSync(ALLOWLIST_PATH, "utf8"))).not.toThrow();
  });

  test("a saved report is judged end to end with exit code 1 for an unacknowledged advisory", () => {
    const dir = mkdtempSync(join(tmpdir(), "audit-"));
    const path = join(dir, "report.json");
    writeFileSync(path, JSON.stringify(REPORT));
    const run = Bun.spawnSync(
      [process.execPath, join(import.meta.dir, "../../scripts/audit.ts"), "--report", path],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr.toString()).toContain("GHSA-aaaa-bbbb-cccc");
    writeFileSync(path, JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: {} }));
    const clean = Bun.spawnSync([
      process.execPath,
      join(import.meta.dir, "../../scripts/audit.ts"),
      "--report",
      path,
    ]);
    expect(clean.exitCode).toBe(0);
  });
});
