/**
 * The chain verdict against `openssl verify`, with the real decoder and verifier (CONTRACT §7.1,
 * §7.2): every `complete` verdict's fullchainPem verifies under its anchor, and a supplied root that
 * answers by name and key id but whose key did not sign the intermediate (the attack of issue 24)
 * ends no path, as openssl refuses it. `-attime` pins the instant, so no test depends on today.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { buildCertificateChain, type CertificateChainResult } from "../../src/domain/certificates/chain.ts";
import { pemBlock } from "../../src/domain/certificates/pem.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { certPem, chainNames, chainPem, pemToDers } from "../fixtures/fixtures.ts";

const NOW = "2026-06-01T00:00:00Z";
const AT_TIME = String(Date.parse(NOW) / 1000);
const deps = {
  clock: fixedClock(NOW),
  decoder: new DerCertificateDecoder(),
  verifier: new NodeSignatureVerifier(),
  roots: noKnownRoots,
};

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chain-openssl-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `openssl verify` of the leaf (the first block of `served`) with the other blocks as untrusted
 * intermediates and `anchor` as the only trusted certificate; true when openssl says OK.
 */
function opensslVerifies(served: string, anchor: string, extra: string[] = []): boolean {
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const leafEnd = served.indexOf("-----END CERTIFICATE-----") + "-----END CERTIFICATE-----\n".length;
  const args = [
    "verify",
    "-attime",
    AT_TIME,
    "-CAfile",
    file("anchor.pem", anchor),
    "-untrusted",
    file("served.pem", served),
    ...extra,
    file("leaf.pem", served.slice(0, leafEnd)),
  ];
  return Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" }).exitCode === 0;
}

/** The trusted certificate openssl needs for a verdict: the supplied root, or the bundle's anchor. */
function anchorPem(result: CertificateChainResult, bundle: string, supplied: string | null): string {
  if (result.anchor!.kind === "supplied-root") return supplied!;
  const last = result.path.at(-1)!;
  return pemBlock(pemToDers(bundle)[last]!);
}

describe("chain verdicts against openssl verify", () => {
  test("every complete verdict's fullchainPem verifies; every chain fixture, with and without the root", async () => {
    const names = chainNames().filter((name) => name.startsWith("chain-"));
    expect(names.length).toBeGreaterThanOrEqual(7);
    const root = certPem("chain-root");
    let complete = 0;
    for (const name of names) {
      for (const supplied of [root, null]) {
        const bundle = chainPem(name);
        const result = await buildCertificateChain(
          { pem: bundle, hostname: "chain.example.com", ...(supplied ? { roots: supplied } : {}) },
          deps,
        );
        if (result.status !== "complete") continue;
        complete++;
        expect([
          name,
          supplied !== null,
          opensslVerifies(result.fullchainPem, anchorPem(result, bundle, supplied)),
        ]).toEqual([name, supplied !== null, true]);
      }
    }
    expect(complete).toBe(7);
  });

  test("a supplied root with the right name and key id whose key did not sign: incomplete, as openssl refuses", async () => {
    const rekeyed = certPem("chain-root-rekeyed");
    const bundle = chainPem("chain-ordered");
    const result = await buildCertificateChain({ pem: bundle, roots: rekeyed }, deps);
    expect(result).toMatchObject({ status: "incomplete", path: [0, 1, 2], anchor: { kind: "missing" } });
    expect(result.problems.map((p) => p.code)).toEqual(["INCOMPLETE_CHAIN"]);
    expect(result.problems[0]!.observed).toContain("its key does not verify the certificate");
    expect(opensslVerifies(result.fullchainPem, rekeyed)).toBe(false);
    // The genuine root, supplied after the impostor, ends the path, and openssl agrees.
    const both = await buildCertificateChain({ pem: bundle, roots: rekeyed + certPem("chain-root") }, deps);
    expect(both.status).toBe("complete");
    expect(opensslVerifies(both.fullchainPem, certPem("chain-root"))).toBe(true);
  });
});
