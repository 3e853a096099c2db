/**
 * The byte-to-text encoders the certificate readers use per request (ADR 0069): the engine's
 * `toHex` / `fromBase64` where it has them, the portable loops elsewhere (the page in an older
 * browser). Both forms are held to the platform's `Buffer` on arbitrary bytes, so the faster form
 * can never answer differently from the one it replaced.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decodeBase64, decodeBase64Portable } from "../../src/domain/certificates/pem.ts";
import { hexColons, hexLower, hexLowerPortable, hexUpper } from "../../src/domain/der.ts";

const BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Bytes with a window inside them: the encoders take `[start, end)` of a larger buffer. */
const window = fc
  .uint8Array({ maxLength: 600 })
  .chain((bytes) =>
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.nat({ max: bytes.length }))
      .map(([a, b]) => ({ bytes, start: Math.min(a, b), end: Math.max(a, b) })),
  );

describe("hex", () => {
  test("hexLower, its portable form and hexUpper equal Buffer's hex of the window", () => {
    fc.assert(
      fc.property(window, ({ bytes, start, end }) => {
        const expected = Buffer.from(bytes.subarray(start, end)).toString("hex");
        expect(hexLower(bytes, start, end)).toBe(expected);
        expect(hexLowerPortable(bytes, start, end)).toBe(expected);
        expect(hexUpper(bytes, start, end)).toBe(expected.toUpperCase());
      }),
    );
  });

  test("hexColons is the uppercase pairs joined by colons", () => {
    fc.assert(
      fc.property(window, ({ bytes, start, end }) => {
        const pairs =
          Buffer.from(bytes.subarray(start, end)).toString("hex").toUpperCase().match(/../g) ?? [];
        expect(hexColons(bytes, start, end)).toBe(pairs.join(":"));
      }),
    );
  });

  test.each([
    [[], "", ""],
    [[0], "00", "00"],
    [[0xab, 0x01, 0xff], "ab01ff", "AB:01:FF"],
  ])("%j", (bytes, lower, colons) => {
    expect(hexLower(Uint8Array.from(bytes))).toBe(lower);
    expect(hexColons(Uint8Array.from(bytes))).toBe(colons);
  });

  test("defaults cover the whole array and a window leaves the rest out", () => {
    const bytes = Uint8Array.of(1, 2, 3, 4);
    expect(hexLower(bytes)).toBe("01020304");
    expect(hexLower(bytes, 1, 3)).toBe("0203");
    expect(hexColons(bytes, 3)).toBe("04");
  });
});

describe("base64", () => {
  test("decodeBase64 and its portable form return the bytes Buffer encoded", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        const text = Buffer.from(bytes).toString("base64");
        expect([...decodeBase64(text)!]).toEqual([...bytes]);
        expect([...decodeBase64Portable(text)]).toEqual([...bytes]);
      }),
    );
  });

  test("non-zero pad bits are tolerated the same way by both forms", () => {
    const quad = fc.string({ unit: fc.constantFrom(...BASE64_CHARS), minLength: 4, maxLength: 4 });
    const last = fc.oneof(
      fc.string({ unit: fc.constantFrom(...BASE64_CHARS), minLength: 3, maxLength: 3 }).map((s) => `${s}=`),
      fc.string({ unit: fc.constantFrom(...BASE64_CHARS), minLength: 2, maxLength: 2 }).map((s) => `${s}==`),
      quad,
    );
    fc.assert(
      fc.property(fc.array(quad, { maxLength: 20 }), last, (quads, end) => {
        const text = quads.join("") + end;
        const decoded = decodeBase64(text);
        expect(decoded).not.toBeNull();
        expect([...decoded!]).toEqual([...decodeBase64Portable(text)]);
        expect([...decoded!]).toEqual([...Buffer.from(text, "base64")]);
      }),
    );
  });

  test("anything outside the strict alphabet and padding is refused before decoding", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const strict = text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
        expect(decodeBase64(text) !== null).toBe(strict);
      }),
    );
  });
});
