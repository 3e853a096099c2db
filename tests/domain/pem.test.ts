import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  CERTIFICATE_LABEL,
  checkPemSize,
  decodeBase64,
  NO_CERTIFICATE_MESSAGE,
  OUTSIDE_TEXT_MESSAGES,
  PRIVATE_KEY_MESSAGE,
  scanPem,
  utf8Length,
} from "../../src/domain/certificates/pem.ts";
import type { Issue } from "../../src/domain/errors.ts";
import { MAX_CERTIFICATES, MAX_PEM_LENGTH } from "../../src/domain/limits.ts";

const BEGIN = "-----BEGIN CERTIFICATE-----"; // 27 code units
const END = "-----END CERTIFICATE-----"; // 25 code units
/** DER 30 03 02 01 05 (SEQUENCE { INTEGER 5 }). */
const BODY = "MAMCAQU=";
const DER = [0x30, 0x03, 0x02, 0x01, 0x05];
const block = (eol = "\n", body = BODY) => `${BEGIN}${eol}${body}${eol}${END}`;

/** Secret-looking material that must never come back in any message. */
const KEY_BODY = "MC4CAQAwBQYDK2VwBCIEIJ+SECRETSECRETSECRETSECRETSECRETSECRETSECRET";
const PRIVATE_KEY_BLOCK = `-----BEGIN PRIVATE KEY-----\n${KEY_BODY}\n-----END PRIVATE KEY-----`;

/** Every PEM issue: path ["pem"], and a message with no boundary, base64 or key text in it. */
function expectClean(issues: Issue[], pem: string): void {
  for (const issue of issues) {
    expect(issue.path).toEqual(["pem"]);
    expect(issue.message).not.toContain("-----");
    expect(issue.message).not.toContain(BODY);
    expect(issue.message).not.toContain("SECRET");
    for (const line of pem.split(/\r\n|\r|\n/)) {
      const text = line.trim();
      if (text.length >= 8 && !text.startsWith("-----")) expect(issue.message).not.toContain(text);
    }
  }
}

describe("scanPem: well-formed blocks", () => {
  test("one LF block: index, BEGIN line, whole-block location, DER", () => {
    const pem = `${block()}\n`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    expect(scan.blockCount).toBe(1);
    expect(scan.blocks).toHaveLength(1);
    expect(scan.blocks[0]!.index).toBe(0);
    expect(scan.blocks[0]!.line).toBe(1);
    expect(scan.blocks[0]!.location).toEqual({ line: 1, offset: 0, end: 62 });
    expect([...scan.blocks[0]!.der]).toEqual(DER);
  });

  test("CRLF, leading blank lines and indented boundaries: offsets count CR and LF", () => {
    const pem = `\r\n\r\n  ${BEGIN}\r\n${BODY}\r\n${END}  \r\n`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    // Begins at 4 (two CRLF) + 2 spaces = 6; END ends at 6 + 27 + 2 + 8 + 2 + 25 = 70.
    expect(scan.blocks[0]!.line).toBe(3);
    expect(scan.blocks[0]!.location).toEqual({ line: 3, offset: 6, end: 70 });
  });

  test("lone CR separates lines", () => {
    const pem = `\r${block("\r")}\r\r${block("\r")}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    expect(scan.blocks.map((b) => b.line)).toEqual([2, 6]);
    expect(scan.blocks[0]!.location).toEqual({ line: 2, offset: 1, end: 63 });
    expect(scan.blocks[1]!.location).toEqual({ line: 6, offset: 65, end: 127 });
  });

  test("mixed line endings in one text", () => {
    const pem = `${BEGIN}\r\n${BODY}\r${END}\n${BEGIN}\n${BODY}\r\n${END}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    expect(scan.blocks.map((b) => b.line)).toEqual([1, 4]);
    expect(scan.blocks[1]!.location).toEqual({ line: 4, offset: 64, end: 64 + 27 + 1 + 8 + 2 + 25 });
  });

  test("whitespace inside and around base64 lines is tolerated", () => {
    const pem = `${BEGIN}\n  MAMC \t AQU=  \n\n${END}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    expect([...scan.blocks[0]!.der]).toEqual(DER);
  });

  test("base64 split over several lines", () => {
    const scan = scanPem(`${BEGIN}\nMAMC\nAQU=\n${END}`);
    expect(scan.issues).toEqual([]);
    expect([...scan.blocks[0]!.der]).toEqual(DER);
  });

  test("a byte-order mark and non-breaking spaces count as whitespace", () => {
    const pem = `\uFEFF${block()}\u00A0\n`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([]);
    expect(scan.blocks[0]!.location).toEqual({ line: 1, offset: 1, end: 63 });
  });

  test("blocks keep their positions and BEGIN lines", () => {
    const pem = [block(), block(), block()].join("\n\n");
    const scan = scanPem(pem);
    expect(scan.blocks.map((b) => [b.index, b.line])).toEqual([
      [0, 1],
      [1, 5],
      [2, 9],
    ]);
  });

  test(`exactly ${MAX_CERTIFICATES} blocks are accepted`, () => {
    const scan = scanPem(Array.from({ length: MAX_CERTIFICATES }, () => block()).join("\n"));
    expect(scan.issues).toEqual([]);
    expect(scan.blocks).toHaveLength(MAX_CERTIFICATES);
  });
});

describe("scanPem: text outside blocks", () => {
  test("text before a block: from the first non-whitespace character to the end of that line", () => {
    const pem = `   subject=CN=example  \n${block()}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      {
        message: OUTSIDE_TEXT_MESSAGES.opensslAttributes,
        path: ["pem"],
        location: { line: 1, offset: 3, end: 23 },
      },
    ]);
    expect(scan.blocks).toHaveLength(1);
    expectClean(scan.issues, pem);
  });

  test("astral characters before a block: offsets are UTF-16 code units", () => {
    // "😀" is two UTF-16 code units; the line "😀 x" is 4 units; the block starts at 5.
    const pem = `😀 x\n${block()}\nné😀\r\n`;
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.location)).toEqual([
      { line: 1, offset: 0, end: 4 },
      { line: 5, offset: 68, end: 72 },
    ]);
    expect(scan.blocks[0]!.location).toEqual({ line: 2, offset: 5, end: 67 });
    expect(pem.slice(5, 67)).toBe(block());
    expect(pem.slice(68, 72)).toBe("né😀");
  });

  test("text between and after blocks, one issue per line, in text order", () => {
    const pem = `${block()}\nfoo\n\n\tbar\n${block()}\nbaz`;
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.location)).toEqual([
      { line: 4, offset: 63, end: 66 },
      { line: 6, offset: 69, end: 72 },
      { line: 10, offset: 136, end: 139 },
    ]);
    expect(scan.blocks).toHaveLength(2);
    expectClean(scan.issues, pem);
  });

  test("an END line without BEGIN", () => {
    const pem = `${END}\n${block()}`;
    const scan = scanPem(pem);
    expect(scan.issues).toHaveLength(1);
    expect(scan.issues[0]!.message).toContain("END line");
    expect(scan.issues[0]!.location).toEqual({ line: 1, offset: 0, end: 25 });
    expectClean(scan.issues, pem);
  });

  test("base64 lines and an END line without a BEGIN line: one issue for the run", () => {
    const pem = `${BODY}\nAAAA\n${END}\n`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      {
        message: OUTSIDE_TEXT_MESSAGES.base64WithoutBegin,
        path: ["pem"],
        location: { line: 1, offset: 0, end: 39 },
      },
    ]);
    expectClean(scan.issues, pem);
  });
});

describe("scanPem: rejected blocks", () => {
  test("a private key: exact message, whole-block location, no key text anywhere", () => {
    const pem = `${block()}\n\n${PRIVATE_KEY_BLOCK}\n`;
    const scan = scanPem(pem);
    const offset = 64;
    const end = offset + PRIVATE_KEY_BLOCK.length;
    expect(scan.issues).toEqual([
      { message: PRIVATE_KEY_MESSAGE, path: ["pem"], location: { line: 5, offset, end } },
    ]);
    expect(pem.slice(offset, end)).toBe(PRIVATE_KEY_BLOCK);
    expect(JSON.stringify(scan.issues)).not.toContain(KEY_BODY);
    expect(JSON.stringify(scan.issues)).not.toContain("SECRET");
    expect(PRIVATE_KEY_MESSAGE).toBe("private key material is not accepted");
  });

  test.each([
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "DSA PRIVATE KEY",
  ])("label %s is private key material", (label) => {
    const pem = `-----BEGIN ${label}-----\nProc-Type: 4,ENCRYPTED\n${KEY_BODY}\n-----END ${label}-----\n`;
    const scan = scanPem(pem);
    expect(scan.issues[0]).toEqual({
      message: PRIVATE_KEY_MESSAGE,
      path: ["pem"],
      location: { line: 1, offset: 0, end: pem.length - 1 },
    });
    expect(JSON.stringify(scan.issues)).not.toContain("SECRET");
  });

  test("a private key without END still gets the private-key message, up to the end of the text", () => {
    const pem = `-----BEGIN PRIVATE KEY-----\n${KEY_BODY}\n`;
    const scan = scanPem(pem);
    expect(scan.issues[0]).toEqual({
      message: PRIVATE_KEY_MESSAGE,
      path: ["pem"],
      location: { line: 1, offset: 0, end: pem.length },
    });
  });

  test("other labels are rejected with a message naming the label", () => {
    const pem = `${block()}\n-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----`;
    const scan = scanPem(pem);
    expect(scan.issues).toHaveLength(1);
    expect(scan.issues[0]!.message).toContain('"PUBLIC KEY"');
    expect(scan.issues[0]!.message).not.toContain("MCowBQYDK2VwAyEA");
    expect(scan.issues[0]!.location).toEqual({ line: 4, offset: 63, end: pem.length });
    expect(scan.blocks).toHaveLength(1);
  });

  test("a label that is not a well-formed short label is not quoted", () => {
    const label = `X${"Y".repeat(80)}`;
    const pem = `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----`;
    const scan = scanPem(pem);
    expect(scan.issues[0]!.message).not.toContain(label.slice(0, 20));
    expect(scan.issues[0]!.location).toEqual({ line: 1, offset: 0, end: pem.length });
  });

  test.each(["TRUSTED CERTIFICATE", "X509 CRL", "CERTIFICATE REQUEST", "certificate"])(
    "label %s is not CERTIFICATE",
    (label) => {
      const scan = scanPem(`-----BEGIN ${label}-----\n${BODY}\n-----END ${label}-----`);
      expect(scan.issues).toHaveLength(1);
      expect(scan.issues[0]!.message).toContain(`"${label}"`);
      expect(scan.issues[0]!.location).toBeDefined();
    },
  );

  test("missing END: from -----BEGIN to the end of the text", () => {
    const pem = `\n  ${BEGIN}\n${BODY}\n\n  `;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      {
        message: "this CERTIFICATE block has no END line",
        path: ["pem"],
        location: { line: 2, offset: 3, end: pem.length },
      },
    ]);
    expect(scan.blocks).toEqual([]);
  });

  test("a BEGIN inside an open block: the open block has no END, the next one is read", () => {
    const pem = `${BEGIN}\n${BODY}\n${block()}\n`;
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => [i.message, i.location])).toEqual([
      ["this CERTIFICATE block has no END line", { line: 1, offset: 0, end: pem.length }],
    ]);
    expect(scan.blocks.map((b) => [b.index, b.line])).toEqual([[1, 3]]);
    expect(scan.blockCount).toBe(2);
  });

  test("mismatched END label: located at the block", () => {
    const pem = `${BEGIN}\n${BODY}\n-----END PUBLIC KEY-----\n${block()}`;
    const scan = scanPem(pem);
    expect(scan.issues).toHaveLength(1);
    expect(scan.issues[0]!.message).toContain("END line");
    // 27 + 1 + 8 + 1 + 24 ("-----END PUBLIC KEY-----")
    expect(scan.issues[0]!.location).toEqual({ line: 1, offset: 0, end: 61 });
    expect(scan.blocks.map((b) => b.index)).toEqual([1]);
    expectClean(scan.issues, pem);
  });

  test("an END line with trailing text is a mismatched END", () => {
    const pem = `${BEGIN}\n${BODY}\n${END} trailing`;
    const scan = scanPem(pem);
    expect(scan.issues[0]!.location).toEqual({ line: 1, offset: 0, end: pem.length });
    expect(scan.issues[0]!.message).not.toContain("trailing");
  });

  test("malformed BEGIN line: located at the block", () => {
    const pem = `-----BEGIN CERTIFICATE----- extra\n${BODY}\n${END}`;
    const scan = scanPem(pem);
    expect(scan.issues[0]!.message).toBe("the BEGIN line of this block is malformed");
    expect(scan.issues[0]!.location).toEqual({ line: 1, offset: 0, end: pem.length });
    expect(scan.issues[0]!.message).not.toContain("extra");
  });

  test.each([
    ["a character outside the alphabet", "MAMC*QU="],
    ["a length that is not a multiple of 4", "MAMCAQU"],
    ["padding in the middle", "MA==AQU="],
    ["too much padding", "MAMCA==="],
    ["a header line", "Proc-Type: 4,ENCRYPTED"],
  ])("invalid base64 (%s): located at the block, no body text", (_, body) => {
    const pem = `\n${block("\n", body)}\n`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      {
        message: "this CERTIFICATE block does not contain valid base64",
        path: ["pem"],
        location: { line: 2, offset: 1, end: pem.length - 1 },
      },
    ]);
    expect(scan.issues[0]!.message).not.toContain(body);
  });

  test("an empty CERTIFICATE block", () => {
    const pem = `${BEGIN}\n\n${END}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      {
        message: "this CERTIFICATE block is empty",
        path: ["pem"],
        location: { line: 1, offset: 0, end: 54 },
      },
    ]);
  });
});

describe("scanPem: whole-text rules", () => {
  test.each(["", "   ", "\n\r\n\t", "\uFEFF"])("no block in %j: path pem, no location", (pem) => {
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([{ message: NO_CERTIFICATE_MESSAGE, path: ["pem"] }]);
    expect(scan.blockCount).toBe(0);
  });

  test("a private key alone: only the located key issue, no separate missing-certificate issue", () => {
    const scan = scanPem(PRIVATE_KEY_BLOCK);
    expect(scan.issues).toEqual([
      {
        message: PRIVATE_KEY_MESSAGE,
        path: ["pem"],
        location: { line: 1, offset: 0, end: PRIVATE_KEY_BLOCK.length },
      },
    ]);
  });

  test(`block ${MAX_CERTIFICATES + 1} is located; the first ${MAX_CERTIFICATES} blocks still come back`, () => {
    const blocks = Array.from({ length: MAX_CERTIFICATES + 2 }, () => block());
    const pem = blocks.join("\n");
    const scan = scanPem(pem);
    const start = MAX_CERTIFICATES * (block().length + 1);
    expect(scan.issues).toEqual([
      {
        message: `a bundle holds at most ${MAX_CERTIFICATES} PEM blocks; this is block ${MAX_CERTIFICATES + 1}`,
        path: ["pem"],
        location: { line: MAX_CERTIFICATES * 3 + 1, offset: start, end: start + block().length },
      },
    ]);
    expect(scan.blocks).toHaveLength(MAX_CERTIFICATES);
    expect(scan.blockCount).toBe(MAX_CERTIFICATES + 2);
  });

  test("a private key beyond the limit is still reported", () => {
    const pem = [...Array.from({ length: MAX_CERTIFICATES }, () => block()), PRIVATE_KEY_BLOCK].join("\n");
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.message)).toEqual([
      PRIVATE_KEY_MESSAGE,
      `a bundle holds at most ${MAX_CERTIFICATES} PEM blocks; this is block ${MAX_CERTIFICATES + 1}`,
    ]);
    expect(scan.issues[0]!.location).toEqual(scan.issues[1]!.location!);
  });

  test("every problem is reported, in text order", () => {
    const pem = [
      "junk",
      block(),
      PRIVATE_KEY_BLOCK,
      block("\n", "!!!!"),
      "-----BEGIN PUBLIC KEY-----",
      "AAAA",
      "-----END PUBLIC KEY-----",
      `${BEGIN}`,
      BODY,
    ].join("\n");
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.message)).toEqual([
      expect.stringContaining("outside a PEM block") as unknown as string,
      PRIVATE_KEY_MESSAGE,
      "this CERTIFICATE block does not contain valid base64",
      'PEM blocks labelled "PUBLIC KEY" are not accepted; only CERTIFICATE blocks are: a public key alone is not a certificate, so paste the certificate that contains it',
      "this CERTIFICATE block has no END line",
    ]);
    const offsets = scan.issues.map((i) => i.location!.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(scan.issues.map((i) => i.location!.line)).toEqual([1, 5, 8, 11, 14]);
    expect(scan.blocks.map((b) => b.index)).toEqual([0]);
    expect(scan.blockCount).toBe(5);
    expectClean(scan.issues, pem);
  });

  test(`over ${MAX_PEM_LENGTH} UTF-16 code units: path pem, no location, nothing scanned`, () => {
    const pem = `${block()}\n${" ".repeat(MAX_PEM_LENGTH)}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      { message: `pem is longer than ${MAX_PEM_LENGTH} characters`, path: ["pem"] },
    ]);
    expect(scan.scanned).toBe(false);
    expect(scan.blocks).toEqual([]);
  });

  test(`over ${MAX_PEM_LENGTH} UTF-8 bytes but not characters`, () => {
    const pem = `${block()}\n${"€".repeat(16_384)}`; // 62 + 1 + 49152 bytes, 16447 characters
    expect(pem.length).toBeLessThan(MAX_PEM_LENGTH);
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      { message: `pem is larger than ${MAX_PEM_LENGTH} bytes of UTF-8`, path: ["pem"] },
    ]);
  });

  test("exactly at both limits: scanned", () => {
    const chars = `${block()}\n${" ".repeat(MAX_PEM_LENGTH - 63)}`;
    expect(chars.length).toBe(MAX_PEM_LENGTH);
    expect(checkPemSize(chars)).toBeNull();
    expect(scanPem(chars).issues).toEqual([]);
    const exact = `${block()}\n${"€".repeat(16_363)}`; // 63 + 49089 = 49152 bytes
    expect(utf8Length(exact)).toBe(MAX_PEM_LENGTH);
    expect(checkPemSize(exact)).toBeNull();
    expect(scanPem(exact).issues).toHaveLength(1); // the euro signs are text outside a block
    expect(checkPemSize(`${exact} `)).toEqual({
      message: `pem is larger than ${MAX_PEM_LENGTH} bytes of UTF-8`,
      path: ["pem"],
    });
  });
});

describe("utf8Length", () => {
  test.each([
    ["", 0],
    ["abc", 3],
    ["é", 2],
    ["€", 3],
    ["😀", 4],
    ["\uD83D", 3],
    ["\uDE00x", 4],
    ["a😀é", 7],
  ])("%j is %d bytes", (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});

describe("decodeBase64", () => {
  test.each([
    ["", []],
    ["AA==", [0]],
    ["AAE=", [0, 1]],
    ["AAEC", [0, 1, 2]],
    ["/+8=", [0xff, 0xef]],
  ])("%s", (text, bytes) => {
    expect([...decodeBase64(text)!]).toEqual(bytes);
  });

  test.each(["A", "AA=", "A===", "AA=A", "AA-_", "AA AA"])("%j is invalid", (text) => {
    expect(decodeBase64(text)).toBeNull();
  });

  test("matches the platform decoder on random bytes", () => {
    for (let n = 0; n < 64; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 0xff);
      const text = Buffer.from(bytes).toString("base64");
      expect([...decodeBase64(text)!]).toEqual([...bytes]);
    }
  });
});

test("CERTIFICATE is the only accepted label", () => {
  expect(CERTIFICATE_LABEL).toBe("CERTIFICATE");
});

describe("scanPem properties", () => {
  const separator = fc.constantFrom(" ", "\t", "\n", "\r\n", "\r", "\u00A0", "\uFEFF");
  const eol = fc.constantFrom("\n", "\r\n", "\r");
  /** One-based line of `offset`, counting LF, CRLF and lone CR as one break each. */
  const lineOf = (text: string, offset: number) => text.slice(0, offset).split(/\r\n|\r|\n/).length;

  test("well-formed blocks between arbitrary whitespace: every block found, located exactly", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(separator, { minLength: 1, maxLength: 4 }),
            eol,
            fc.uint8Array({ minLength: 1, maxLength: 80 }),
          ),
          {
            minLength: 1,
            maxLength: MAX_CERTIFICATES,
          },
        ),
        fc.array(separator, { maxLength: 4 }),
        (parts, tail) => {
          let pem = "";
          const expected: { text: string; offset: number; der: number[] }[] = [];
          for (const [before, lineEnd, der] of parts) {
            pem += before.join("");
            // Keep blocks on their own lines.
            if (pem !== "" && !/[\r\n]$/.test(pem)) pem += lineEnd;
            const body = (
              Buffer.from(der)
                .toString("base64")
                .match(/.{1,64}/g) ?? []
            ).join(lineEnd);
            const text = `${BEGIN}${lineEnd}${body}${lineEnd}${END}`;
            expected.push({ text, offset: pem.length, der: [...der] });
            pem += `${text}${lineEnd}`;
          }
          pem += tail.join("");
          const scan = scanPem(pem);
          expect(scan.issues).toEqual([]);
          expect(scan.blocks).toHaveLength(expected.length);
          for (const [i, block] of scan.blocks.entries()) {
            const want = expected[i]!;
            expect(block.index).toBe(i);
            expect(block.location.offset).toBe(want.offset);
            expect(pem.slice(block.location.offset, block.location.end)).toBe(want.text);
            expect(block.line).toBe(lineOf(pem, want.offset));
            expect(block.location.line).toBe(block.line);
            expect([...block.der]).toEqual(want.der);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("any text: never throws, every location lies inside the text on the line it names", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        BEGIN,
        END,
        "-----BEGIN PRIVATE KEY-----",
        "-----END PUBLIC KEY-----",
        BODY,
        "😀",
        "\r",
        "\n",
        "\r\n",
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const pem = pieces.join("");
        const scan = scanPem(pem);
        for (const issue of scan.issues) {
          expect(issue.path).toEqual(["pem"]);
          if (!issue.location) continue;
          const { line, offset, end } = issue.location;
          expect(0 <= offset && offset < end && end <= pem.length).toBe(true);
          expect(line).toBe(lineOf(pem, offset));
          expect(/\s/.test(pem[offset]!)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
