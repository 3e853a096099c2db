/**
 * Strict DER in every field (CONTRACT §4.2): what OpenSSL 3's `d2i_X509` rejects, the decoder
 * rejects, read or not; what it accepts in fields the decoder only walks, the decoder accepts;
 * and the few classes where the decoder is stricter on purpose (docs/certificates-der.md) are
 * pinned against `openssl x509 -inform der -noout` so a change in either side shows.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { decodeOid, MAX_OID_ARCS } from "../../src/domain/der.ts";
import { certDer } from "../fixtures/fixtures.ts";
import {
  atv,
  CN,
  concat,
  editTbs,
  extension,
  name,
  oid,
  rdn,
  seq,
  tlv,
  utf8,
  withExtensions,
  withSubject,
} from "./der-builder.ts";
import { limiter, ORACLE_TIMEOUT_MS, opensslFactsForDer, opensslLoads } from "./openssl-oracle.ts";

const decoder = new DerCertificateDecoder();
const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/ /g, ""), "hex"));
const leaf = () => certDer("leaf-rsa");
const SHA256_RSA = "1.2.840.113549.1.1.11";
const RSA = "1.2.840.113549.1.1.1";
const BC = "2.5.29.19";
const KU = "2.5.29.15";

/** The TBS children of leaf-rsa: 0 version, 1 serial, 2 signature, 3 issuer, 4 validity, 5 subject, 6 SPKI, 7 extensions. */
const tbsAt = (index: number, value: Uint8Array) =>
  editTbs(leaf(), (t) => t.map((part, k) => (k === index ? value : part)));
const tbsInsert = (index: number, value: Uint8Array) =>
  editTbs(leaf(), (t) => [...t.slice(0, index), value, ...t.slice(index)]);

/** The three top-level parts of a certificate (lengths in the long form, as every fixture has). */
function topParts(der: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let p = 4;
  while (p < der.length) {
    const start = p;
    let len = der[p + 1]!;
    p += 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      len = 0;
      for (let k = 0; k < n; k++) len = len * 256 + der[p++]!;
    }
    p += len;
    parts.push(der.slice(start, p));
  }
  return parts;
}
const withTop = (index: number, value: Uint8Array) =>
  seq(...topParts(leaf()).map((part, k) => (k === index ? value : part)));

const innerParams = (params: string) => tbsAt(2, seq(oid(SHA256_RSA), hex(params)));
const outerParams = (params: string) => withTop(1, seq(oid(SHA256_RSA), hex(params)));
const keyAlgorithmParams = (params: string) =>
  tbsAt(6, seq(seq(oid(RSA), hex(params)), hex("03 03 00 ff ff")));
const subjectValue = (value: string) => withSubject(leaf(), name(rdn(atv(CN, hex(value)))));

/** Asks openssl about several certificates at once; each test awaits its own answer. */
const schedule = limiter(4);
function both(der: Uint8Array): Promise<[boolean, boolean]> {
  const openssl = schedule(() => opensslLoads(der));
  openssl.catch(() => {});
  return Promise.all([openssl, decoder.decode(der).then((r) => r.ok)]);
}

/** One test per case: OpenSSL's and our accept/reject verdicts are the expected ones. */
function verdicts(cases: [string, Uint8Array][], expected: { openssl: boolean; ours: boolean }): void {
  for (const [label, der] of cases) {
    const answers = both(der);
    test(
      label,
      async () => {
        const [openssl, ours] = await answers;
        expect({ openssl, ours }).toEqual(expected);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
}

describe("what d2i_X509 rejects is rejected, in every field", () => {
  const cases: [string, Uint8Array][] = [
    ["signature parameters: a NULL with content", innerParams("05 01 00")],
    ["outer signatureAlgorithm parameters: a NULL with content", outerParams("05 01 00")],
    ["public key algorithm parameters: a NULL with content", keyAlgorithmParams("05 01 00")],
    ["parameters: a constructed NULL", innerParams("25 00")],
    ["parameters: an OID with a padded sub-identifier", innerParams("06 02 80 01")],
    ["parameters: an OID with a truncated last arc", innerParams("06 01 81")],
    ["parameters: an empty OID", innerParams("06 00")],
    ["parameters: a BOOLEAN of two octets", innerParams("01 02 ff ff")],
    ["parameters: an empty BOOLEAN", innerParams("01 00")],
    ["parameters: a padded INTEGER", innerParams("02 02 00 01")],
    ["parameters: an empty INTEGER", innerParams("02 00")],
    ["parameters: a padded ENUMERATED", innerParams("0a 02 ff 80")],
    ["parameters: a BIT STRING with 8 unused bits", innerParams("03 02 08 00")],
    ["parameters: an empty BIT STRING", innerParams("03 00")],
    ["parameters: a BMPString of odd length", innerParams("1e 01 41")],
    ["parameters: a UniversalString of 3 octets", innerParams("1c 03 00 00 41")],
    ["parameters: a primitive SEQUENCE", innerParams("10 00")],
    ["parameters: end-of-contents", innerParams("00 00")],
    ["parameters: a constructed OBJECT IDENTIFIER", innerParams("26 03 06 01 2a")],
    ["signatureValue: a BIT STRING with 8 unused bits", withTop(2, hex("03 03 08 00 00"))],
    ["signatureValue: an empty BIT STRING", withTop(2, hex("03 00"))],
    [
      "subjectPublicKey: a BIT STRING with 8 unused bits",
      tbsAt(6, seq(seq(oid(RSA), hex("05 00")), hex("03 02 08 00"))),
    ],
    ["subject: a BIT STRING value with 8 unused bits", subjectValue("03 02 08 00")],
    [
      "subject: an attribute type with a padded OID",
      withSubject(leaf(), name(rdn(seq(hex("06 02 80 01"), utf8("x"))))),
    ],
    ["subject: a NULL value", subjectValue("05 00")],
    ["issuerUniqueID with 8 unused bits", tbsInsert(7, hex("81 02 08 ff"))],
    ["issuerUniqueID with no octets at all", tbsInsert(7, hex("81 00"))],
    ["subjectUniqueID before issuerUniqueID", tbsInsert(7, concat(hex("82 02 00 ff"), hex("81 02 00 ff")))],
    ["version: a padded INTEGER", tbsAt(0, tlv(0xa0, hex("02 02 00 02")))],
    ["serialNumber: a padded INTEGER", tbsAt(1, hex("02 02 00 01"))],
    [
      "validity: a PrintableString time",
      tbsAt(4, seq(tlv(0x13, Buffer.from("200101000000Z")), tlv(0x17, Buffer.from("491231235959Z")))),
    ],
    ["extension: a padded extnID", withExtensions(leaf(), seq(hex("06 02 80 01"), tlv(0x04, hex("30 00"))))],
    [
      "extension: a critical flag of two octets",
      withExtensions(leaf(), seq(oid(BC), hex("01 02 ff ff"), tlv(0x04, hex("30 00")))),
    ],
    [
      "extension: an INTEGER critical flag",
      withExtensions(leaf(), seq(oid(BC), hex("02 01 01"), tlv(0x04, hex("30 00")))),
    ],
    ["extension: no extnValue", withExtensions(leaf(), seq(oid(BC), hex("01 01 ff")))],
    ["extensions: [3] holding two SEQUENCEs", tbsAt(7, tlv(0xa3, seq(extension(BC, seq())), seq()))],
  ];
  verdicts(cases, { openssl: false, ours: false });
});

describe("what d2i_X509 accepts in a field the decoder only walks is accepted", () => {
  const cases: [string, Uint8Array][] = [
    ["parameters: NULL", innerParams("05 00")],
    ["parameters: absent", withTop(1, seq(oid(SHA256_RSA)))],
    ["parameters: an OID", innerParams("06 03 2a 03 04")],
    ["parameters: a BOOLEAN 01", innerParams("01 01 01")],
    ["parameters: an INTEGER", innerParams("02 01 05")],
    ["parameters: a SEQUENCE whose content is not DER (kept as bytes)", innerParams("30 02 ff ff")],
    ["parameters: a SET whose content is not DER", innerParams("31 01 ff")],
    ["parameters: context-specific, primitive and constructed", innerParams("80 01 ff")],
    ["parameters: a BIT STRING whose padding bits are set", innerParams("03 02 07 ff")],
    ["parameters: a UTF8String that is not UTF-8", innerParams("0c 01 ff")],
    ["parameters: a PrintableString with a forbidden character", innerParams("13 01 2a")],
    ["parameters: a REAL", innerParams("09 01 00")],
    ["parameters: a universal tag in the high-tag form", innerParams("1f 20 00")],
    [
      "public key: a key OpenSSL cannot decode",
      tbsAt(6, seq(seq(oid(RSA), hex("05 00")), hex("03 03 00 ff ff"))),
    ],
    ["signatureValue: padding bits set", withTop(2, hex("03 02 07 ff"))],
    ["issuerUniqueID in a v3 certificate", tbsInsert(7, hex("81 02 00 ff"))],
    [
      "extension: critical written as 01",
      withExtensions(leaf(), seq(oid(BC), hex("01 01 01"), tlv(0x04, hex("30 00")))),
    ],
    [
      "extension: critical FALSE written out",
      withExtensions(leaf(), seq(oid(BC), hex("01 01 00"), tlv(0x04, hex("30 00")))),
    ],
    [
      "extension the decoder does not read, with a value that is not DER",
      withExtensions(leaf(), extension("2.5.29.32", hex("ff ff"))),
    ],
    ["subject: a SEQUENCE value that is not DER", subjectValue("30 02 ff ff")],
  ];
  verdicts(cases, { openssl: true, ours: true });
});

/**
 * The deliberate differences (docs/certificates-der.md): OpenSSL loads these, the decoder does
 * not. The fuzz test (tests/hardening/der-differential.test.ts) allows exactly these classes.
 */
describe("stricter than d2i_X509 on purpose", () => {
  const validity = (a: string) => seq(tlv(0x17, Buffer.from(a)), tlv(0x17, Buffer.from("491231235959Z")));
  const cases: [string, Uint8Array][] = [
    ["trailing bytes after the certificate", concat(leaf(), hex("00"))],
    ["BER: a non-minimal length", concat(hex("30 83 00"), leaf().subarray(2))],
    [
      "BER: an indefinite length",
      tbsAt(4, concat(hex("30 80"), validity("200101000000Z").subarray(2), hex("00 00"))),
    ],
    [
      "BER: a constructed OCTET STRING extnValue",
      withExtensions(leaf(), seq(oid(BC), tlv(0x24, tlv(0x04, hex("30 00"))))),
    ],
    ["BER: a constructed string as parameters", innerParams("24 03 04 01 41")],
    ["BER: a constructed issuerUniqueID", tbsInsert(7, hex("a1 04 03 02 00 ff"))],
    ["BER: a high tag number that fits the low form", innerParams("1f 1e 00")],
    ["an empty BIT STRING that declares unused bits", withTop(2, hex("03 01 03"))],
    ["end-of-contents with content as parameters", innerParams("00 01 00")],
    ["an OID arc over 32 bits", innerParams("06 06 2a 90 80 80 80 00")],
    ["version 4", tbsAt(0, tlv(0xa0, hex("02 01 03")))],
    ["extensions in a version 1 certificate", editTbs(leaf(), (t) => t.slice(1))],
    ["a time that is not YYMMDDHHMMSSZ", tbsAt(4, validity("2001010000Z"))],
    ["an impossible date", tbsAt(4, validity("200230000000Z"))],
    ["a keyUsage that is not a BIT STRING", withExtensions(leaf(), extension(KU, hex("04 01 00")))],
    ["a basicConstraints with trailing bytes", withExtensions(leaf(), extension(BC, hex("30 00 00")))],
    [
      "a subjectAltName with a constructed dNSName",
      withExtensions(leaf(), extension("2.5.29.17", seq(hex("a2 03 16 01 41")))),
    ],
    ["a duplicated extension", withExtensions(leaf(), extension(BC, seq()), extension(BC, seq()))],
  ];
  verdicts(cases, { openssl: true, ours: false });
});

describe("keyUsage: padding bits never count", () => {
  // [keyUsage BIT STRING, keyCertSign]
  const cases: [string, boolean][] = [
    ["03 02 07 86", false], // digitalSignature; keyCertSign and cRLSign sit in the 7 unused bits
    ["03 02 03 86", false], // keyCertSign (mask 0x04) is one of the 3 unused bits
    ["03 02 02 86", true], // 2 unused bits: keyCertSign counts
    ["03 02 01 04", true],
    ["03 03 07 86 80", true], // the unused bits are in the last octet, not the first
    ["03 01 00", false],
  ];
  for (const [bits, keyCertSign] of cases) {
    test(
      `${bits} → keyCertSign ${keyCertSign}, as openssl prints it`,
      async () => {
        const der = withExtensions(leaf(), extension(KU, hex(bits), true));
        const [result, facts] = await Promise.all([decoder.decode(der), opensslFactsForDer(der)]);
        if (!result.ok) throw new Error(result.reason);
        expect(result.certificate.keyCertSign).toBe(keyCertSign);
        const printed = facts.extensions.get("X509v3 Key Usage")?.lines.join(" ") ?? "";
        expect(printed.includes("Certificate Sign")).toBe(keyCertSign);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});

describe("OBJECT IDENTIFIER bounds", () => {
  const content = (dotted: string) => {
    const der = oid(dotted);
    return der.subarray(der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2);
  };
  const read = (bytes: Uint8Array) => decodeOid(bytes, 0, bytes.length);

  test("arcs up to 32 bits are read exactly, one more bit is refused", () => {
    expect(read(content("1.2.4294967295"))).toBe("1.2.4294967295");
    expect(read(content("2.4294967295"))).toBe("2.4294967295");
    expect(read(content("1.2.4294967296"))).toBeNull();
    expect(read(content("2.4294967296"))).toBeNull();
    expect(read(content("0.39.1"))).toBe("0.39.1");
    expect(read(content("1.0.0"))).toBe("1.0.0");
    expect(read(content("2.999.3"))).toBe("2.999.3");
  });

  test(`${MAX_OID_ARCS} arcs are read, ${MAX_OID_ARCS + 1} are refused`, () => {
    const arcs = (n: number) => ["1", "2", ...Array.from({ length: n - 2 }, (_, k) => String(k))].join(".");
    expect(read(content(arcs(MAX_OID_ARCS)))).toBe(arcs(MAX_OID_ARCS));
    expect(read(content(arcs(MAX_OID_ARCS + 1)))).toBeNull();
  });

  test("malformed encodings", () => {
    expect(read(new Uint8Array())).toBeNull();
    expect(read(hex("2a 80 01"))).toBeNull(); // a padded sub-identifier
    expect(read(hex("2a 81"))).toBeNull(); // a truncated last sub-identifier
    expect(read(hex("80 2a"))).toBeNull();
    expect(read(hex("2a 8f ff ff ff 7f"))).toBe("1.2.4294967295");
    expect(read(hex("2a 80 8f ff ff ff 7f"))).toBeNull();
    expect(read(hex("2a 90 80 80 80 00"))).toBeNull(); // 2^32
  });

  test("a 47 KB OID (an OID bomb) is refused without being read to the end", () => {
    const bomb = new Uint8Array(47 * 1024).fill(0x81);
    bomb[bomb.length - 1] = 0x01;
    expect(read(bomb)).toBeNull();
    // A bomb made of many small arcs is refused as well.
    expect(read(new Uint8Array(47 * 1024).fill(0x01))).toBeNull();
  });
});

/**
 * Issue 16: a Name attribute value of a constructed universal type OpenSSL accepts there
 * (ObjectDescriptor 7, EXTERNAL 8, REAL 9, EMBEDDED PDV 11, RELATIVE-OID 13, TIME 14, tag 15,
 * CHARACTER STRING 29) is gathered by OpenSSL's `asn1_collect`, which refuses content that is not
 * a series of TLVs, an end-of-contents, or more than five nested levels. The decoder accepted
 * any content; now it refuses exactly what openssl refuses.
 */
describe("a constructed universal value in a Name: refused where openssl refuses it", () => {
  const TAGS = [7, 8, 9, 11, 13, 14, 15, 29];
  const value = (tag: number, content: Uint8Array) =>
    withSubject(leaf(), name(rdn(atv(CN, tlv(0x20 | tag, content)))));
  const nested = (levels: number) => {
    let inner: Uint8Array = hex("04 01 41");
    for (let k = 0; k < levels; k++) inner = tlv(0x24, inner);
    return inner;
  };
  verdicts(
    TAGS.flatMap((tag): [string, Uint8Array][] => [
      [`[UNIVERSAL ${tag}] constructed, holding a stray octet`, value(tag, hex("ff"))],
      [`[UNIVERSAL ${tag}] constructed, a TLV then a stray octet`, value(tag, hex("04 01 41 ff"))],
      [`[UNIVERSAL ${tag}] constructed, holding end-of-contents`, value(tag, hex("00 00"))],
    ]).concat([
      ["[UNIVERSAL 7] constructed, a length running past its end", value(7, hex("04 05 41"))],
      ["[UNIVERSAL 29] constructed, six nested levels", value(29, nested(6))],
    ]),
    { openssl: false, ours: false },
  );
  verdicts(
    [
      ...TAGS.map((tag): [string, Uint8Array] => [
        `[UNIVERSAL ${tag}] constructed, holding one OCTET STRING`,
        value(tag, hex("04 01 41")),
      ]),
      ["[UNIVERSAL 7] constructed and empty", value(7, new Uint8Array())],
      ["[UNIVERSAL 8] constructed, holding a context-specific TLV", value(8, hex("80 01 41"))],
      ["[UNIVERSAL 29] constructed, five nested levels", value(29, nested(5))],
    ],
    { openssl: true, ours: true },
  );
});

/**
 * Issue 16: an otherName in subjectAltName. `d2i_X509` does not read extension values, so the
 * oracle here is openssl reading the extension (`-ext subjectAltName`): it prints `othername:`
 * when it can read the name, and dumps the extension raw when it cannot. The decoder refuses the
 * certificate exactly when openssl cannot read it, and also refuses a constructed string value,
 * which openssl gathers (DER only, docs/certificates-der.md).
 */
describe("subjectAltName otherName: refused exactly where openssl cannot read it", () => {
  const SAN = "2.5.29.17";
  const otherName = (content: string) => withExtensions(leaf(), extension(SAN, seq(tlv(0xa0, hex(content)))));
  const cases: [string, string, "read" | "unreadable" | "constructed string"][] = [
    ["a UTF8String value", "06 03 2a 03 04 a0 03 0c 01 41", "read"],
    ["a UTF8String that is not UTF-8 (ANY does not look inside)", "06 03 2a 03 04 a0 03 0c 01 ff", "read"],
    ["an OCTET STRING value", "06 03 2a 03 04 a0 03 04 01 41", "read"],
    ["a SEQUENCE whose content is not DER (kept as bytes)", "06 03 2a 03 04 a0 04 30 02 ff ff", "read"],
    ["an OID length running past its end", "06 05 2a 03 04 a0 03 0c 01 41", "unreadable"],
    ["two values in [0]", "06 03 2a 03 04 a0 06 0c 01 41 0c 01 42", "unreadable"],
    ["no value", "06 03 2a 03 04", "unreadable"],
    ["an empty [0]", "06 03 2a 03 04 a0 00", "unreadable"],
    ["a primitive [0]", "06 03 2a 03 04 80 01 41", "unreadable"],
    ["[1] in place of [0]", "06 03 2a 03 04 a1 03 0c 01 41", "unreadable"],
    ["a byte after the value", "06 03 2a 03 04 a0 03 0c 01 41 00", "unreadable"],
    ["a NULL with content", "06 03 2a 03 04 a0 03 05 01 00", "unreadable"],
    ["a padded type-id", "06 02 80 01 a0 03 0c 01 41", "unreadable"],
    ["value before type-id", "a0 03 0c 01 41 06 03 2a 03 04", "unreadable"],
    ["a constructed UTF8String holding junk", "06 03 2a 03 04 a0 04 2c 02 ff ff", "unreadable"],
    ["a constructed ObjectDescriptor holding junk", "06 03 2a 03 04 a0 03 27 01 ff", "unreadable"],
    [
      "a constructed UTF8String of one OCTET STRING",
      "06 03 2a 03 04 a0 05 2c 03 04 01 41",
      "constructed string",
    ],
  ];
  for (const [label, content, expected] of cases) {
    const der = otherName(content);
    const facts = schedule(() => opensslFactsForDer(der));
    facts.catch(() => {});
    test(
      `${label}: openssl ${expected === "unreadable" ? "cannot read it" : "reads it"}; the decoder ${expected === "read" ? "accepts" : "refuses"}`,
      async () => {
        const printed = (await facts).extensions.get("X509v3 Subject Alternative Name")?.lines[0] ?? "";
        expect(printed.startsWith("othername: 1.2.3.4::")).toBe(expected !== "unreadable");
        const result = await decoder.decode(der);
        expect(result.ok ? "accepted" : result.reason).toBe(
          expected === "read" ? "accepted" : "malformed subjectAltName extension",
        );
        if (result.ok)
          expect(result.certificate.sans).toEqual([{ type: "otherName", value: `#A0${hexOf(content)}` }]);
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});

/** Uppercase hex of `[len] content` for a short content (under 128 octets). */
function hexOf(content: string): string {
  const bytes = hex(content);
  return Buffer.concat([Uint8Array.of(bytes.length), bytes])
    .toString("hex")
    .toUpperCase();
}
