/**
 * The x509-limbo harness's own logic (scripts/limbo/, ADR 0034 part 2): a testcase as a request,
 * our answer read as accept or reject, namespaces, agreement counted against an obvious model,
 * the API-limit test, the command line, and the report's table and lists. The suite itself is
 * built outside the repository; nothing here needs it.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { renderReport } from "../../scripts/limbo/report.ts";
import { parseOptions } from "../../scripts/limbo/run.ts";
import {
  formatTally,
  type LimboTestcase,
  namespaceOf,
  type Outcome,
  outcomesOfResults,
  overApiLimits,
  requestFor,
  tallyByNamespace,
  verdictOf,
} from "../../scripts/limbo/verdict.ts";

const block = (n: number) => `-----BEGIN CERTIFICATE-----\nAAAA${n}\n-----END CERTIFICATE-----`;

function testcase(overrides: Partial<LimboTestcase> = {}): LimboTestcase {
  return {
    id: "rfc5280::example",
    description: "An example.",
    validation_kind: "SERVER",
    trusted_certs: [block(0)],
    untrusted_intermediates: [block(1), block(2)],
    peer_certificate: block(9),
    validation_time: "2024-01-01T00:00:00+00:00",
    expected_result: "SUCCESS",
    expected_peer_name: { kind: "DNS", value: "example.com" },
    ...overrides,
  };
}

describe("requestFor", () => {
  test("peer first, then the pool; roots; hostname; at; leafIndex 0 unless dropped", () => {
    expect(requestFor(testcase())).toEqual({
      pem: `${block(9)}\n${block(1)}\n${block(2)}\n`,
      roots: `${block(0)}\n`,
      hostname: "example.com",
      at: "2024-01-01T00:00:00+00:00",
      leafIndex: 0,
    });
    expect(
      requestFor(
        testcase({
          trusted_certs: [],
          validation_time: null,
          expected_peer_name: null,
          untrusted_intermediates: [],
        }),
        false,
      ),
    ).toEqual({ pem: `${block(9)}\n` });
    expect(requestFor(testcase({ expected_peer_name: { kind: "IP", value: "192.0.2.1" } })).hostname).toBe(
      "192.0.2.1",
    );
  });

  test("overApiLimits: more than 16 blocks or 49,152 characters in pem or roots", () => {
    const pool = (n: number) => Array.from({ length: n }, (_, i) => block(i));
    expect(overApiLimits(requestFor(testcase({ untrusted_intermediates: pool(15) })))).toBe(false);
    expect(overApiLimits(requestFor(testcase({ untrusted_intermediates: pool(16) })))).toBe(true);
    expect(overApiLimits(requestFor(testcase({ trusted_certs: pool(16) })))).toBe(false);
    expect(overApiLimits(requestFor(testcase({ trusted_certs: pool(17) })))).toBe(true);
    expect(
      overApiLimits(requestFor(testcase({ peer_certificate: `${block(9)}${"A".repeat(49_152)}` }))),
    ).toBe(true);
  });
});

describe("verdictOf", () => {
  const problem = (code: string, severity: string) => ({ code, severity, clients: [], observed: "…" });
  const supplied = { path: [0, 1], anchor: { kind: "supplied-root" } };

  test("accept only when complete, anchored in a trusted certificate, and no error besides the presentation problems", () => {
    const tc = testcase();
    expect(verdictOf({ status: "complete", ...supplied, problems: [] }, tc)).toEqual({
      kind: "accept",
      problems: [],
    });
    expect(
      verdictOf(
        {
          status: "complete",
          ...supplied,
          problems: [
            problem("WRONG_ORDER", "error"),
            problem("UNNEEDED_CERTIFICATE", "warning"),
            problem("EXPIRING", "warning"),
          ],
        },
        tc,
      ),
    ).toEqual({ kind: "accept", problems: [problem("EXPIRING", "warning")] });
    const rejected = verdictOf(
      {
        status: "complete",
        ...supplied,
        problems: [problem("EXPIRED", "error"), problem("ROOT_INCLUDED", "info")],
      },
      tc,
    );
    expect(rejected).toEqual({ kind: "reject", why: "errors", problems: [problem("EXPIRED", "error")] });
    for (const status of ["incomplete", "ambiguous", "no-leaf"])
      expect(verdictOf({ status, path: [0], anchor: null, problems: [] }, tc)).toEqual({
        kind: "reject",
        why: "status",
        status,
        problems: [],
      });
  });

  test("an in-bundle anchor counts only when it is one of the trusted certificates, byte for byte", () => {
    const root = block(7);
    const inBundle = (path: number[]) => ({
      status: "complete",
      path,
      anchor: { kind: "in-bundle" },
      problems: [],
    });
    const trusting = testcase({
      untrusted_intermediates: [block(1), root],
      trusted_certs: [root.replace(/\n/g, "\r\n")],
    });
    expect(verdictOf(inBundle([0, 1, 2]), trusting).kind).toBe("accept");
    const untrusted = testcase({ untrusted_intermediates: [block(1), root], trusted_certs: [block(8)] });
    expect(verdictOf(inBundle([0, 1, 2]), untrusted)).toEqual({
      kind: "reject",
      why: "untrusted-anchor",
      problems: [],
    });
    expect(verdictOf({ ...inBundle([0]), anchor: { kind: "known-root" } }, trusting).kind).toBe("reject");
  });
});

describe("namespaces and agreement", () => {
  test("namespaceOf: the first segment, BetterTLS by suite", () => {
    expect(namespaceOf("rfc5280::nc::permitted-dns")).toBe("rfc5280");
    expect(namespaceOf("webpki::san::x")).toBe("webpki");
    expect(namespaceOf("bettertls::nameconstraints::tc12")).toBe("bettertls::nameconstraints");
    expect(namespaceOf("plain")).toBe("plain");
  });

  test("property: tallies equal a count done case by case", () => {
    const namespaces = ["rfc5280", "webpki", "bettertls::pathbuilding", "bettertls::nameconstraints"];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            namespace: fc.constantFrom(...namespaces),
            expected: fc.constantFrom("SUCCESS" as const, "FAILURE" as const),
            outcome: fc.option(fc.constantFrom<Outcome>("SUCCESS", "FAILURE", "SKIPPED"), { nil: undefined }),
          }),
          { maxLength: 60 },
        ),
        (cases) => {
          const testcases = cases.map((c, i) => ({
            id: `${c.namespace}::t${i}`,
            expected_result: c.expected,
          }));
          const outcomes = new Map<string, Outcome>();
          cases.forEach((c, i) => {
            if (c.outcome !== undefined) outcomes.set(`${c.namespace}::t${i}`, c.outcome);
          });
          const tallies = tallyByNamespace(testcases, outcomes);
          const model = (keep: (namespace: string) => boolean) => {
            const kept = cases.filter((c) => keep(c.namespace));
            return {
              total: kept.length,
              agree: kept.filter((c) => c.outcome === c.expected).length,
              skipped: kept.filter((c) => c.outcome === undefined || c.outcome === "SKIPPED").length,
            };
          };
          for (const namespace of namespaces) {
            const expected = model((n) => n === namespace);
            expect(tallies.get(namespace)).toEqual(expected.total === 0 ? undefined : expected);
          }
          const all = model(() => true);
          expect(tallies.get("all")).toEqual(all.total === 0 ? undefined : all);
          const better = model((n) => n.startsWith("bettertls"));
          expect(tallies.get("bettertls")).toEqual(better.total === 0 ? undefined : better);
        },
      ),
    );
  });

  test("outcomesOfResults and formatTally", () => {
    const outcomes = outcomesOfResults({
      results: [
        { id: "a", actual_result: "SUCCESS" },
        { id: "b", actual_result: "HANG" },
      ],
    });
    expect([...outcomes]).toEqual([
      ["a", "SUCCESS"],
      ["b", "SKIPPED"],
    ]);
    expect(outcomesOfResults({ results: null }).size).toBe(0);
    expect(formatTally({ total: 3, agree: 2, skipped: 1 })).toBe("2/3 (66.7 %, 1 skipped)");
    expect(formatTally(undefined)).toBe("–");
  });
});

describe("the command line and the report", () => {
  test("parseOptions", () => {
    const options = parseOptions([
      "--limbo",
      "/x/limbo.json",
      "--compare",
      "go=/r/go.json",
      "--concurrency",
      "3",
    ]);
    expect([options.limbo, options.compare, options.concurrency, options.overLimit]).toEqual([
      "/x/limbo.json",
      [{ label: "go", path: "/r/go.json" }],
      3,
      "cli",
    ]);
    expect(() => parseOptions([])).toThrow("--limbo is required");
    expect(() => parseOptions(["--limbo"])).toThrow("needs a value");
    expect(() => parseOptions(["--limbo", "x", "--compare", "go"])).toThrow("LABEL=RESULTS.json");
    expect(() => parseOptions(["--limbo", "x", "--over-limit", "skip"])).toThrow("cli or reject");
    expect(() => parseOptions(["--limbo", "x", "--bogus", "1"])).toThrow("unknown option");
  });

  test("renderReport: the table, the disagreement with its problems, the refusal", () => {
    const cases = [
      testcase({ id: "rfc5280::a", expected_result: "SUCCESS" }),
      testcase({ id: "rfc5280::b", expected_result: "FAILURE", description: "B must fail." }),
      testcase({ id: "webpki::c", expected_result: "FAILURE" }),
    ];
    const report = renderReport({
      limboPath: "/x/limbo.json",
      limboSha256: "ab".repeat(32),
      checkout: "/w (main at 1234567)",
      command: "bun scripts/limbo/run.ts",
      finishedAt: "2026-01-01T00:00:00Z",
      seconds: 1,
      testcases: cases,
      results: [
        {
          id: "rfc5280::a",
          description: "",
          expected: "SUCCESS",
          outcome: "SUCCESS",
          httpStatus: 200,
          leafIndexSent: true,
          via: "api",
          verdict: { kind: "accept", problems: [] },
          blocks: 3,
          roots: 1,
        },
        {
          id: "rfc5280::b",
          description: "B must fail.",
          expected: "FAILURE",
          outcome: "SUCCESS",
          httpStatus: 200,
          leafIndexSent: true,
          via: "api",
          verdict: { kind: "accept", problems: [] },
          blocks: 3,
          roots: 1,
        },
        {
          id: "webpki::c",
          description: "",
          expected: "FAILURE",
          outcome: "FAILURE",
          httpStatus: 400,
          leafIndexSent: true,
          via: "api",
          verdict: {
            kind: "reject",
            why: "refused",
            issues: [{ path: ["pem"], message: "not a certificate" }],
          },
          blocks: 3,
          roots: 1,
        },
      ],
      comparisons: [
        {
          label: "go",
          harness: "gocryptox509",
          outcomes: new Map<string, Outcome>([["rfc5280::b", "FAILURE"]]),
        },
      ],
    });
    expect(report.markdown).toContain("| `rfc5280` | 1/2 (50.0 %) | 1/2 (50.0 %, 1 skipped) |");
    expect(report.markdown).toContain("| `webpki` | 1/1 (100.0 %) | 0/1 (0.0 %, 1 skipped) |");
    expect(report.markdown).toContain(
      "- `rfc5280::b`: limbo expects FAILURE, we accept.\n  B must fail.\n  - others: go FAILURE",
    );
    expect(report.markdown).toContain('- `webpki::c` (expected FAILURE, agrees): ["pem"] not a certificate');
    expect(report.markdown).toContain(
      "agreements that are input refusals (a decoder or limit said no, not a rule): webpki 1",
    );
    expect(report.summary.us?.all).toEqual({ total: 3, agree: 2, skipped: 0 });
  });
});
