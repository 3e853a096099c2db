/**
 * Reading certificate files (src/local/certificate-files.ts, CONTRACT §7.6): several files as one
 * bundle whose every line maps back to its file and line, and the test for binary input against
 * a slow obvious model (WHATWG's fatal UTF-8 decoder and a scan for control characters).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { BinaryInputError, binaryOffset, CertificateBundleText } from "../../src/local/certificate-files.ts";
import { certDer, certPem, filePath } from "../fixtures/fixtures.ts";

const lines = (text: string) => text.split(/\r\n|\r|\n/);

/** The model: the longest prefix that is text (valid UTF-8, no control character but tab, LF, FF, CR). */
function modelOffset(bytes: Uint8Array): number {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const isText = (end: number) => {
    try {
      const text = decoder.decode(bytes.subarray(0, end));
      return ![...text].some((c) => {
        const code = c.charCodeAt(0);
        return (code < 0x20 && !"\t\n\f\r".includes(c)) || code === 0x7f;
      });
    } catch {
      return false;
    }
  };
  if (isText(bytes.length)) return -1;
  let end = bytes.length;
  while (end > 0 && !isText(end)) end--;
  return end;
}

describe("binaryOffset", () => {
  test("property: the first byte that is not text, as the model finds it", () => {
    const textish = fc.oneof(
      fc.string({ unit: "binary" }).map((s) => new TextEncoder().encode(s)),
      fc.uint8Array({ maxLength: 24 }),
      fc
        .array(
          fc.constantFrom(
            0x41,
            0x0a,
            0xc3,
            0xa9,
            0xe0,
            0xa0,
            0x80,
            0xed,
            0x9f,
            0xbf,
            0xf0,
            0x90,
            0xf4,
            0x8f,
            0x1b,
            0x7f,
            0xff,
          ),
          {
            maxLength: 12,
          },
        )
        .map((values) => Uint8Array.from(values)),
    );
    fc.assert(
      fc.property(fc.array(textish, { maxLength: 4 }), (parts) => {
        const bytes = Uint8Array.from(parts.flatMap((part) => [...part]));
        expect(binaryOffset(bytes)).toBe(modelOffset(bytes));
      }),
      { numRuns: 2000 },
    );
  });
});

/** Lines (1-based) of private key blocks, BEGIN to END. */
function keyLines(textLines: readonly string[]): Set<number> {
  const out = new Set<number>();
  let inside = false;
  textLines.forEach((text, k) => {
    if (/^-----BEGIN [A-Z ]*PRIVATE KEY-----$/.test(text)) inside = true;
    if (inside) out.add(k + 1);
    if (/^-----END [A-Z ]*PRIVATE KEY-----$/.test(text)) inside = false;
  });
  return out;
}

describe("CertificateBundleText", () => {
  const key = readFileSync(filePath("leaf-and-key.pem"), "utf8");
  const pkcs7 = readFileSync(filePath("chain.p7b.pem"), "utf8");
  const snippets = [
    certPem("chain-leaf"),
    certPem("chain-int2").replaceAll("\n", "\r\n"),
    key,
    pkcs7,
    "# a comment someone left\n",
    "\n\n",
    certPem("chain-int1").trimEnd(),
  ];

  test("property: every line from a file's own text maps to that line of that file", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(snippets.length - 1), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.boolean(),
        (files, bom) => {
          const bundle = new CertificateBundleText();
          const texts = files.map((picks, k) => {
            const text = (bom && k === 0 ? "\uFEFF" : "") + picks.map((pick) => snippets[pick]!).join("");
            bundle.addFile(new TextEncoder().encode(text), `file${k}.pem`);
            return text.replace(/^\uFEFF/, "");
          });
          const combined = lines(bundle.pem);
          for (let line = 1; line <= combined.length; line++) {
            const origin = bundle.origin(line);
            if (origin === null || origin.line === null) continue;
            const original = lines(texts[Number(origin.source.slice(4, -4))]!);
            // A line holding a PKCS#7 block's BEGIN or END is shared with its certificates.
            if (original[origin.line - 1]?.includes("PKCS7")) continue;
            // A private key's lines are blanked: the line numbers stay, the text is never kept.
            const blanked = keyLines(original).has(origin.line);
            expect([line, combined[line - 1]]).toEqual([line, blanked ? "" : original[origin.line - 1]]);
          }
          expect(bundle.pem).not.toContain("PRIVATE KEY");
        },
      ),
      { numRuns: 200 },
    );
  });

  test("places: file:line for text, the file and what it was made from for DER and PKCS#7", () => {
    const bundle = new CertificateBundleText();
    bundle.addFile(new TextEncoder().encode(`# leaf and key\n${key}`), "crt.pem");
    bundle.addFile(certDer("chain-int2"), "int.der");
    bundle.addFile(new TextEncoder().encode(`${certPem("chain-int1")}${pkcs7}`), "more.pem");
    const all = lines(bundle.pem);
    const beginLines = all.flatMap((text, k) => (text === "-----BEGIN CERTIFICATE-----" ? [k + 1] : []));
    const keyFileBegins = lines(key).flatMap((text, k) =>
      text === "-----BEGIN CERTIFICATE-----" ? [k + 2] : [],
    );
    const pkcs7Line = lines(certPem("chain-int1")).length;
    expect(beginLines.map((line) => bundle.place(line))).toEqual([
      ...keyFileBegins.map((line) => `crt.pem:${line}`),
      "int.der (a DER certificate)",
      "more.pem:1",
      ...Array.from({ length: 3 }, () => `more.pem (the PKCS#7 bundle at line ${pkcs7Line})`),
    ]);
    expect(bundle.notices).toEqual([
      expect.stringMatching(/^crt\.pem: a private key \(block \d, line \d+\) was set aside/),
      "int.der: a DER file, read as one certificate",
      `more.pem: a PEM PKCS#7 bundle (block 2, line ${pkcs7Line}); its 3 certificates were read in stored order`,
    ]);
    expect(bundle.place(all.length + 5)).toBeNull();
  });

  test("binary data is refused with its offset and at most 16 bytes in hex", () => {
    const bundle = new CertificateBundleText();
    const bytes = Uint8Array.from([0x2d, 0x2d, 0x00, ...Array.from({ length: 40 }, (_, k) => k)]);
    expect(() => bundle.addFile(bytes, "x.bin")).toThrow(
      new BinaryInputError("x.bin", 2, "00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e"),
    );
  });
});
