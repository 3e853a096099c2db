/**
 * The PKCS#10 reader (src/adapters/crypto/csr-decoder.ts) against openssl, the oracle (CONTRACT
 * §8.2, §4.2): for every request of tests/fixtures/generate-keys.sh, the subject, the requested
 * names, the key's size and identity, the signature algorithm and the self-signature's outcome are
 * what `openssl req -noout -text -verify` (and `-subject`, `-pubkey`) says. Then strictness:
 * whatever `openssl req -inform DER` refuses is refused, and the few forms it loads that the reader
 * refuses on purpose are pinned here (docs/certificates-der.md, "Certification requests").
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as asn1js from "asn1js";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { readCertificationRequest } from "../../src/domain/certificates/csr.ts";
import type { CertificationRequestData } from "../../src/domain/certificates/request-model.ts";
import { keyFixture, keyFixturePath } from "../fixtures/key-fixtures.ts";
import { concat, extension, ia5, oid, seq, set, tlv } from "./der-builder.ts";

const decoder = new DerCertificateDecoder();
const verifier = new NodeSignatureVerifier();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  bytes: Uint8Array;
}

function openssl(args: string[], stdin?: Uint8Array): Ran {
  const run = Bun.spawnSync(["openssl", ...args], {
    stdin: stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return {
    code: run.exitCode,
    stdout: run.stdout.toString(),
    stderr: run.stderr.toString(),
    bytes: new Uint8Array(run.stdout),
  };
}

/** DER of a PEM request (a test helper, not the API's scanner). */
function derOf(pem: string): Uint8Array<ArrayBuffer> {
  const body = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]*?)-----END/.exec(pem)?.[1] ?? "";
  return new Uint8Array(Buffer.from(body.replace(/\s+/g, ""), "base64"));
}

async function decoded(der: Uint8Array): Promise<CertificationRequestData> {
  const result = await decoder.decodeRequest(der);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.request;
}

/** What openssl says about a request file. */
function opensslFacts(path: string) {
  const text = openssl(["req", "-in", path, "-noout", "-text", "-verify"]);
  const subject = openssl(["req", "-in", path, "-noout", "-subject", "-nameopt", "RFC2253,-esc_msb"]);
  const pubkey = openssl(["req", "-in", path, "-noout", "-pubkey"]);
  const spki = openssl(["pkey", "-pubin", "-outform", "DER"], new TextEncoder().encode(pubkey.stdout));

  const sanLine = /X509v3 Subject Alternative Name: *\n\s*(.*)\n/.exec(text.stdout)?.[1] ?? "";
  return {
    verified: /verify OK/.test(text.stderr),
    failed: /verify failure/.test(text.stderr),
    subject: subject.stdout.replace(/^subject=/, "").trim(),
    bits: Number(/Public-Key: \((\d+) bit\)/.exec(text.stdout)?.[1] ?? Number.NaN),
    signatureAlgorithm: /^ {4}Signature Algorithm: (\S+)/m.exec(text.stdout)?.[1] ?? "",
    sans: sanLine === "" ? [] : sanLine.split(", "),
    publicKeySha256: createHash("sha256").update(spki.bytes).digest("hex"),
  };
}

/** openssl's SAN text for our `dns`/`ip` values (`IP Address:2001:DB8:0:0:0:0:0:10`). */
function opensslSan(san: { type: string; value: string }): string | null {
  if (san.type === "dns") return `DNS:${san.value}`;
  if (san.type !== "ip") return null;
  if (!san.value.includes(":")) return `IP Address:${san.value}`;
  const [head = "", tail = ""] = san.value.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = san.value.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `IP Address:${groups.map((g) => g.toUpperCase().replace(/^0+(?=.)/, "")).join(":")}`;
}

// keyFixturePath runs the generator first.
const REQUESTS = readdirSync(keyFixturePath("requests"))
  .filter((name) => name.endsWith(".pem"))
  .sort();

describe("every fixture request reads as openssl reads it", () => {
  test("there are requests of every key type and signature", () => {
    expect(REQUESTS.length).toBeGreaterThanOrEqual(15);
  });

  test.each(REQUESTS)("%s", async (name) => {
    const path = keyFixturePath(`requests/${name}`);
    const request = await decoded(derOf(keyFixture(`requests/${name}`)));
    const facts = opensslFacts(path);
    expect(request.subject).toBe(facts.subject);
    expect(request.signatureAlgorithm).toBe(facts.signatureAlgorithm);
    expect(request.publicKeySha256).toBe(facts.publicKeySha256);
    if (request.keyType === "RSA" || request.keyType === "EC" || request.keyType === "DSA") {
      expect(request.keyBits).toBe(facts.bits);
    }
    // openssl prints every name; ours are the certificate reader's, compared on dns and ip.
    const ours = request.sans.map(opensslSan).filter((san) => san !== null);
    expect(ours).toEqual(facts.sans.filter((san) => san.startsWith("DNS:") || san.startsWith("IP Address:")));
    const check = await verifier.verify(asSigned(request), asSigned(request));
    if (facts.failed) expect(check.outcome).toBe("failed");
    else {
      expect(facts.verified).toBe(true);
      // DSA and Ed448 are not implemented by the verifier (CONTRACT §4.2): `unsupported`, never `failed`.
      expect(check.outcome).toBe(["DSA", "Ed448"].includes(request.keyType) ? "unsupported" : "verified");
    }
  });

  test("the fields the rules read: SHA-1 signatures, names in order, the most specific CN", async () => {
    const read = async (name: string) => decoded(derOf(keyFixture(`requests/${name}.pem`)));
    expect((await read("ecdsa-sha1")).signatureUsesSha1).toBe(true);
    expect((await read("rsa-pss-sha1")).signatureUsesSha1).toBe(true);
    expect((await read("rsa-1024-nosan-sha1")).signatureUsesSha1).toBe(true);
    expect((await read("rsa-pss")).signatureUsesSha1).toBe(false);
    expect((await read("p256")).signatureUsesSha1).toBe(false);
    const p256 = await read("p256");
    expect(p256.sans).toEqual([
      { type: "dns", value: "www.example.com" },
      { type: "ip", value: "192.0.2.10" },
      { type: "email", value: "admin@example.com" },
      { type: "dns", value: "example.com" },
      { type: "ip", value: "2001:db8::10" },
      { type: "uri", value: "https://example.com/" },
    ]);
    expect(p256.commonName).toBe("www.example.com");
    expect(p256.keyCurve).toBe("P-256");
    expect((await read("empty-subject")).subject).toBe("");
    expect((await read("empty-subject")).commonName).toBeNull();
    expect((await read("rsa-1024-nosan-sha1")).sans).toEqual([]);
    // The tampered request still reads: only its signature is wrong.
    expect((await read("tampered")).subject).toContain("CN=rsa.exbmple.com");
  });
});

/** A request handed to the verifier as the signature fields it reads (as csr.ts does). */
function asSigned(request: CertificationRequestData) {
  return { ...request, signatureAlgorithmsMatch: true } as never;
}

// -------------------------------------------------------------------------------------------
// Strictness: hand-made requests, spliced from a real one.

const BASE = derOf(keyFixture("requests/p256.pem"));

function partsOf(der: Uint8Array): { info: Uint8Array[]; alg: Uint8Array; sig: Uint8Array } {
  const parsed = asn1js.fromBER(der);
  const top = (parsed.result as asn1js.Sequence).valueBlock.value;
  const info = (top[0] as asn1js.Sequence).valueBlock.value.map(
    (b) => new Uint8Array(b.valueBeforeDecodeView),
  );
  return {
    info,
    alg: new Uint8Array(top[1]!.valueBeforeDecodeView),
    sig: new Uint8Array(top[2]!.valueBeforeDecodeView),
  };
}

/** BASE with its info's children edited. */
function withInfo(edit: (info: Uint8Array[]) => Uint8Array[]): Uint8Array<ArrayBuffer> {
  const { info, alg, sig } = partsOf(BASE);
  return seq(seq(...edit(info)), alg, sig);
}

const EXTENSION_REQUEST = "1.2.840.113549.1.9.14";
const sanOf = (...names: Uint8Array[]) => extension("2.5.29.17", seq(...names));
const extensionRequest = (...values: Uint8Array[]) => seq(oid(EXTENSION_REQUEST), set(...values));
const attributes = (...list: Uint8Array[]) => tlv(0xa0, ...list);

/** Whether openssl 3 loads these bytes as a request. */
function opensslLoads(der: Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), "csr-strict-"));
  try {
    const file = join(dir, "request.der");
    writeFileSync(file, der);
    return openssl(["req", "-inform", "DER", "-in", file, "-noout"]).code === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dnsName = (name: string) => tlv(0x82, new TextEncoder().encode(name));

/** Forms both openssl and the reader refuse. */
const BOTH_REFUSE: [string, () => Uint8Array][] = [
  ["a truncated request", () => BASE.subarray(0, BASE.length - 3)],
  ["an empty input", () => new Uint8Array()],
  [
    "a signature BIT STRING with 8 unused bits",
    () => {
      const { info, alg } = partsOf(BASE);
      return seq(seq(...info), alg, tlv(0x03, Uint8Array.of(8, 0)));
    },
  ],
  [
    "a NULL with content as an attribute value",
    () =>
      withInfo((info) => [
        ...info.slice(0, 3),
        attributes(seq(oid("1.2.840.113549.1.9.7"), set(tlv(0x05, Uint8Array.of(1))))),
      ]),
  ],
  [
    "an attribute without values SET",
    () => withInfo((info) => [...info.slice(0, 3), attributes(seq(oid("1.2.840.113549.1.9.7")))]),
  ],
  ["a fifth element in the request info", () => withInfo((info) => [...info, tlv(0x02, Uint8Array.of(0))])],
  [
    "a malformed OID as the signature algorithm",
    () => {
      const { info, sig } = partsOf(BASE);
      return seq(seq(...info), seq(tlv(0x06, Uint8Array.of(0x2a, 0x86))), sig);
    },
  ],
];

/** Forms openssl 3.0 loads that the reader refuses on purpose (docs/certificates-der.md). */
const READER_REFUSES: [string, () => Uint8Array][] = [
  [
    "trailing bytes after the request (openssl reads the first value only)",
    () => concat(BASE, Uint8Array.of(0)),
  ],
  ["a primitive [0] for the attributes", () => withInfo((info) => [...info.slice(0, 3), tlv(0x80)])],
  [
    "version 1 (RFC 2986: it shall be 0)",
    () => withInfo(([, ...rest]) => [tlv(0x02, Uint8Array.of(1)), ...rest]),
  ],
  [
    "two extensionRequest attributes",
    () =>
      withInfo((info) => [
        ...info.slice(0, 3),
        attributes(
          extensionRequest(seq(sanOf(dnsName("a.example")))),
          extensionRequest(seq(sanOf(dnsName("b.example")))),
        ),
      ]),
  ],
  [
    "an extensionRequest with two values",
    () =>
      withInfo((info) => [
        ...info.slice(0, 3),
        attributes(extensionRequest(seq(sanOf(dnsName("a.example"))), seq(sanOf(dnsName("b.example"))))),
      ]),
  ],
  [
    "a subjectAltName twice in the extensionRequest",
    () =>
      withInfo((info) => [
        ...info.slice(0, 3),
        attributes(extensionRequest(seq(sanOf(dnsName("a.example")), sanOf(dnsName("b.example"))))),
      ]),
  ],
  [
    "a subjectAltName that is not a SEQUENCE of names",
    () =>
      withInfo((info) => [
        ...info.slice(0, 3),
        attributes(extensionRequest(seq(extension("2.5.29.17", ia5("www.example.com"))))),
      ]),
  ],
];

describe("strict DER: a request is refused where openssl refuses it, and in a few pinned places more", () => {
  test.each(BOTH_REFUSE)("both refuse %s", async (_label, make) => {
    const der = make();
    expect(opensslLoads(der)).toBe(false);
    const result = await decoder.decodeRequest(der);
    expect(result.ok).toBe(false);
  });

  test.each(READER_REFUSES)("openssl loads, the reader refuses: %s", async (_label, make) => {
    const der = make();
    expect(opensslLoads(der)).toBe(true);
    expect((await decoder.decodeRequest(der)).ok).toBe(false);
  });

  test("both read a request without the attributes [0] (older tools) and one with unrelated attributes", async () => {
    const bare = withInfo((info) => info.slice(0, 3));
    expect(opensslLoads(bare)).toBe(true);
    expect((await decoded(bare)).sans).toEqual([]);
    const challenge = withInfo((info) => [
      ...info.slice(0, 3),
      attributes(
        seq(oid("1.2.840.113549.1.9.7"), set(tlv(0x0c, new TextEncoder().encode("password")))),
        extensionRequest(seq(sanOf(dnsName("only.example")))),
      ),
    ]);
    expect(opensslLoads(challenge)).toBe(true);
    expect((await decoded(challenge)).sans).toEqual([{ type: "dns", value: "only.example" }]);
  });

  test("a refusal's reason quotes nothing from the input", async () => {
    for (const [, make] of [...BOTH_REFUSE, ...READER_REFUSES]) {
      const result = await decoder.decodeRequest(make());
      if (result.ok) throw new Error("expected a refusal");
      expect(result.reason).toMatch(/^[a-zA-Z# ,0-9-]+$/);
      expect(result.reason).not.toContain("example");
    }
  });

  test("a certificate is not a request, and a request is not a certificate", async () => {
    const certificate = keyFixture("certs/p256.pem");
    const der = new Uint8Array(Buffer.from(certificate.replace(/-----[^-]+-----|\s+/g, ""), "base64"));
    expect((await decoder.decodeRequest(der)).ok).toBe(false);
    expect((await decoder.decode(BASE)).ok).toBe(false);
  });
});

describe("readCertificationRequest with the real decoder", () => {
  test("a block the decoder refuses is an issue at that block, the reason not echoed", async () => {
    const bad = concat(BASE, Uint8Array.of(0));
    const pem = `\n-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(bad).toString("base64")}\n-----END CERTIFICATE REQUEST-----\n`;
    const read = await readCertificationRequest(pem, decoder);
    expect(read.request).toBeNull();
    expect(read.issues).toEqual([
      {
        message: "this block is not one DER-encoded PKCS#10 certificate request",
        path: ["pem"],
        location: { line: 2, offset: 1, end: pem.length - 1 },
      },
    ]);
  });
});
