/** The one escaping function for outside text on a terminal (src/local/terminal-text.ts). */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { escapeForTerminal, quoteBytes } from "../../src/local/terminal-text.ts";

/** The slow obvious model: a code point is shown as it is unless it is C0, DEL, C1, a line or paragraph separator, or a bidi control. */
function unsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    [0x061c, 0x200e, 0x200f, 0x2028, 0x2029].includes(code) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

describe("escapeForTerminal", () => {
  test("the attack's GeoIP strings: a title change, a screen clear, a fake line", () => {
    expect(escapeForTerminal("Evil\u001b]0;pwned\u0007 Corp")).toBe("Evil\\x1b]0;pwned\\x07 Corp");
    expect(escapeForTerminal("\u001b[2J\u001b[H")).toBe("\\x1b[2J\\x1b[H");
    expect(escapeForTerminal("NL\nASN: 1")).toBe("NL\\x0aASN: 1");
    expect(escapeForTerminal("\u009b31m")).toBe("\\x9b31m");
    expect(escapeForTerminal("abc\u202edcba")).toBe("abc\\u{202e}dcba");
    expect(escapeForTerminal("Zürich 東京")).toBe("Zürich 東京");
  });

  test("property: no unsafe character survives, and safe text is unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const out = escapeForTerminal(text);
        for (const char of out) expect(unsafe(char.codePointAt(0)!)).toBe(false);
        if (![...text].some((char) => unsafe(char.codePointAt(0)!))) expect(out).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test("quoteBytes: printable ASCII kept, every other byte as \\xHH, cut after escaping", () => {
    expect(quoteBytes(Uint8Array.from([0x32, 0x32, 0x30, 0x1b, 0xff]), 80)).toBe('"220\\x1b\\xff"');
    expect(quoteBytes(new TextEncoder().encode("a".repeat(100)), 80)).toBe(`"${"a".repeat(80)}"`);
    expect(quoteBytes(Uint8Array.from([0x61, 0x00]), 4)).toBe('"a"');
  });
});
