/**
 * The in-process runs of the wire contract's operations (src/operations/local-runner.ts): the
 * request checked as the server checks it with the API's size bounds lifted, a refusal as the
 * server's envelope, the ports read only when a use case runs, and the caller's own roots.
 */
import { describe, expect, test } from "bun:test";
import { DerRevocationListDecoder } from "../../src/adapters/crypto/crl-decoder.ts";
import { MAX_SUBTRACT_ENTRIES } from "../../src/domain/limits.ts";
import type { SignatureVerifier } from "../../src/domain/ports.ts";
import { LocalOperationRunner } from "../../src/operations/local-runner.ts";
import { chain } from "../domain/certificate-helpers.ts";
import { bundleOf, fakeDecoder } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";

const certs = chain();

/** A runner on fakes, counting how often its certificate adapters are asked for. */
function runner() {
  const asked = { count: 0 };
  const deps = {
    clock: fixedClock("2026-06-01T00:00:00Z"),
    decoder: fakeDecoder([certs.root, certs.intermediate, certs.leaf]),
    verifier: scriptedVerifier(),
    roots: fakeRootStore(),
  };
  const local = new LocalOperationRunner({
    certificates: () => {
      asked.count++;
      return deps;
    },
    revocationLists: new DerRevocationListDecoder(),
  });
  return { local, asked, deps };
}

describe("LocalOperationRunner", () => {
  test("a list longer than the API allows runs with the local limits", async () => {
    const { local } = runner();
    // 1500 consecutive /24s from 10.0.0.0: 10.0.0.0/14, 10.4.0.0/16 and 220 /24s of 10.5.
    const inputs = Array.from({ length: 1500 }, (_, k) => `10.${k >> 8}.${k & 255}.0/24`);
    expect(inputs.length).toBeGreaterThan(MAX_SUBTRACT_ENTRIES);
    const answer = await local.run("cidrMerge", { inputs });
    expect(answer.ok ? answer.value.cidrs : answer.error).toEqual([
      "10.0.0.0/14",
      "10.4.0.0/16",
      "10.5.0.0/17",
      "10.5.128.0/18",
      "10.5.192.0/20",
      "10.5.208.0/21",
      "10.5.216.0/22",
    ]);
  });

  test("a bad entry is the server's envelope: INVALID_INPUT, 400, the issue at the entry's place", async () => {
    const { local } = runner();
    const answer = await local.run("cidrMerge", { inputs: ["10.0.0.0/8", "10.0.0.256"] });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.status).toBe(400);
    expect(answer.error.code).toBe("INVALID_INPUT");
    expect(answer.error.issues?.[0]?.path).toEqual(["inputs", 1]);
  });

  test("a body the schema refuses (not a list) is refused as the server refuses it", async () => {
    const { local } = runner();
    const answer = await local.run("cidrMerge", { inputs: "10.0.0.0/8" } as unknown as { inputs: string[] });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect([answer.status, answer.error.code]).toEqual([400, "INVALID_INPUT"]);
  });

  test("a CIDR run never asks for the certificate adapters; a certificate run does", async () => {
    const { local, asked } = runner();
    expect((await local.run("cidrCover", { inputs: ["192.0.2.1", "192.0.2.7"] })).ok).toBe(true);
    expect(asked.count).toBe(0);
    expect(
      (await local.run("certificateChain", { pem: bundleOf([certs.leaf, certs.intermediate]) })).ok,
    ).toBe(true);
    expect(asked.count).toBeGreaterThan(0);
  });

  test("the caller's roots join the reference store of the runs that follow; checked only, or refused, they do not", async () => {
    const { local } = runner();
    const pem = bundleOf([certs.leaf, certs.intermediate]);
    const anchor = async () => {
      const answer = await local.run("certificateChain", { pem });
      if (!answer.ok) throw new Error(answer.error.message);
      return [answer.value.status, answer.value.anchor?.kind];
    };
    expect(await anchor()).toEqual(["incomplete", "missing"]);
    expect(await local.supplyRoots(bundleOf([certs.root]), true)).toBeNull();
    expect(await anchor()).toEqual(["incomplete", "missing"]);
    const refused = await local.supplyRoots(bundleOf([certs.leaf]));
    expect(refused?.ok).toBe(false);
    if (refused !== null && !refused.ok) expect(refused.error.issues?.[0]?.path).toEqual(["roots"]);
    expect(await anchor()).toEqual(["incomplete", "missing"]);
    expect(await local.supplyRoots(bundleOf([certs.root]))).toBeNull();
    // Composed with the reference store (cert has no roots field): the root is now a known one.
    expect(await anchor()).toEqual(["complete", "known-root"]);
  });

  test("a bound's verifier checks the run's signatures", async () => {
    const { local, deps } = runner();
    const wrapped: string[] = [];
    const bound = {
      verifier: (inner: SignatureVerifier): SignatureVerifier => ({
        verify: (child, issuer) => {
          wrapped.push(child.subject);
          return inner.verify(child, issuer);
        },
      }),
      // Asked only by a long path search (src/domain/certificates/chain-path.ts).
      exhausted: () => false,
    };
    const answer = await local.run(
      "certificateChain",
      { pem: bundleOf([certs.leaf, certs.intermediate]) },
      bound,
    );
    expect(answer.ok).toBe(true);
    expect(wrapped.length).toBeGreaterThan(0);
    expect(wrapped.length).toBe(deps.verifier.calls.length);
  });
});
