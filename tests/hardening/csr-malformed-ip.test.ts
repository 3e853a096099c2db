/**
 * `/v1/csr` never gives a malformed IP SAN as address text (issue 30): a request whose
 * subjectAltName holds a 5-octet iPAddress (the attack's `#0102030405`) answers with its good
 * addresses only in `subjectAltNames.ip`, every entry an address.
 */
import { describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { keyFixture } from "../fixtures/key-fixtures.ts";
import { call, jsonOf, testApp } from "../http/helpers.ts";

/** The fixture request with its IPv6 SAN (`87 10` + 16 octets) replaced, length for length, by a 5-octet iPAddress and a dNSName. */
function withMalformedIp(): string {
  const pem = keyFixture("requests/p256.pem");
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
  const ipv6 = Buffer.from("8710" + "20010db8000000000000000000000010", "hex");
  const at = der.indexOf(ipv6);
  expect(at).toBeGreaterThan(0);
  Buffer.concat([
    Buffer.from("87050102030405", "hex"),
    Buffer.from("8209", "hex"),
    Buffer.from("a.example"),
  ]).copy(der, at);
  const body = der.toString("base64").replace(/.{64}/g, "$&\n").trimEnd();
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}\n-----END CERTIFICATE REQUEST-----\n`;
}

describe("a malformed IP SAN in a request", () => {
  test("is never address text in subjectAltNames.ip", async () => {
    const { app } = testApp({
      decoder: new DerCertificateDecoder(),
      verifier: new NodeSignatureVerifier(),
    });
    const response = await call(app, "POST", "/v1/csr", { json: { pem: withMalformedIp() } });
    expect(response.status).toBe(200);
    const body = (await jsonOf(response)) as { subjectAltNames: { dns: string[]; ip: string[] } };
    expect(body.subjectAltNames).toEqual({
      dns: ["www.example.com", "example.com", "a.example"],
      ip: ["192.0.2.10"],
    });
    for (const address of body.subjectAltNames.ip) expect(isIP(address)).not.toBe(0);
  });
});
