/**
 * Hostnames that are addresses in a form no endpoint takes (CONTRACT §7.3 "Hostnames in
 * messages"), through app.handle: the chain endpoint, which takes bare addresses, names the form
 * it accepts; the bundle endpoint, which takes DNS names only, says so.
 */
import { describe, expect, test } from "bun:test";
import { bundleOf, fakeDecoder, makeCertificate } from "../fakes/certificates.ts";
import { fixedClock } from "../fakes/clock.ts";
import { fakeRootStore } from "../fakes/roots.ts";
import { scriptedVerifier } from "../fakes/verifier.ts";
import { call, errorOf, testApp } from "./helpers.ts";

const leaf = makeCertificate({
  subject: "CN=app.internal.example",
  sans: ["app.internal.example", { type: "ip", value: "2001:db8::1" }],
});

function app() {
  return testApp({
    clock: fixedClock("2026-06-01T12:00:00Z"),
    decoder: fakeDecoder([leaf]),
    verifier: scriptedVerifier(),
    roots: fakeRootStore(),
  }).app;
}

const FORMS: [string, string][] = [
  ["[2001:db8::1]", "give the address without brackets (2001:db8::1)"],
  ["[2001:db8::1]:443", "give the address without brackets and without a port (2001:db8::1)"],
  ["fe80::1%eth0", "zone indexes are not accepted; give the address alone (fe80::1)"],
  ["2001:db8::1/128", "a hostname has no prefix length; give the address alone (2001:db8::1)"],
  ["192.0.2.1/32", "a hostname has no prefix length; give the address alone (192.0.2.1)"],
];

describe("POST /v1/certificate-chain: the accepted form is named", () => {
  test.each(FORMS)("%j", async (hostname, words) => {
    const response = await call(app(), "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf]), hostname },
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues).toHaveLength(1);
    expect(error.issues![0]!.path).toEqual(["hostname"]);
    expect(error.issues![0]!.message).toEndWith(words);
    expect(error.issues![0]!.message).not.toContain("must be a DNS name, not an IP address");
    expect(error.issues![0]!.message).not.toContain("URL");
  });

  test("the bare address is accepted and matched", async () => {
    const response = await call(app(), "POST", "/v1/certificate-chain", {
      json: { pem: bundleOf([leaf]), hostname: "2001:db8::1" },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { problems: { code: string }[] };
    expect(body.problems.map((problem) => problem.code)).not.toContain("HOSTNAME_MISMATCH");
  });
});

describe("POST /v1/certificate-bundle (DNS names only): every address form is not a DNS name", () => {
  test.each(FORMS)("%j", async (hostname) => {
    const response = await call(app(), "POST", "/v1/certificate-bundle", {
      json: { pem: bundleOf([leaf]), hostname },
    });
    const error = await errorOf(response);
    expect(error.issues?.map((issue) => issue.message)).toEqual([
      "hostname must be a DNS name, not an IP address",
    ]);
  });
});
