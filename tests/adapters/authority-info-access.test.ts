/**
 * The Authority Information Access reader (src/adapters/crypto/authority-info-access.ts): the
 * caIssuers and OCSP URIs in order, other location forms skipped, anything malformed refused; and
 * the decoder's values match what openssl prints for every fixture that has the extension.
 */
import { describe, expect, test } from "bun:test";
import { readAuthorityInfoAccess } from "../../src/adapters/crypto/authority-info-access.ts";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { readTlv } from "../../src/domain/der.ts";
import { certDer, certNames, certPath } from "../fixtures/fixtures.ts";

const tlv = (tag: number, ...content: number[][]) => {
  const body = content.flat();
  return [tag, body.length, ...body];
};
const OID_CA_ISSUERS = [0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x02];
const OID_OCSP = [0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01];
const uri = (text: string) => [0x86, text.length, ...Buffer.from(text)];

/** Reads `value` (the extension's inner DER) as the OCTET STRING content the decoder hands over. */
function read(value: number[]) {
  const octets = new Uint8Array(tlv(0x04, value));
  return readAuthorityInfoAccess(octets, readTlv(octets, 0, octets.length)!);
}

describe("readAuthorityInfoAccess", () => {
  test("caIssuers and OCSP URIs in order; a directoryName location is skipped", () => {
    const value = tlv(
      0x30,
      tlv(0x30, OID_CA_ISSUERS, uri("http://a.example/1.cer")),
      tlv(0x30, OID_OCSP, uri("http://ocsp.example")),
      tlv(0x30, OID_CA_ISSUERS, tlv(0xa4, tlv(0x30))),
      tlv(0x30, OID_CA_ISSUERS, uri("http://b.example/2.cer")),
    );
    expect(read(value)).toEqual({
      caIssuersUrls: ["http://a.example/1.cer", "http://b.example/2.cer"],
      ocspUrls: ["http://ocsp.example"],
    });
  });

  test("no extension: empty lists", () => {
    expect(readAuthorityInfoAccess(new Uint8Array(0), undefined)).toEqual({
      caIssuersUrls: [],
      ocspUrls: [],
    });
  });

  test("malformed values are refused", () => {
    const bad: number[][] = [
      tlv(0x31, tlv(0x30, OID_CA_ISSUERS, uri("http://x"))), // a SET, not a SEQUENCE
      tlv(0x30, tlv(0x30, OID_CA_ISSUERS)), // no location
      tlv(0x30, tlv(0x30, [0x04, 0x01, 0x00], uri("http://x"))), // method is not an OID
      tlv(0x30, tlv(0x30, OID_CA_ISSUERS, [0x16, 0x01, 0x78])), // location not a GeneralName
      tlv(0x30, tlv(0x30, OID_CA_ISSUERS, [0xa6, 0x00])), // a constructed URI
      [...tlv(0x30, tlv(0x30, OID_CA_ISSUERS, uri("http://x"))), 0x00], // trailing byte
    ];
    for (const value of bad) expect(read(value)).toBeNull();
  });
});

describe("the decoder against openssl", () => {
  test("every fixture's caIssuers and OCSP URIs are the ones openssl prints", async () => {
    const decoder = new DerCertificateDecoder();
    let withExtension = 0;
    for (const name of certNames()) {
      const decoded = await decoder.decode(certDer(name));
      if (!decoded.ok) continue;
      const text = Bun.spawnSync([
        "openssl",
        "x509",
        "-in",
        certPath(name),
        "-noout",
        "-ext",
        "authorityInfoAccess",
      ]).stdout.toString();
      const caIssuers = [...text.matchAll(/CA Issuers - URI:(\S+)/g)].map((m) => m[1] ?? "");
      const ocsp = [...text.matchAll(/OCSP - URI:(\S+)/g)].map((m) => m[1] ?? "");
      if (caIssuers.length + ocsp.length > 0) withExtension++;
      expect({
        name,
        caIssuers: decoded.certificate.caIssuersUrls,
        ocsp: decoded.certificate.ocspUrls,
      }).toEqual({
        name,
        caIssuers,
        ocsp,
      });
    }
    expect(withExtension).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
