/**
 * Encrypted PKCS#8 keys decrypted by the CLI (src/adapters/keys-node/key-decryption.ts): the right
 * passphrase gives the PrivateKeyInfo, and every wrong one gets the same words, including the one
 * wrong passphrase in about 256 whose decryption happens to end in valid CBC padding (the CI run
 * that found it: tests/hardening/key-derivation.test.ts failed once with "could not be read").
 */
import { describe, expect, test } from "bun:test";
import { createDecipheriv, createPrivateKey, generateKeyPairSync, pbkdf2Sync } from "node:crypto";
import { decryptPrivateKeyInfo } from "../../src/adapters/keys-node/key-decryption.ts";
import { readScheme } from "../../src/local/pbes2.ts";

const WRONG = "the key could not be decrypted: the passphrase is wrong, or the key is damaged";

const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const encrypted = new Uint8Array(
  privateKey.export({ type: "pkcs8", format: "der", cipher: "aes-256-cbc", passphrase: "right" }),
);

/** The plain text a passphrase decrypts to when its padding is valid, else null: an independent replica. */
function replicaDecrypt(passphrase: string): Buffer | null {
  const scheme = readScheme(encrypted);
  if ("message" in scheme || scheme.derivation.kdf !== "PBKDF2") throw new Error("expected PBKDF2");
  const { salt, iterations, prf } = scheme.derivation;
  const key = pbkdf2Sync(passphrase, salt, iterations, scheme.cipher.keyLength, prf);
  try {
    const decipher = createDecipheriv(scheme.cipher.name, key, scheme.iv);
    return Buffer.concat([decipher.update(scheme.data), decipher.final()]);
  } catch {
    return null;
  }
}

describe("decryptPrivateKeyInfo", () => {
  test("the right passphrase gives a PrivateKeyInfo that node:crypto reads as the same key", async () => {
    const result = await decryptPrivateKeyInfo(encrypted, "right", 10_000);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const key = createPrivateKey({ key: Buffer.from(result.privateKeyInfo), format: "der", type: "pkcs8" });
    expect(key.export({ format: "jwk" })).toEqual(privateKey.export({ format: "jwk" }));
  });

  test("a wrong passphrase whose decryption passes the padding check is still a wrong passphrase", async () => {
    let lucky: string | undefined;
    for (let i = 0; i < 5000 && lucky === undefined; i++) {
      if (replicaDecrypt(`wrong-${i}`) !== null) lucky = `wrong-${i}`;
    }
    expect(lucky).toBeDefined();
    // The replica proves this passphrase gets past the padding, with noise that is no key.
    const noise = replicaDecrypt(lucky!)!;
    expect(() => createPrivateKey({ key: noise, format: "der", type: "pkcs8" })).toThrow();
    expect(await decryptPrivateKeyInfo(encrypted, lucky!, 10_000)).toEqual({ ok: false, message: WRONG });
  });

  test("a wrong passphrase that fails the padding check gets the same words", async () => {
    let unlucky: string | undefined;
    for (let i = 0; i < 50 && unlucky === undefined; i++) {
      if (replicaDecrypt(`other-${i}`) === null) unlucky = `other-${i}`;
    }
    expect(unlucky).toBeDefined();
    expect(await decryptPrivateKeyInfo(encrypted, unlucky!, 10_000)).toEqual({ ok: false, message: WRONG });
  });
});
