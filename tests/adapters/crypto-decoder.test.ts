/**
 * The certificate decoder against the openssl CLI: every field of every fixture (CONTRACT §4.2),
 * names OpenSSL's CLI cannot generate (spliced into a real certificate), and hostile bytes.
 */
import { describe, expect, test } from "bun:test";
import * as asn1js from "asn1js";
import fc from "fast-check";
import * as pkijs from "pkijs";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import type { CertificateData, SubjectAltName } from "../../src/domain/certificates/model.ts";
import { certDer, certNames, certPath, privateKeyPem, VALIDITY } from "../fixtures/fixtures.ts";
import {
  atv,
  bmp,
  CN,
  concat,
  editTbs,
  extension,
  ia5,
  name,
  O,
  OU,
  oid,
  printable,
  rdn,
  seq,
  set,
  t61,
  tlv,
  universal,
  utf8,
  withExtensions,
  withSubject,
} from "./der-builder.ts";
import {
  limiter,
  type OpensslFacts,
  ORACLE_TIMEOUT_MS,
  opensslFacts,
  opensslFactsForDer,
  opensslLoads,
} from "./openssl-oracle.ts";

const decoder = new DerCertificateDecoder();

async function decodeOk(der: Uint8Array): Promise<CertificateData> {
  const result = await decoder.decode(der);
  if (!result.ok) throw new Error(`decode failed: ${result.reason}`);
  return result.certificate;
}

/** The eight groups of an IPv6 address text (RFC 4291 §2.2 forms). */
function ipv6Groups(text: string): number[] {
  let head = text;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    head = text.slice(0, dotted.index);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const l = parse(left!);
  const r = right === undefined ? [] : parse(right);
  const zeros = right === undefined ? [] : new Array(8 - l.length - r.length - tail.length).fill(0);
  return [...l, ...zeros, ...r, ...tail];
}

/** How `openssl x509 -ext subjectAltName` (OpenSSL 3.0) prints one of our SAN entries. */
function opensslSan(san: SubjectAltName): string {
  const v = san.value;
  switch (san.type) {
    case "dns":
      return `DNS:${v}`;
    case "email":
      return `email:${v}`;
    case "uri":
      return `URI:${v}`;
    case "registeredId":
      return `Registered ID:${v}`;
    case "ip":
      if (v.startsWith("#")) return `IP Address:<invalid length=${(v.length - 1) / 2}>`;
      if (!v.includes(":")) return `IP Address:${v}`;
      return `IP Address:${ipv6Groups(v)
        .map((g) => g.toString(16).toUpperCase())
        .join(":")}`;
    case "directoryName":
      // OpenSSL prints directory names in its one-line format; the one fixture that has one:
      expect(v).toBe("UID=dir42+CN=Dir Name,O=Dir Org\\, Inc.,C=US");
      return "DirName:/C=US/O=Dir Org, Inc./CN=Dir Name+UID=dir42";
    case "otherName":
      expect(v).toBe(UPN_OTHER_NAME);
      return "othername: UPN::upn@example.com";
    case "x400Address":
      return "X400Name:<unsupported>";
    case "ediPartyName":
      return "EdiPartyName:<unsupported>";
    default:
      throw new Error(`unexpected SAN type ${san.type}`);
  }
}

/** otherName { 1.3.6.1.4.1.311.20.2.3 (UPN), [0] UTF8String "upn@example.com" }, whole GeneralName DER. */
const UPN_OTHER_NAME = "#A01F060A2B060104018237140203A0110C0F75706E406578616D706C652E636F6D";

function expectMatchesOpenssl(cert: CertificateData, facts: OpensslFacts, der: Uint8Array): void {
  expect(cert.subject).toBe(facts.subject);
  expect(cert.issuer).toBe(facts.issuer);
  expect(cert.serialNumber).toBe(facts.serial);
  expect(cert.fingerprintSha256).toBe(facts.fingerprint);
  expect(cert.notBefore.toISOString()).toBe(facts.notBefore.toISOString());
  expect(cert.notAfter.toISOString()).toBe(facts.notAfter.toISOString());
  expect(cert.signatureAlgorithm).toBe(facts.signatureAlgorithm);
  expect(cert.commonName).toBe(facts.commonNames.at(-1) ?? null);
  expect(cert.publicKeyKey).toBe(facts.publicKeyHex);

  const san = facts.extensions.get("X509v3 Subject Alternative Name");
  expect(cert.sans.map(opensslSan).join(", ")).toBe(san?.lines.join(" ") ?? "");

  const bc = facts.extensions.get("X509v3 Basic Constraints");
  expect(cert.basicConstraintsPresent).toBe(bc !== undefined);
  expect(cert.ca).toBe(bc?.lines[0]?.startsWith("CA:TRUE") ?? false);

  const ku = facts.extensions.get("X509v3 Key Usage");
  expect(cert.keyCertSign).toBe(ku === undefined ? null : ku.lines.join(" ").includes("Certificate Sign"));

  const ski = facts.extensions.get("X509v3 Subject Key Identifier");
  expect(cert.subjectKeyIdentifier).toBe(ski?.lines[0] ?? null);
  const aki = facts.extensions.get("X509v3 Authority Key Identifier");
  const akiKeyId = aki?.lines
    .map((l) => /^(?:keyid:)?([0-9A-F]{2}(?::[0-9A-F]{2})*)$/.exec(l)?.[1])
    .find(Boolean);
  expect(cert.authorityKeyIdentifier).toBe(akiKeyId ?? null);

  // Name keys: the exact DER of each Name, read independently with pkijs.
  const parsed = new pkijs.Certificate({ schema: asn1js.fromBER(der).result });
  expect(cert.subjectNameKey).toBe(Buffer.from(parsed.subject.toSchema().toBER()).toString("hex"));
  expect(cert.issuerNameKey).toBe(Buffer.from(parsed.issuer.toSchema().toBER()).toString("hex"));
  expect(cert.signatureAlgorithmOid).toBe(parsed.signatureAlgorithm.algorithmId);
  expect(cert.der).toEqual(new Uint8Array(der));
}

describe("every fixture decodes exactly as openssl prints it", () => {
  // Ask openssl about every fixture up front, a few at a time; each test awaits its own answer.
  const schedule = limiter(4);
  for (const fixture of certNames()) {
    const facts = schedule(() => opensslFacts(certPath(fixture)));
    facts.catch(() => {}); // reported by the test below
    test(
      fixture,
      async () => {
        const der = certDer(fixture);
        expectMatchesOpenssl(await decodeOk(der), await facts, der);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});

describe("fixture facts the tests elsewhere rely on", () => {
  test("SANs of every GeneralName type, in extension order", async () => {
    const cert = await decodeOk(certDer("leaf-sans"));
    expect(cert.sans).toEqual([
      { type: "dns", value: "*.example.com" },
      { type: "dns", value: "example.com" },
      { type: "ip", value: "192.0.2.10" },
      { type: "ip", value: "2001:db8::1" },
      { type: "email", value: "admin@example.com" },
      { type: "ip", value: "2001:db8::1:0:0:1" },
      { type: "ip", value: "::ffff:192.0.2.1" },
      { type: "ip", value: "::" },
      { type: "ip", value: "fe80::1:0:0:0" },
      { type: "uri", value: "https://example.com/path?q=1" },
      {
        type: "directoryName",
        value: "UID=dir42+CN=Dir Name,O=Dir Org\\, Inc.,C=US",
        // The Name's DER, which name constraints compare (CONTRACT §9.4): a SEQUENCE holding its values.
        nameKey: expect.stringMatching(
          new RegExp(`^30[0-9a-f]*${Buffer.from("Dir Org, Inc.").toString("hex")}[0-9a-f]*$`),
        ) as unknown as string,
      },
      { type: "registeredId", value: "1.3.6.1.4.1.32473.9" },
      { type: "otherName", value: UPN_OTHER_NAME },
      { type: "ip", value: "0.0.0.0" },
      { type: "dns", value: "xn--bcher-kva.example" },
    ]);
    const exotic = await decodeOk(certDer("leaf-san-exotic"));
    expect(exotic.sans).toEqual([
      { type: "x400Address", value: "#A300" },
      { type: "ediPartyName", value: "#A507A1050C03616263" },
      { type: "ip", value: "#0102030405" },
      { type: "ip", value: "#C0000200FFFFFF00" },
      { type: "registeredId", value: "1.2.3.4" },
      { type: "dns", value: "example.org" },
    ]);
  });

  test("names: multi-valued RDNs, UTF-8, string types, escaping, unknown OIDs, empty subject", async () => {
    const subject = async (n: string) => (await decodeOk(certDer(n))).subject;
    expect(await subject("name-multi-rdn")).toBe(
      "CN=multi.example.com+UID=42+OU=Platform,OU=b+CN=a,O=Network Tools Fixtures,C=US",
    );
    expect(await subject("name-utf8")).toBe(
      "CN=Jürgen Müller,OU=😀 Emoji,O=Ünïcödé GmbH,L=東京,ST=Zürich,C=DE",
    );
    expect(await subject("name-string-types")).toBe(
      "CN=Jürgen Müller,emailAddress=types@example.com,1.3.6.1.4.1.32473.1.1=#13057479706564," +
        "OU=😀 Emoji,O=Plain Printable,L=東京,ST=Zürich,C=DE",
    );
    expect(await subject("name-escapes")).toBe(
      "postalCode=\\##,description=\\ # both ',C=US,title=x/y,street=\\ ,ST=#,L=trail space\\ ," +
        'OU=\\ space lead,O=\\#hash lead,CN=a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h=i',
    );
    expect(await subject("name-control")).toBe("OU=nul-free,O=tab\\09z,CN=ctl\\01x\\7Fy");
    expect(await subject("name-unknown-oid")).toBe(
      "CN=oid.example.com,1.3.6.1.4.1.32473.1.2=#0C022378,1.3.6.1.4.1.32473.1.1=#0C0C637573746F6D2076616C7565,C=US",
    );
    const empty = await decodeOk(certDer("leaf-empty-subject"));
    expect(empty.subject).toBe("");
    expect(empty.commonName).toBeNull();
    expect((await decodeOk(certDer("name-multi-rdn"))).commonName).toBe("multi.example.com");
    expect((await decodeOk(certDer("name-escapes"))).commonName).toBe('a,b+c"d\\e<f>g;h=i');
  });

  test("serial numbers: high bit, negative, zero", async () => {
    expect((await decodeOk(certDer("leaf-serial-highbit"))).serialNumber).toBe(
      "80112233445566778899AABBCCDDEEFF00112233",
    );
    expect((await decodeOk(certDer("leaf-serial-negative"))).serialNumber).toBe("-1234");
    expect((await decodeOk(certDer("leaf-serial-zero"))).serialNumber).toBe("00");
  });

  test("fixed validity periods", async () => {
    const period = async (n: string) => {
      const c = await decodeOk(certDer(n));
      return { notBefore: c.notBefore.toISOString(), notAfter: c.notAfter.toISOString() };
    };
    const iso = (p: { notBefore: string; notAfter: string }) => ({
      notBefore: new Date(p.notBefore).toISOString(),
      notAfter: new Date(p.notAfter).toISOString(),
    });
    expect(await period("leaf-rsa")).toEqual(iso(VALIDITY.default));
    expect(await period("root-rsa")).toEqual(iso(VALIDITY.rootRsa));
    expect(await period("leaf-expired")).toEqual(iso(VALIDITY.expired));
    expect(await period("leaf-not-yet-valid")).toEqual(iso(VALIDITY.notYetValid));
  });

  test("issuer flags", async () => {
    const flags = async (n: string) => {
      const c = await decodeOk(certDer(n));
      return [c.basicConstraintsPresent, c.ca, c.keyCertSign];
    };
    expect(await flags("root-rsa")).toEqual([true, true, true]);
    expect(await flags("issuer-ca-false")).toEqual([true, false, true]);
    expect(await flags("issuer-no-bc")).toEqual([false, false, null]);
    expect(await flags("issuer-no-keycertsign")).toEqual([true, true, false]);
    expect(await flags("leaf-rsa")).toEqual([true, false, false]);
    const v1 = await decodeOk(certDer("leaf-v1"));
    expect([v1.basicConstraintsPresent, v1.ca, v1.keyCertSign, v1.sans, v1.subjectKeyIdentifier]).toEqual([
      false,
      false,
      null,
      [],
      null,
    ]);
    expect(v1.authorityKeyIdentifier).toBeNull();
  });

  test("key identifiers and keys of the relationship fixtures", async () => {
    const [leaf, ca, other] = await Promise.all(
      ["leaf-aki-mismatch", "skid-ca", "skid-ca-other"].map((n) => decodeOk(certDer(n))),
    );
    expect(leaf!.authorityKeyIdentifier).toBe(ca!.subjectKeyIdentifier);
    expect(other!.subjectKeyIdentifier).toBe("01:02:03:04:05:06:07:08:09:0A:0B:0C:0D:0E:0F:10:11:12:13:14");
    expect(other!.publicKeyKey).toBe(ca!.publicKeyKey);
    expect(other!.subjectNameKey).toBe(ca!.subjectNameKey);

    const [twinA, twinB, leafTwin] = await Promise.all(
      ["twin-ca-a", "twin-ca-b", "leaf-twin"].map((n) => decodeOk(certDer(n))),
    );
    expect(twinA!.subjectNameKey).toBe(twinB!.subjectNameKey);
    expect(twinA!.publicKeyKey).not.toBe(twinB!.publicKeyKey);
    expect(leafTwin!.issuerNameKey).toBe(twinA!.subjectNameKey);

    const [crossA, crossB] = await Promise.all(
      ["cross-int-a", "cross-int-b"].map((n) => decodeOk(certDer(n))),
    );
    expect(crossA!.subjectNameKey).toBe(crossB!.subjectNameKey);
    expect(crossA!.publicKeyKey).toBe(crossB!.publicKeyKey);
    expect(crossA!.fingerprintSha256).not.toBe(crossB!.fingerprintSha256);
    expect(crossA!.issuerNameKey).not.toBe(crossB!.issuerNameKey);
  });

  test("fingerprint format", async () => {
    const cert = await decodeOk(certDer("leaf-rsa"));
    expect(cert.fingerprintSha256).toMatch(/^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });
});

describe("names OpenSSL's CLI cannot write, spliced into a real certificate", () => {
  const base = () => certDer("leaf-rsa");
  const cases: [string, Uint8Array][] = [
    ["UniversalString", name(rdn(atv(CN, universal("Ab😀 é"))))],
    ["BMPString", name(rdn(atv(CN, bmp("é,A\u4e2dz"))))],
    ["lone space in a BMPString", name(rdn(atv(CN, bmp(" "))))],
    ["lone # and spaces", name(rdn(atv(CN, ia5("#"))), rdn(atv(OU, ia5("  "))), rdn(atv(O, ia5("# #"))))],
    ["BIT STRING value", name(rdn(atv(O, tlv(0x03, Uint8Array.of(0, 0xab)))))],
    [
      "Latin-1 octets in a PrintableString and a T61String",
      name(rdn(atv(CN, printable("caf\u00e9"))), rdn(atv(O, t61([0x41, 0xa0, 0xe9, 0xff])))),
    ],
    ["control characters and NUL in UTF8String", name(rdn(atv(CN, utf8("a\u0000b\u001fc\u007fd"))))],
    ["empty value", name(rdn(atv(CN, utf8(""))))],
    ["SEQUENCE value under a known type", name(rdn(atv(OU, seq(utf8("x")))))],
    ["empty RDN between two RDNs", name(rdn(atv(O, utf8("first"))), set(), rdn(atv(CN, utf8("last"))))],
    ["unknown OID with a BMPString", name(rdn(atv("1.3.6.1.4.1.32473.7", bmp("hi"))))],
    ["unsorted multi-valued RDN", name(rdn(atv(CN, utf8("c")), atv(O, utf8("o")), atv(OU, utf8("u"))))],
    ["spaces around non-ASCII", name(rdn(atv(CN, utf8(" é "))), rdn(atv(O, bmp(" é "))))],
    ["every escaped character", name(rdn(atv(CN, printable(',+"\\<>;#= '))), rdn(atv(O, utf8("#,"))))],
    ["OID with a 32-bit arc", name(rdn(atv("2.999.4294967295", utf8("big"))))],
  ];
  for (const [label, nameDer] of cases) {
    test(
      label,
      async () => {
        const der = withSubject(base(), nameDer);
        const [cert, facts] = await Promise.all([decodeOk(der), opensslFactsForDer(der)]);
        expect(cert.subject).toBe(facts.subject);
        expect(cert.issuer).toBe(facts.issuer);
      },
      ORACLE_TIMEOUT_MS,
    );
  }

  test(
    "a constructed (BER) UTF8String: OpenSSL reads BER, the decoder only DER",
    async () => {
      const der = withSubject(base(), name(rdn(atv(CN, tlv(0x2c, utf8("x"))))));
      expect(await opensslLoads(der)).toBe(true);
      expect((await decoder.decode(der)).ok).toBe(false);
    },
    ORACLE_TIMEOUT_MS,
  );

  test(
    "an OID arc over 32 bits: OpenSSL reads it, the decoder refuses it (bounded work)",
    async () => {
      const der = withSubject(base(), name(rdn(atv("2.999.4294967296", utf8("big")))));
      expect(await opensslLoads(der)).toBe(true);
      expect(await decoder.decode(der)).toEqual({ ok: false, reason: "malformed subject name" });
    },
    ORACLE_TIMEOUT_MS,
  );

  test("commonName is the last CN, as text", async () => {
    const der = withSubject(base(), name(rdn(atv(CN, bmp("first"))), rdn(atv(CN, universal("sec😀nd")))));
    expect((await decodeOk(der)).commonName).toBe("sec😀nd");
  });

  // OpenSSL converts every name string to UTF-8 when it loads a certificate and refuses the
  // certificate when that fails or the value type is not one it accepts: so does the decoder.
  const refused: [string, Uint8Array][] = [
    ["invalid UTF-8 in a UTF8String", name(rdn(atv(CN, tlv(0x0c, Uint8Array.of(0x61, 0xff, 0x62)))))],
    ["an overlong UTF-8 sequence", name(rdn(atv(CN, tlv(0x0c, Uint8Array.of(0xc0, 0xaf)))))],
    ["a surrogate pair in a BMPString", name(rdn(atv(CN, bmp("A😀"))))],
    ["a BMPString of odd length", name(rdn(atv(CN, tlv(0x1e, Uint8Array.of(0, 0x41, 0)))))],
    ["a UniversalString past U+10FFFF", name(rdn(atv(CN, tlv(0x1c, Uint8Array.of(0, 0x11, 0, 0)))))],
    ["a VideotexString", name(rdn(atv(O, tlv(0x15, Buffer.from("abc")))))],
    ["a VisibleString", name(rdn(atv(O, tlv(0x1a, Buffer.from("abc")))))],
    ["an OCTET STRING", name(rdn(atv(OU, tlv(0x04, Uint8Array.of(1, 2)))))],
    ["a context-specific value", name(rdn(atv(CN, tlv(0x80, Buffer.from("x")))))],
  ];
  for (const [label, nameDer] of refused) {
    test(
      `${label}: refused, as OpenSSL refuses it`,
      async () => {
        const der = withSubject(base(), nameDer);
        expect(await opensslLoads(der)).toBe(false);
        expect((await decoder.decode(der)).ok).toBe(false);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});

describe("extensions OpenSSL's CLI cannot write", () => {
  const base = () => certDer("leaf-rsa");
  const SAN = "2.5.29.17";
  const BC = "2.5.29.19";
  const KU = "2.5.29.15";

  test(
    "basicConstraints without cA, keyUsage with only keyCertSign, AKI with issuer and serial only",
    async () => {
      const der = withExtensions(
        base(),
        extension(BC, seq(), true),
        extension(KU, Uint8Array.of(0x03, 0x02, 0x02, 0x04), true),
        extension(
          "2.5.29.35",
          seq(tlv(0xa1, tlv(0xa4, name(rdn(atv(CN, utf8("x")))))), tlv(0x82, Uint8Array.of(5))),
        ),
      );
      const [cert, facts] = await Promise.all([decodeOk(der), opensslFactsForDer(der)]);
      expect([cert.basicConstraintsPresent, cert.ca, cert.keyCertSign, cert.authorityKeyIdentifier]).toEqual([
        true,
        false,
        true,
        null,
      ]);
      expect(facts.extensions.get("X509v3 Basic Constraints")?.lines).toEqual(["CA:FALSE"]);
      expect(facts.extensions.get("X509v3 Key Usage")?.lines).toEqual(["Certificate Sign"]);
    },
    ORACLE_TIMEOUT_MS,
  );

  test("an empty SAN list and an empty extension list (RFC 5280 says 1..MAX; OpenSSL loads them)", async () => {
    expect((await decodeOk(withExtensions(base(), extension(SAN, seq())))).sans).toEqual([]);
    const none = await decodeOk(withExtensions(base()));
    expect([none.sans, none.basicConstraintsPresent, none.keyCertSign]).toEqual([[], false, null]);
  });

  test("a keyUsage BIT STRING with no octets has no keyCertSign", async () => {
    const der = withExtensions(base(), extension(KU, Uint8Array.of(0x03, 0x01, 0x00)));
    expect((await decodeOk(der)).keyCertSign).toBe(false);
  });

  const malformed: [string, Uint8Array[]][] = [
    ["a SAN that is not a SEQUENCE", [extension(SAN, utf8("x"))]],
    ["a SAN with a universal-class entry", [extension(SAN, seq(utf8("x")))]],
    ["a SAN with tag [9]", [extension(SAN, seq(tlv(0x89, Buffer.from("x"))))]],
    ["a constructed dNSName", [extension(SAN, seq(tlv(0xa2, ia5("x"))))]],
    ["bytes after the SAN", [extension(SAN, concat(seq(tlv(0x82, Buffer.from("x"))), Uint8Array.of(0)))]],
    ["a bad registeredID", [extension(SAN, seq(tlv(0x88, Uint8Array.of(0x80, 0x01))))]],
    ["basicConstraints with a non-boolean", [extension(BC, seq(utf8("x")))]],
    ["keyUsage that is not a BIT STRING", [extension(KU, tlv(0x04, Uint8Array.of(1)))]],
    ["keyUsage with 8 unused bits", [extension(KU, Uint8Array.of(0x03, 0x02, 0x08, 0x86))]],
    ["keyUsage with unused bits and no octets", [extension(KU, Uint8Array.of(0x03, 0x01, 0x03))]],
    [
      "basicConstraints with a padded pathLen",
      [extension(BC, seq(Uint8Array.of(0x01, 0x01, 0xff, 0x02, 0x02, 0x00, 0x01)))],
    ],
    ["a duplicate extension", [extension(BC, seq()), extension(BC, seq())]],
    ["an extension value that is not an OCTET STRING", [seq(oid(BC), seq())]],
  ];
  for (const [label, exts] of malformed) {
    test(`${label} → not a certificate`, async () => {
      const result = await decoder.decode(withExtensions(base(), ...exts));
      expect(result.ok).toBe(false);
    });
  }
});

describe("bytes that are not exactly one certificate", () => {
  const leaf = () => certDer("leaf-rsa");
  const REASONS =
    /^(empty certificate data|not a DER-encoded X\.509 certificate|trailing bytes after the certificate|malformed [a-zA-Z ]+|unsupported certificate version|duplicate extension|unique identifiers need certificate version 2 or 3|extensions need certificate version 3|not a valid X\.509 certificate)$/;

  async function expectRejected(der: Uint8Array): Promise<string> {
    const result = await decoder.decode(der);
    expect(result.ok).toBe(false);
    if (result.ok) return "";
    expect(result.reason).toMatch(REASONS);
    return result.reason;
  }

  test("empty input, one byte, garbage text", async () => {
    await expectRejected(new Uint8Array());
    await expectRejected(Uint8Array.of(0x30));
    await expectRejected(new TextEncoder().encode("-----BEGIN CERTIFICATE-----"));
  });

  test("trailing bytes, two certificates, a truncated certificate", async () => {
    expect(await expectRejected(concat(leaf(), Uint8Array.of(0)))).toBe(
      "trailing bytes after the certificate",
    );
    expect(await expectRejected(concat(leaf(), certDer("root-rsa")))).toBe(
      "trailing bytes after the certificate",
    );
    for (const cut of [1, 2, 10, 100, 500]) await expectRejected(leaf().subarray(0, leaf().length - cut));
  });

  test("BER forms DER forbids: indefinite length, non-minimal length", async () => {
    const der = leaf();
    const body = der.subarray(4); // 30 82 LL LL
    await expectRejected(concat(Uint8Array.of(0x30, 0x80), body, Uint8Array.of(0, 0)));
    await expectRejected(concat(Uint8Array.of(0x30, 0x83, 0x00), der.subarray(2)));
  });

  test("a private key and a bare SubjectPublicKeyInfo", async () => {
    const keyDer = new Uint8Array(
      Buffer.from(privateKeyPem("pkcs8").replace(/-----[^-]+-----|\s/g, ""), "base64"),
    );
    await expectRejected(keyDer);
    const cert = await decodeOk(leaf());
    await expectRejected(Buffer.from(cert.publicKeyKey, "hex"));
  });

  test("deep nesting does not exhaust the stack", async () => {
    const depth = 20000;
    const deep = new Uint8Array(depth * 2);
    for (let i = 0; i < depth; i++) deep.set([0x30, 0x80], i * 2);
    await expectRejected(deep);
    let nested: Uint8Array = Uint8Array.of(0x05, 0x00);
    for (let i = 0; i < 3000; i++) nested = seq(nested);
    await expectRejected(nested);
  });

  test("structural edits: version 4, extensions in v1, bad serial padding, bad time, bad name", async () => {
    await expectRejected(editTbs(leaf(), (t) => [tlv(0xa0, tlv(0x02, Uint8Array.of(3))), ...t.slice(1)]));
    await expectRejected(editTbs(leaf(), (t) => t.slice(1)));
    await expectRejected(editTbs(leaf(), (t) => [t[0]!, tlv(0x02, Uint8Array.of(0, 1)), ...t.slice(2)]));
    await expectRejected(
      editTbs(leaf(), (t) => [t[0]!, tlv(0x02, Uint8Array.of(0xff, 0x80)), ...t.slice(2)]),
    );
    await expectRejected(editTbs(leaf(), (t) => [t[0]!, tlv(0x02, new Uint8Array()), ...t.slice(2)]));
    const badTime = seq(tlv(0x17, Buffer.from("201301000000Z")), tlv(0x17, Buffer.from("491231235959Z")));
    await expectRejected(editTbs(leaf(), (t) => [...t.slice(0, 4), badTime, ...t.slice(5)]));
    await expectRejected(editTbs(leaf(), (t) => [...t.slice(0, 5), seq(rdn(seq(oid(CN)))), ...t.slice(6)]));
    await expectRejected(editTbs(leaf(), (t) => [...t, tlv(0x05, new Uint8Array())]));
  });

  test("never throws and never echoes content, whatever the bytes (random and mutated certificates)", async () => {
    const original = leaf();
    const secret = "www.example.com";
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 3000 }),
          fc
            .array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 })
            .map((edits) => {
              const copy = original.slice();
              for (const [at, value] of edits) copy[at] = value;
              return copy;
            }),
          fc.nat(original.length).map((n) => original.slice(0, n)),
        ),
        async (bytes) => {
          const result = await decoder.decode(bytes);
          if (!result.ok) {
            expect(result.reason).toMatch(REASONS);
            expect(result.reason).not.toContain(secret);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
