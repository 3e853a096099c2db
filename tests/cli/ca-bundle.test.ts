/**
 * `nettools cert` at real-world size (issue 13): a whole CA bundle (the machine's
 * /etc/ssl/certs/ca-certificates.crt, ~150 certificates, ~220 KB, or the file
 * $NETTOOLS_TEST_CA_BUNDLE names) is inspected in-process, past the API's 16 blocks and 49152
 * characters, with every certificate read and every root's self-signature verified; with --server
 * the API's limits still apply. Only what holds for any bundle is asserted: which roots have
 * expired is compared with the dates openssl reads.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { bundleUnderTest, opensslValidities } from "../fixtures/ca-bundles/ca-bundles.ts";
import { runNettools } from "./run.ts";

const BUNDLE = bundleUnderTest();

const nettools = (args: string[]) => runNettools(args);

// Started by the one test that needs it, so a slow start cannot fail the in-process test.
let server: RunningServer | null = null;
afterAll(async () => {
  await server?.stop();
});

describe(`the CA bundle under test (${BUNDLE}) through the CLI`, () => {
  const blocks = (readFileSync(BUNDLE, "utf8").match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;

  test("in-process: every certificate read, every self-signature verified", async () => {
    expect(blocks).toBeGreaterThan(16);
    const { code, stdout, stderr } = await nettools(["cert", "--json", BUNDLE]);
    const result = JSON.parse(stdout) as {
      evaluatedAt: string;
      certificates: { subject: string; issuer: string; selfSignature: string | null }[];
      findings: {
        code: string;
        severity: string;
        certificateIndexes: number[];
        evidence: { notAfter?: string };
      }[];
    };
    expect(stderr).toBe("");
    expect(result.certificates).toHaveLength(blocks);
    const roots = result.certificates.filter((certificate) => certificate.subject === certificate.issuer);
    expect(roots.length).toBeGreaterThan(16);
    expect(roots.every((certificate) => certificate.selfSignature === "verified")).toBe(true);
    // The only errors: each root past the notAfter openssl reads (an older bundle has some), with that date.
    const now = Date.parse(result.evaluatedAt);
    const expired = (await opensslValidities(BUNDLE)).flatMap(({ notAfter }, index) =>
      notAfter.getTime() < now ? [{ index, notAfter: notAfter.toISOString().replace(/\.000Z$/, "Z") }] : [],
    );
    const errors = result.findings.filter((finding) => finding.severity === "error");
    expect(
      errors.map((finding) => ({
        code: finding.code,
        index: finding.certificateIndexes[0],
        notAfter: finding.evidence.notAfter,
      })),
    ).toEqual(expired.map(({ index, notAfter }) => ({ code: "CERTIFICATE_EXPIRED", index, notAfter })));
    // Exit 1 only for error findings, else 0.
    expect(code).toBe(errors.length > 0 ? 1 : 0);
  }, 60_000);

  test("with --server the API's limits apply: the server refuses the 220 KB body", async () => {
    server = await startServer();
    const { code, stderr } = await nettools(["cert", "--server", server.url, BUNDLE]);
    expect(code).toBe(2);
    expect(stderr).toContain("PAYLOAD_TOO_LARGE");
    expect(stderr).toContain("65536 bytes");
  }, 60_000);
});
