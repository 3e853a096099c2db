/**
 * `pemBlock` (the chain answer's `fullchainPem`, `--fix`'s file) against a slow, obvious model:
 * `encodeBase64` cut into 64-character lines, and against node's own base64 (fast-check).
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { encodeBase64, PEM_LINE_LENGTH, pemBlock } from "../../src/domain/certificates/pem.ts";

function slowPemBlock(der: Uint8Array): string {
  const base64 = encodeBase64(der);
  const lines: string[] = [];
  for (let at = 0; at < base64.length; at += PEM_LINE_LENGTH)
    lines.push(base64.slice(at, at + PEM_LINE_LENGTH));
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

test("pemBlock equals base64 in 64-character lines for every length (fast-check)", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (der) => {
      const written = pemBlock(der);
      expect(written).toBe(slowPemBlock(der));
      const body = written.split("\n").slice(1, -2).join("");
      expect(body).toBe(Buffer.from(der).toString("base64"));
    }),
    { numRuns: 600 },
  );
  for (const length of [0, 1, 2, 3, 47, 48, 49, 96, 1200]) {
    const der = Uint8Array.from({ length }, (_, k) => (k * 37) & 0xff);
    expect(pemBlock(der)).toBe(slowPemBlock(der));
  }
});
