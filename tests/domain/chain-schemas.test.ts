/** The chain result schema accepts what the use case returns, and the request schema keeps §7.1's bounds. */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { checkerOf } from "../../src/client/validate.ts";
import { CertificateChainRequest, CertificateChainResult } from "../../src/contract/chain-schemas.ts";
import { buildCertificateChain } from "../../src/domain/certificates/chain.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { chainNames, chainPem } from "../fixtures/fixtures.ts";

describe("chain schemas", () => {
  test("every chain fixture's result matches CertificateChainResult", async () => {
    const deps = {
      clock: fixedClock("2026-11-24T00:00:00Z"),
      decoder: new DerCertificateDecoder(),
      verifier: new NodeSignatureVerifier(),
      roots: noKnownRoots,
    };
    const names = chainNames().filter((name) => name.startsWith("chain-"));
    expect(names.length).toBeGreaterThanOrEqual(7);
    for (const name of names) {
      const result = await buildCertificateChain(
        { pem: chainPem(name), hostname: "chain.example.com" },
        deps,
      );
      expect([name, checkerOf(CertificateChainResult).issues(result)]).toEqual([name, []]);
    }
  });

  test("request bounds: expiryWarningDays 0–3650, unknown fields refused, roots and includeRoot typed", () => {
    expect(Value.Check(CertificateChainRequest, { pem: "x", expiryWarningDays: 0 })).toBe(true);
    expect(Value.Check(CertificateChainRequest, { pem: "x", expiryWarningDays: 3650 })).toBe(true);
    expect(Value.Check(CertificateChainRequest, { pem: "x", expiryWarningDays: 3651 })).toBe(false);
    expect(Value.Check(CertificateChainRequest, { pem: "x", expiryWarningDays: 1.5 })).toBe(false);
    expect(Value.Check(CertificateChainRequest, { pem: "x", includeRoot: "yes" })).toBe(false);
    expect(Value.Check(CertificateChainRequest, { pem: "x", roots: 1 })).toBe(false);
    expect(Value.Check(CertificateChainRequest, { pem: "x", extra: 1 })).toBe(false);
  });
});
