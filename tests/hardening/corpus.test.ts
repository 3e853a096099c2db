/**
 * The hostile corpus (issue 7): one table of nasty requests, each with the answer it must get,
 * run through `app.handle` (real certificate adapters, fixed clock) and again against the real
 * server process. Every answer must also pass the generic shape checks (no 500, exact envelope,
 * schema-shaped success), and the next normal request must still be served.
 *
 * Decisions these cases pin down (see docs/reliability.md):
 * - nesting deeper than 32 arrays/objects is INVALID_INPUT before validation (json-body.ts);
 * - duplicate keys: the last one wins, as JSON.parse does (RFC 8259 §4 leaves it open);
 * - paths are exact: `/v1/health/` is a 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { MORE_ISSUES_OMITTED } from "../../src/contract/envelope.ts";
import { MAX_ENTRY_LENGTH } from "../../src/domain/limits.ts";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { fixedClock } from "../fakes/clock.ts";
import { certPem, chainPem } from "../fixtures/fixtures.ts";
import { testApp } from "../http/helpers.ts";
import { loopCaPems } from "./loop-cas.ts";
import { lineAt, NORMAL_BODIES, problemsOf } from "./shapes.ts";

interface Case {
  name: string;
  path: string;
  /** JSON text (sent as is) or a function building it lazily (fixtures are generated on demand). */
  body: string | (() => string);
  status: number;
  code?: string;
  /** Extra checks on the parsed answer. */
  check?: (answer: Answer, body: string) => void;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
type Answer = any;

const J = JSON.stringify;
const MAX_BYTES = 65_536;

/** An address entry padded with surrounding whitespace to exactly 64 characters. */
function pad64(entry: string, i = 0): string {
  const room = MAX_ENTRY_LENGTH - entry.length;
  const left = i % (room + 1);
  const ws = (n: number) => " \t\r\n".repeat(n).slice(0, n);
  const padded = ws(left) + entry + ws(room - left);
  if (padded.length !== MAX_ENTRY_LENGTH) throw new Error(`pad64: ${padded.length}`);
  return padded;
}

const IPV6_LONGEST = [
  "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128",
  "0000:0000:0000:0000:0000:0000:0000:0000/128",
  "2001:0db8:0000:0000:0000:ff00:0042:8329/64",
  "0:0:0:0:0:ffff:192.168.255.255/96",
  "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210/1",
];

/** As many 64-character IPv6 entries as fit in one 64 KiB body. */
function longestCoverBody(): string {
  const inputs: string[] = [];
  let size = J({ inputs: [] }).length;
  for (let i = 0; inputs.length < 1000; i++) {
    const entry = pad64(IPV6_LONGEST[i % IPV6_LONGEST.length]!, i);
    if (size + J(entry).length + 1 > MAX_BYTES) break;
    inputs.push(entry);
    size += J(entry).length + 1;
  }
  const body = J({ inputs });
  if (Buffer.byteLength(body) > MAX_BYTES) throw new Error("longestCoverBody over the limit");
  return body;
}

/** 999 scattered single addresses removed from one big block: far more than 10000 result CIDRs. */
function tooLargeSubtract(family: 4 | 6): string {
  const exclude = Array.from({ length: 999 }, (_, i) =>
    family === 4
      ? `10.${i & 255}.${(i >> 8) * 60 + 1}.${(i * 37) & 255}`
      : `2001:db8:${i.toString(16)}::${(i * 3).toString(16)}`,
  );
  return J({ include: [family === 4 ? "10.0.0.0/8" : "::/0"], exclude });
}

function issues(answer: Answer): { message: string; path: (string | number)[]; location?: Answer }[] {
  return answer.error?.issues ?? [];
}

const PROTO_PROBE = "hardeningPolluted";

const CASES: Case[] = [
  // --- nesting ---------------------------------------------------------------------------
  {
    name: "65536 unterminated [",
    path: "/v1/cidr-cover",
    body: "[".repeat(MAX_BYTES),
    status: 400,
    code: "INVALID_JSON",
  },
  {
    name: "100k levels of [ (over the size limit)",
    path: "/v1/cidr-cover",
    body: "[".repeat(100_000),
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
  },
  {
    name: "32768 balanced [ ] levels",
    path: "/v1/cidr-cover",
    body: "[".repeat(32_768) + "]".repeat(32_768),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)[0]!.path).toEqual([]),
  },
  {
    name: "deep nesting inside a valid request's unknown field",
    path: "/v1/range-to-cidrs",
    body: `{"start":"10.0.0.1","end":"10.0.0.9","x":${"[".repeat(30_000)}${"]".repeat(30_000)}}`,
    status: 400,
    code: "INVALID_INPUT",
  },
  {
    name: "deep nesting inside an entry",
    path: "/v1/cidr-cover",
    body: `{"inputs":[${"[".repeat(30_000)}${"]".repeat(30_000)}]}`,
    status: 400,
    code: "INVALID_INPUT",
  },
  {
    name: "10000 nested objects",
    path: "/v1/certificate-bundle",
    body: `${'{"pem":'.repeat(8_000)}"x"${"}".repeat(8_000)}`,
    status: 400,
    code: "INVALID_INPUT",
  },
  {
    name: "32 levels is still ordinary validation",
    path: "/v1/cidr-cover",
    body: `{"inputs":[${"[".repeat(30)}${"]".repeat(30)}]}`,
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)[0]!.path).toEqual(["inputs", 0]),
  },
  // --- long strings ----------------------------------------------------------------------
  {
    name: "a 64 KiB address entry is refused without being echoed",
    path: "/v1/cidr-cover",
    body: J({ inputs: ["1".repeat(65_000)] }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => {
      expect(issues(a)[0]!.path).toEqual(["inputs", 0]);
      expect(J(a)).not.toContain("1".repeat(65));
    },
  },
  {
    name: "a 64 KiB hostname",
    path: "/v1/certificate-bundle",
    body: () => J({ pem: chainPem("rsa-sha256"), hostname: "a".repeat(60_000) }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => {
      expect(issues(a)[0]!.path).toEqual(["hostname"]);
      expect(J(a)).not.toContain("a".repeat(256));
    },
  },
  {
    name: "a pem of 49153 characters",
    path: "/v1/certificate-bundle",
    body: J({ pem: "A".repeat(49_153) }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)[0]!.path).toEqual(["pem"]),
  },
  {
    name: "a pem under 49152 characters but over 49152 UTF-8 bytes",
    path: "/v1/certificate-bundle",
    body: J({ pem: "é".repeat(24_577) }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)[0]!.path).toEqual(["pem"]),
  },
  // --- numbers -----------------------------------------------------------------------------
  {
    name: "1e999 and friends as entries",
    path: "/v1/cidr-cover",
    body: '{"inputs":[1e999,-1e999,1e-999,-0,123456789012345678901234567890]}',
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a).map((i) => i.path)).toEqual([0, 1, 2, 3, 4].map((n) => ["inputs", n])),
  },
  {
    name: "1e999 as leafIndex",
    path: "/v1/certificate-bundle",
    body: () => `{"pem":${J(chainPem("rsa-sha256"))},"leafIndex":1e999}`,
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)[0]!.path).toEqual(["leafIndex"]),
  },
  {
    name: "1e999 as the whole body",
    path: "/v1/range-to-cidrs",
    body: "1e999",
    status: 400,
    code: "INVALID_INPUT",
  },
  {
    name: "leafIndex 0.0 is the integer 0",
    path: "/v1/certificate-bundle",
    body: () => `{"pem":${J(chainPem("rsa-sha256"))},"leafIndex":0.0}`,
    status: 200,
    check: (a) => expect(a.selectedLeafIndex).toBe(0),
  },
  // --- prototype keys ------------------------------------------------------------------------
  ...(
    [
      [
        "top level __proto__",
        "/v1/cidr-cover",
        `{"__proto__":{"${PROTO_PROBE}":1},"inputs":["10.0.0.1"]}`,
        ["__proto__"],
      ],
      [
        "top level constructor.prototype",
        "/v1/cidr-cover",
        `{"inputs":["10.0.0.1"],"constructor":{"prototype":{"${PROTO_PROBE}":1}}}`,
        ["constructor"],
      ],
      [
        "prototype key",
        "/v1/cidr-subtract",
        '{"include":["10.0.0.0/8"],"exclude":[],"prototype":{}}',
        ["prototype"],
      ],
      [
        "__proto__ as an entry",
        "/v1/cidr-cover",
        `{"inputs":[{"__proto__":{"${PROTO_PROBE}":1}}]}`,
        ["inputs", 0],
      ],
      [
        "constructor as a field value",
        "/v1/range-to-cidrs",
        `{"start":{"constructor":{"prototype":{"${PROTO_PROBE}":1}}},"end":"10.0.0.1"}`,
        ["start"],
      ],
      [
        "__proto__ null in the certificate request",
        "/v1/certificate-bundle",
        '{"pem":"x","__proto__":null}',
        ["__proto__"],
      ],
    ] as const
  ).map(
    ([name, path, body, where]): Case => ({
      name,
      path,
      body,
      status: 400,
      code: "INVALID_INPUT",
      check: (a) => expect(issues(a).map((i) => i.path)).toContainEqual([...where]),
    }),
  ),
  // --- duplicate keys ------------------------------------------------------------------------
  {
    name: "duplicate keys: the last one wins",
    path: "/v1/range-to-cidrs",
    body: '{"start":"10.0.0.9","end":"10.0.0.9","start":"10.0.0.0"}',
    status: 200,
    check: (a) => expect(a.range).toEqual({ first: "10.0.0.0", last: "10.0.0.9" }),
  },
  {
    name: "duplicate __proto__ keys",
    path: "/v1/cidr-cover",
    body: '{"inputs":["10.0.0.1"],"__proto__":1,"__proto__":2}',
    status: 400,
    code: "INVALID_INPUT",
  },
  // --- huge arrays of empty strings -------------------------------------------------------------
  {
    name: "21000 empty strings: 100 issues, and checking stops at 101 (CONTRACT §1.7)",
    path: "/v1/cidr-cover",
    body: J({ inputs: Array(21_000).fill("") }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => {
      expect(issues(a)).toHaveLength(100);
      expect(a.error.message).toBe(MORE_ISSUES_OMITTED);
    },
  },
  {
    name: "10000 + 10000 empty strings in subtract",
    path: "/v1/cidr-subtract",
    body: J({ include: Array(10_000).fill(""), exclude: Array(10_000).fill("") }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)).toHaveLength(100),
  },
  {
    name: "6000 unknown fields",
    path: "/v1/range-to-cidrs",
    body: `{${Array.from({ length: 6_000 }, (_, i) => `"k${i}":0`).join(",")}}`,
    status: 400,
    code: "INVALID_INPUT",
    check: (a) => expect(issues(a)).toHaveLength(100),
  },
  // --- surrogate halves in PEM -----------------------------------------------------------------
  ...[
    ["before the block", (pem: string) => `\uD800${pem}`],
    ["inside the base64", (pem: string) => pem.replace("\n", "\n\uDC00")],
    ["in the label", (pem: string) => pem.replace("BEGIN CERTIFICATE", "BEGIN CERTIFICATE\uD800")],
    ["after the END line, with CR line breaks", (pem: string) => `${pem.replaceAll("\n", "\r")}\r\uD83D`],
    ["as the whole text", () => "\uD800".repeat(10_000)],
  ].map(
    ([where, make]): Case => ({
      name: `a lone surrogate ${where as string}`,
      path: "/v1/certificate-bundle",
      body: () => J({ pem: (make as (p: string) => string)(certPem("leaf-rsa")) }),
      status: 400,
      code: "INVALID_INPUT",
      check: (a, body) => {
        const pem = (JSON.parse(body) as { pem: string }).pem;
        const located = issues(a).filter((i) => i.location);
        expect(located.length).toBeGreaterThan(0);
        for (const { location } of located) {
          expect(location.offset).toBeGreaterThanOrEqual(0);
          expect(location.offset).toBeLessThanOrEqual(location.end);
          expect(location.end).toBeLessThanOrEqual(pem.length);
          expect(location.line).toBe(lineAt(pem, location.offset));
        }
        expect(J(a)).not.toContain("MII");
      },
    }),
  ),
  // --- 16 certificates naming each other ----------------------------------------------------------
  {
    name: "16 same-name CAs: 240 candidate links",
    path: "/v1/certificate-bundle",
    body: () => J({ pem: loopCaPems().join(""), hostname: "loop.example" }),
    status: 200,
    check: (a) => {
      expect(a.certificates).toHaveLength(16);
      expect(a.relationships).toHaveLength(240);
      for (const r of a.relationships) expect(r.childIndex).not.toBe(r.issuerIndex);
      const self = a.certificates.map((c: Answer) => c.selfSignature);
      expect(self).toEqual(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? "verified" : "failed")));
      expect(a.leafIndexes).toEqual([]);
      expect(a.hostname).toEqual({ expected: "loop.example", status: "no-leaf" });
    },
  },
  {
    name: "16 copies of one certificate",
    path: "/v1/certificate-bundle",
    body: () => J({ pem: certPem("root-ec-p256").repeat(16) }),
    status: 200,
    check: (a) => {
      expect(a.certificates).toHaveLength(16);
      const duplicates = a.findings.filter((f: Answer) => f.code === "DUPLICATE_CERTIFICATE");
      expect(duplicates).toHaveLength(15);
    },
  },
  {
    name: "a 17th block is located",
    path: "/v1/certificate-bundle",
    body: () => J({ pem: certPem("root-ec-p256").repeat(17) }),
    status: 400,
    code: "INVALID_INPUT",
    check: (a, body) => {
      const pem = (JSON.parse(body) as { pem: string }).pem;
      const start = certPem("root-ec-p256").length * 16;
      expect(issues(a)[0]!.location.offset).toBe(start);
      expect(issues(a)[0]!.location.line).toBe(lineAt(pem, start));
    },
  },
  // --- subtract over the result limit ---------------------------------------------------------------
  {
    name: "subtract over 10000 results (IPv4)",
    path: "/v1/cidr-subtract",
    body: tooLargeSubtract(4),
    status: 400,
    code: "RESULT_TOO_LARGE",
  },
  {
    name: "subtract over 10000 results (IPv6)",
    path: "/v1/cidr-subtract",
    body: tooLargeSubtract(6),
    status: 400,
    code: "RESULT_TOO_LARGE",
  },
  // --- the largest valid IPv6 inputs ----------------------------------------------------------------
  {
    name: "a full 64 KiB of 64-character IPv6 entries",
    path: "/v1/cidr-cover",
    body: longestCoverBody(),
    status: 200,
    check: (a, body) => {
      expect(a.normalizedInputs).toHaveLength((JSON.parse(body) as { inputs: string[] }).inputs.length);
      expect(a.cidr).toBe("::/0");
    },
  },
  {
    name: "65-character entries are refused",
    path: "/v1/cidr-cover",
    body: J({ inputs: [` ${pad64(IPV6_LONGEST[0]!)}`] }),
    status: 400,
    code: "INVALID_INPUT",
  },
  {
    name: "the longest range-to-cidrs answer (254 CIDRs) from 64-character endpoints",
    path: "/v1/range-to-cidrs",
    body: J({
      start: pad64("0000:0000:0000:0000:0000:0000:0000:0001"),
      end: pad64("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", 7),
    }),
    status: 200,
    check: (a) => expect(a.cidrCount).toBe(254),
  },
  {
    name: "subtract with 64-character entries",
    path: "/v1/cidr-subtract",
    body: J({
      include: IPV6_LONGEST.slice(0, 3).map((e, i) => pad64(e, i)),
      exclude: IPV6_LONGEST.slice(3).map((e, i) => pad64(e, i)),
    }),
    status: 200,
  },
];

/** Runs the table against `send`; `label` names the transport. */
function runCorpus(label: string, send: (path: string, body: string) => Promise<Response>): void {
  describe(`hostile corpus (${label})`, () => {
    for (const c of CASES) {
      test(c.name, async () => {
        const body = typeof c.body === "function" ? c.body() : c.body;
        const response = await send(c.path, body);
        const text = await response.text();
        expect(problemsOf("POST", c.path, response, text)).toEqual([]);
        expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: c.status });
        const answer = JSON.parse(text);
        if (c.code) expect(answer.error.code).toBe(c.code);
        c.check?.(answer, body);
        const path = Object.keys(NORMAL_BODIES)[CASES.indexOf(c) % 3]!;
        expect((await send(path, J(NORMAL_BODIES[path]))).status).toBe(200);
      });
    }
    test("no prototype was polluted", () => {
      expect(({} as Record<string, unknown>)[PROTO_PROBE]).toBeUndefined();
      expect(Object.hasOwn(Object.prototype, PROTO_PROBE)).toBe(false);
    });
  });
}

const local = testApp({
  clock: fixedClock("2026-06-01T12:00:00Z"),
  decoder: new DerCertificateDecoder(),
  verifier: new NodeSignatureVerifier(),
});
runCorpus("app.handle", (path, body) =>
  local.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  ),
);
afterAll(() => {
  expect(local.logger.records.filter((r) => r.level === "error")).toEqual([]);
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  const code = await server.stop();
  expect(code).toBe(0);
  expect(server.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
});
runCorpus("real process", (path, body) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body }),
);
