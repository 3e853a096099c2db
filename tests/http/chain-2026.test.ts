/**
 * CONTRACT §9.3–§9.5 through app.handle: the route clients accept is answered and written to
 * fullchainPem, a supplied root's problem carries `suppliedRoot` (and the response still matches
 * the chain's schema), a distrusted reference root (a fake store with
 * dates) raises ROOT_DISTRUSTED_FOR_NEW_CERTS, and EXPIRING follows the lifetime when
 * expiryWarningDays is absent.
 */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { CertificateChainResult } from "../../src/contract/chain-schemas.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import type { RootDistrust, RootStore } from "../../src/domain/ports.ts";
import { bundleOf, fakeDecoder, makeCertificate, toPem } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { call, jsonOf, testApp } from "./helpers.ts";

const root = makeCertificate({
  subject: "CN=Test Root",
  ca: true,
  extendedKeyUsage: ["emailProtection"],
  notBefore: "2020-01-01T00:00:00Z",
  notAfter: "2040-01-01T00:00:00Z",
});
const sha1Int = makeCertificate({
  subject: "CN=Test Int",
  issuer: "CN=Test Root",
  ca: true,
  signatureDigest: "SHA-1",
  variant: "sha1",
  key: "int",
});
const cleanInt = makeCertificate({ subject: "CN=Test Int", issuer: "CN=Test Root", ca: true, key: "int" });
const leaf = makeCertificate({
  subject: "CN=www.example.com",
  issuer: "CN=Test Int",
  signedBy: "int",
  sans: ["www.example.com"],
  notBefore: "2026-05-01T00:00:00Z",
  notAfter: "2026-07-29T23:59:59Z",
});

interface Problem {
  code: string;
  certificateIndexes: number[];
  clients: string[];
  observed: string;
  suppliedRoot?: { index: number; subject: string };
}

function appWith(roots: RootStore, known: CertificateData[] = []) {
  return testApp({
    clock: fixedClock("2026-06-01T12:00:00Z"),
    decoder: fakeDecoder([root, sha1Int, cleanInt, leaf, ...known]),
    verifier: scriptedVerifier(),
    roots,
  }).app;
}

describe("POST /v1/certificate-chain, CONTRACT §9", () => {
  test("two routes: the one clients accept is answered and written; the supplied root is judged and named", async () => {
    const app = appWith(fakeRootStore());
    const response = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf, sha1Int, cleanInt]), roots: toPem(root) },
    });
    expect(response.status).toBe(200);
    const body = (await jsonOf(response)) as { path: number[]; fullchainPem: string; problems: Problem[] };
    expect(Value.Check(CertificateChainResult, body)).toBe(true);
    expect(body.path).toEqual([0, 2]);
    expect(body.fullchainPem).toBe(bundleOf([leaf, cleanInt]));
    const eku = body.problems.find((p) => p.code === "CA_EKU_LACKS_SERVER_AUTH")!;
    expect(eku).toEqual({
      code: "CA_EKU_LACKS_SERVER_AUTH",
      severity: "error",
      certificateIndexes: [],
      observed: expect.stringContaining("Your own root 0 (CN=Test Root)") as unknown as string,
      nextAction: expect.any(String) as unknown as string,
      clients: ["go", "openssl"],
      suppliedRoot: { index: 0, subject: "CN=Test Root" },
    } as Problem);
    expect(Object.keys(eku).at(-1)).toBe("suppliedRoot");
  });

  test("a reference root with distrust dates: ROOT_DISTRUSTED_FOR_NEW_CERTS under webpki", async () => {
    const publicRoot = makeCertificate({
      subject: "CN=Test Root",
      ca: true,
      notBefore: "2020-01-01T00:00:00Z",
      notAfter: "2040-01-01T00:00:00Z",
    });
    const distrust: RootDistrust = {
      serverDistrustAfter: Date.parse("2026-04-01T00:00:00Z"),
      sctNotAfter: Date.parse("2026-04-01T00:00:00Z"),
    };
    const store = fakeRootStore([publicRoot]);
    const app = appWith({ ...store, distrustOf: (der) => (der === publicRoot.der ? distrust : null) }, [
      publicRoot,
    ]);
    const response = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf, cleanInt]) },
    });
    const body = (await jsonOf(response)) as { profile: string; problems: Problem[] };
    expect(body.profile).toBe("webpki");
    expect(body.problems.map((p) => [p.code, p.clients])).toEqual([
      ["ROOT_DISTRUSTED_FOR_NEW_CERTS", ["chrome", "firefox"]],
    ]);
  });

  test("EXPIRING follows the lifetime without expiryWarningDays, and the given days with it", async () => {
    const shortLeaf = makeCertificate({
      subject: "CN=short.example.com",
      issuer: "CN=Test Int",
      signedBy: "int",
      sans: ["short.example.com"],
      notBefore: "2026-05-27T00:00:00Z",
      notAfter: "2026-06-02T23:59:59Z",
    });
    const app = testApp({
      clock: fixedClock("2026-06-01T12:00:00Z"),
      decoder: fakeDecoder([shortLeaf, cleanInt, root]),
      verifier: scriptedVerifier(),
      roots: fakeRootStore([root]),
    }).app;
    const ask = async (extra: Record<string, unknown>) => {
      const response = await call(app, "POST", "/v1/certificate-chain", {
        json: { pem: bundleOf([shortLeaf, cleanInt]), ...extra },
      });
      return ((await jsonOf(response)) as { problems: Problem[] }).problems.filter(
        (p) => p.code === "EXPIRING",
      );
    };
    const relative = await ask({});
    expect(relative.map((p) => p.certificateIndexes)).toEqual([[0]]);
    expect(relative[0]!.observed).toContain("within the last half of its 7-day lifetime (4 days)");
    expect(await ask({ expiryWarningDays: 0 })).toEqual([]);
  });
});
