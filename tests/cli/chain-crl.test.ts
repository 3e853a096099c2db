/**
 * `nettools chain --crl FILE…` (CONTRACT §10.2) as a process: a path member listed in its issuer's
 * CRL is `REVOKED` (error, every client, observed serial, date and reason; exit 1), a list past its
 * nextUpdate is `CRL_STALE` (warning), a list its issuer's key does not verify is not used (one
 * notice), and a chain whose members are not listed keeps its verdict (exit 0 path unchanged).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeCa, opensslCrlText, type TestCa } from "../support/openssl-ca.ts";
import { runNettools } from "./run.ts";

let ca: TestCa;
let crl = "";
let revokedBundle = "";
let goodBundle = "";

beforeAll(() => {
  ca = makeCa("Chain CRL CA");
  const revoked = ca.issue("revoked.example", "2001");
  const good = ca.issue("good.example", "2002");
  ca.revoke(revoked, "superseded");
  crl = ca.gencrl();
  revokedBundle = join(ca.dir, "revoked-bundle.pem");
  writeFileSync(revokedBundle, readFileSync(revoked, "utf8") + ca.caPem);
  goodBundle = join(ca.dir, "good-bundle.pem");
  writeFileSync(goodBundle, readFileSync(good, "utf8") + ca.caPem);
}, 60_000);

type Problem = {
  code: string;
  severity: string;
  certificateIndexes: number[];
  observed: string;
  clients: string[];
};
const problemsOf = (stdout: string): Problem[] => JSON.parse(stdout).problems;

describe("nettools chain --crl", () => {
  test("a revoked leaf: REVOKED, an error naming serial, date and reason, every client; exit 1", async () => {
    const oracle = opensslCrlText(crl).revoked[0]!;
    const ran = await runNettools(["chain", "--json", "--crl", crl, revokedBundle]);
    expect(ran.code).toBe(1);
    const revoked = problemsOf(ran.stdout).filter((p) => p.code === "REVOKED");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({
      severity: "error",
      certificateIndexes: [0],
      clients: ["chrome", "firefox", "apple", "go", "openssl"],
    });
    expect(revoked[0]!.observed).toContain(`serial ${oracle.serialNumber}`);
    expect(revoked[0]!.observed).toContain(oracle.revocationDate);
    expect(revoked[0]!.observed).toContain("superseded");
    const text = await runNettools(["chain", "--crl", crl, revokedBundle]);
    expect(text.stdout).toContain("REVOKED [#0]");
  });

  test("a leaf the list does not name: no REVOKED, and the verdict without --crl is unchanged", async () => {
    const withCrl = problemsOf((await runNettools(["chain", "--json", "--crl", crl, goodBundle])).stdout);
    const without = problemsOf((await runNettools(["chain", "--json", goodBundle])).stdout);
    expect(withCrl.map((p) => p.code)).toEqual(without.map((p) => p.code));
  });

  test("a list signed by another key of the issuer's name is not used: one notice, no REVOKED", async () => {
    const impostor = makeCa("Chain CRL CA");
    impostor.revoke(impostor.issue("revoked.example", "2001"), "keyCompromise");
    const forged = impostor.gencrl("forged.pem");
    const ran = await runNettools(["chain", "--json", "--crl", forged, revokedBundle]);
    expect(problemsOf(ran.stdout).some((p) => p.code === "REVOKED")).toBe(false);
    expect(ran.stderr).toContain("is not used: its issuer's key does not verify it");
  }, 30_000);

  test("a list past its nextUpdate: CRL_STALE, a warning on the members it covers", async () => {
    const stale = ca.gencrl("stale.pem", 1);
    await Bun.sleep(2100);
    const ran = await runNettools(["chain", "--json", "--crl", stale, goodBundle]);
    const found = problemsOf(ran.stdout).filter((p) => p.code === "CRL_STALE");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: "warning", certificateIndexes: [0], clients: [] });
  }, 30_000);

  test("an unreadable CRL file: one line, exit 2", async () => {
    const ran = await runNettools(["chain", "--crl", join(ca.dir, "missing.crl"), goodBundle]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("missing.crl");
  });
});
