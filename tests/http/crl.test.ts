/**
 * POST /v1/crl through app.handle (CONTRACT §10.2, §1) with the real readers and the WebCrypto
 * verifier, on lists written by `openssl ca -gencrl`: the result and its headers, lookups
 * (revoked, not listed, another issuer), the signature (`verified`, `failed` under another key of
 * the same name, `not-checked`), staleness at `at`, and the refusals with their paths.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { makeCa, opensslCrlText } from "../support/openssl-ca.ts";
import { call, errorOf, jsonOf, testApp } from "./helpers.ts";

const app = () =>
  testApp({ decoder: new DerCertificateDecoder(), verifier: new NodeSignatureVerifier() }).app;

let CA = "";
let CRL = "";
let REVOKED = "";
let GOOD = "";
let OTHER = "";
let IMPOSTOR = "";
let NEXT_UPDATE = "";

beforeAll(() => {
  const ca = makeCa("HTTP CRL CA");
  const revoked = ca.issue("revoked.example", "0A11");
  const good = ca.issue("good.example", "0B22");
  ca.revoke(revoked, "cessationOfOperation");
  const crlPath = ca.gencrl();
  CA = ca.caPem;
  CRL = readFileSync(crlPath, "utf8");
  REVOKED = readFileSync(revoked, "utf8");
  GOOD = readFileSync(good, "utf8");
  NEXT_UPDATE = opensslCrlText(crlPath).nextUpdate!;
  const other = makeCa("Another CA");
  OTHER = readFileSync(other.issue("other.example", "0A11"), "utf8");
  IMPOSTOR = makeCa("HTTP CRL CA").caPem;
}, 60_000);

describe("POST /v1/crl", () => {
  test("a revoked, a valid and another CA's certificate; verified; never cached", async () => {
    const response = await call(app(), "POST", "/v1/crl", {
      json: { crl: CRL, issuerPem: CA, certificatePem: REVOKED + GOOD + OTHER, at: "2026-01-01T00:00:00Z" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await jsonOf(response)) as Record<string, unknown>;
    expect(body).toMatchObject({
      issuer: "O=Network Tools Tests,CN=HTTP CRL CA",
      nextUpdate: NEXT_UPDATE,
      crlNumber: "4096",
      signatureAlgorithm: "ecdsa-with-SHA256",
      entries: 1,
      signature: "verified",
      stale: false,
      evaluatedAt: "2026-01-01T00:00:00Z",
    });
    const [revoked, good, other] = body.certificates as Record<string, unknown>[];
    expect(revoked).toMatchObject({
      index: 0,
      serialNumber: "0A11",
      revoked: true,
      reason: "cessationOfOperation",
    });
    expect(good).toEqual({
      index: 1,
      serialNumber: "0B22",
      revoked: false,
      revocationDate: null,
      reason: null,
    });
    // Same serial, another issuer: never revoked, and the reason says why.
    expect(other).toMatchObject({ index: 2, serialNumber: "0A11", revoked: false, revocationDate: null });
    expect(String(other!.reason)).toContain("another CA");
  });

  test("a key of the same name that did not sign it: failed; without issuerPem: not-checked", async () => {
    const failed = await jsonOf(
      await call(app(), "POST", "/v1/crl", { json: { crl: CRL, issuerPem: IMPOSTOR } }),
    );
    expect((failed as { signature: string }).signature).toBe("failed");
    const unchecked = await jsonOf(await call(app(), "POST", "/v1/crl", { json: { crl: CRL } }));
    expect((unchecked as { signature: string }).signature).toBe("not-checked");
  });

  test("stale once nextUpdate is before at (an offset is answered in UTC)", async () => {
    const after = new Date(Date.parse(NEXT_UPDATE) + 1000).toISOString().replace(".000Z", "+00:00");
    const body = (await jsonOf(await call(app(), "POST", "/v1/crl", { json: { crl: CRL, at: after } }))) as {
      stale: boolean;
      evaluatedAt: string;
    };
    expect(body.stale).toBe(true);
    expect(body.evaluatedAt).toBe(after.replace("+00:00", "Z"));
    const atNext = (await jsonOf(
      await call(app(), "POST", "/v1/crl", { json: { crl: CRL, at: NEXT_UPDATE } }),
    )) as {
      stale: boolean;
    };
    expect(atNext.stale).toBe(false);
  });

  test("refusals: another issuer's certificate as issuerPem, a bad at, a certificate as crl, a broken list", async () => {
    const wrongIssuer = await call(app(), "POST", "/v1/crl", { json: { crl: CRL, issuerPem: GOOD } });
    expect(wrongIssuer.status).toBe(400);
    expect((await errorOf(wrongIssuer)).issues?.map((issue) => issue.path)).toEqual([["issuerPem"]]);
    for (const at of ["2026-01-01", "2026-02-30T00:00:00Z", "1949-12-31T23:59:59Z", "2026-01-01T00:00:00"]) {
      const response = await call(app(), "POST", "/v1/crl", { json: { crl: CRL, at } });
      expect({ at, status: response.status }).toEqual({ at, status: 400 });
      expect((await errorOf(response)).issues?.[0]?.path).toEqual(["at"]);
    }
    const certificate = await errorOf(await call(app(), "POST", "/v1/crl", { json: { crl: CA } }));
    expect(certificate.issues?.[0]).toMatchObject({ path: ["crl"], location: { line: 1, offset: 0 } });
    expect(certificate.issues?.[0]?.message).toContain('"CERTIFICATE"');
    const lines = CRL.trim().split("\n");
    lines[2] = `${lines[2]!.slice(0, 10)}AAAA${lines[2]!.slice(14)}`;
    const broken = await errorOf(
      await call(app(), "POST", "/v1/crl", { json: { crl: `${lines.join("\n")}\n` } }),
    );
    expect(broken.code).toBe("INVALID_INPUT");
    expect(broken.issues?.[0]?.path).toEqual(["crl"]);
    const tooLong = await call(app(), "POST", "/v1/crl", { json: { crl: "x".repeat(49_153) } });
    expect(tooLong.status).toBe(400);
  });
});
