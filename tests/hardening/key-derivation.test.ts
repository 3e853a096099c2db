/**
 * Encrypted keys cost what key-match allows, not what their author asks (issue 30, CONTRACT §7.3,
 * §8.2): the PBKDF2 count and scrypt's parameters are checked before deriving, a derivation
 * within the caps is stopped by `--timeout`, and a scrypt key made by openssl is read.
 */
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KDF_CAPS } from "../../src/local/pbes2.ts";
import { runNettools, runProcess } from "../cli/run.ts";

const dir = mkdtempSync(join(tmpdir(), "kdf-"));
const at = (name: string) => join(dir, name);

/** DER TLV. */
function tlv(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const length: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) length.unshift(rest % 256);
  const head = size < 0x80 ? [tag, size] : [tag, 0x80 | length.length, ...length];
  return Uint8Array.from([...head, ...parts.flatMap((part) => [...part])]);
}
const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));
function integer(value: number): Uint8Array {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  if ((bytes[0] ?? 0x80) & 0x80) bytes.unshift(0);
  return tlv(0x02, Uint8Array.from(bytes));
}
const oid = (der: string) => tlv(0x06, hex(der));
const PBES2 = oid("2a864886f70d01050d");
const PBKDF2 = oid("2a864886f70d01050c");
const SCRYPT = oid("2b06010401da47040b");
const HMAC_SHA256 = tlv(0x30, oid("2a864886f70d0209"), hex("0500"));
const AES256_CBC = oid("60864801650304012a");

/** An ENCRYPTED PRIVATE KEY block with the given key derivation and AES-256-CBC (random ciphertext). */
function encryptedKey(kdf: Uint8Array): string {
  const scheme = tlv(0x30, PBES2, tlv(0x30, kdf, tlv(0x30, AES256_CBC, tlv(0x04, randomBytes(16)))));
  const der = tlv(0x30, scheme, tlv(0x04, randomBytes(1232)));
  const body = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${body.trimEnd()}\n-----END ENCRYPTED PRIVATE KEY-----\n`;
}
const pbkdf2Key = (iterations: number) =>
  encryptedKey(tlv(0x30, PBKDF2, tlv(0x30, tlv(0x04, randomBytes(8)), integer(iterations), HMAC_SHA256)));

/** A certificate to compare with (its key is not the one tested: the derivation never ends). */
async function certificate(): Promise<string> {
  const key = at("plain.pem");
  const cert = at("cert.pem");
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  writeFileSync(key, privateKey.export({ type: "pkcs8", format: "pem" }) as string);
  const made = await runProcess([
    "openssl",
    "req",
    "-x509",
    "-key",
    key,
    "-out",
    cert,
    "-subj",
    "/CN=kdf",
    "-days",
    "1",
  ]);
  expect(made.code).toBe(0);
  return cert;
}

describe("key derivation inside the budget", () => {
  test("a 10^8-iteration key is refused before deriving, well inside --timeout 2", async () => {
    const cert = await certificate();
    writeFileSync(at("huge.pem"), pbkdf2Key(100_000_000));
    const started = performance.now();
    const ran = await runNettools(
      ["key-match", "-k", at("huge.pem"), "-c", cert, "--passin", "env:PW", "--timeout", "2"],
      {
        env: { PW: "wrong" },
        timeoutMs: 30_000,
      },
    );
    expect(performance.now() - started).toBeLessThan(2_000 + 1_500);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      `100000000 PBKDF2 iterations, more than the ${KDF_CAPS.maxPbkdf2Iterations}`,
    );
    expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  test("a derivation within the caps is stopped by --timeout: one line, exit 3", async () => {
    const cert = await certificate();
    writeFileSync(at("slow.pem"), pbkdf2Key(KDF_CAPS.maxPbkdf2Iterations));
    const started = performance.now();
    const ran = await runNettools(
      ["key-match", "-k", at("slow.pem"), "-c", cert, "--passin", "env:PW", "--timeout", "1"],
      {
        env: { PW: "wrong" },
        timeoutMs: 30_000,
      },
    );
    expect(performance.now() - started).toBeLessThan(1_000 + 1_500);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(
      "stopped at the time limit (1 s; --timeout SECONDS sets it) while deriving the key's decryption key (PBKDF2, 10000000 iterations); no verdict",
    );
    expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  test("scrypt beyond the memory cap is refused by its parameters", async () => {
    const cert = await certificate();
    const kdf = tlv(
      0x30,
      SCRYPT,
      tlv(0x30, tlv(0x04, randomBytes(8)), integer(1 << 20), integer(8), integer(1)),
    );
    writeFileSync(at("scrypt-huge.pem"), encryptedKey(kdf));
    const ran = await runNettools(
      ["key-match", "-k", at("scrypt-huge.pem"), "-c", cert, "--passin", "env:PW"],
      {
        env: { PW: "x" },
      },
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("scrypt with N=1048576, r=8, p=1 (1024 MiB)");
  });

  test("a scrypt key made by openssl is read with the right passphrase, refused with a wrong one", async () => {
    const plain = at("scrypt-plain.pem");
    const cert = at("scrypt-cert.pem");
    const encrypted = at("scrypt.pem");
    expect(
      (
        await runProcess([
          "openssl",
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:P-256",
          "-nodes",
          "-keyout",
          plain,
          "-out",
          cert,
          "-subj",
          "/CN=scrypt",
          "-days",
          "1",
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await runProcess([
          "openssl",
          "pkcs8",
          "-topk8",
          "-scrypt",
          "-in",
          plain,
          "-out",
          encrypted,
          "-passout",
          "pass:right",
        ])
      ).code,
    ).toBe(0);
    const right = await runNettools(["key-match", "-k", encrypted, "-c", cert, "--passin", "env:PW"], {
      env: { PW: "right" },
    });
    expect({ code: right.code, stderr: right.stderr }).toEqual({ code: 0, stderr: "" });
    expect(right.stdout).toContain("Match: certificate 0 (CN=scrypt) holds the key.");
    const wrong = await runNettools(["key-match", "-k", encrypted, "-c", cert, "--passin", "env:PW"], {
      env: { PW: "wrong" },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("the passphrase is wrong");
  });
});
