/**
 * The one recogniser of private key material (src/local/key-material.ts, CONTRACT §7.6, §8.2):
 * every key encoding times every armour damage is found and blanked, the certificates around it
 * come through untouched, and the words are those of an intact key.
 */
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { CertificateBundleText } from "../../src/local/certificate-files.ts";
import {
  derKeyKindOfPrefix,
  findKeyMaterial,
  looksLikeDerKey,
  setAsidePrivateKeys,
} from "../../src/local/key-material.ts";
import { certDer, certNames, certPem } from "../fixtures/fixtures.ts";
import { bodyOf, DAMAGES, sampleKeys, windowsSeen } from "../hardening/damaged-keys.ts";

const KEYS = sampleKeys();
const BEFORE = certPem("chain-leaf");
const AFTER = certPem("chain-int1");

describe("keys found by content, whatever their armour", () => {
  const cases = KEYS.flatMap((key) => Object.keys(DAMAGES).map((damage) => [key.name, damage] as const));

  test.each(cases)("%s, %s: set aside on the page, certificates kept", (name, damage) => {
    const key = KEYS.find((sample) => sample.name === name)!;
    const pasted = DAMAGES[damage]!(key.pem);
    const text = `${BEFORE}${pasted}${AFTER}`;
    const aside = setAsidePrivateKeys(text);
    expect(windowsSeen(bodyOf(key.pem), aside.pem)).toEqual([]);
    expect(aside.pem).toContain(BEFORE);
    expect(aside.pem).toContain(AFTER);
    expect(aside.pem.split(/\r\n|\r|\n/).length).toBe(text.split(/\r\n|\r|\n/).length);
    expect(aside.notices).toHaveLength(1);
    expect(aside.notices[0]).toMatch(
      /^A private key \(block 2, line \d+\) was set aside: it is not sent and not shown\.$/,
    );
  });

  test.each(cases)("%s, %s: set aside from a file, certificates kept", (name, damage) => {
    const key = KEYS.find((sample) => sample.name === name)!;
    const bundle = new CertificateBundleText();
    bundle.addFile(new TextEncoder().encode(`${BEFORE}${DAMAGES[damage]!(key.pem)}${AFTER}`), "crt.pem");
    expect(windowsSeen(bodyOf(key.pem), bundle.pem)).toEqual([]);
    expect(bundle.pem).toContain(BEFORE);
    expect(bundle.pem).toContain(AFTER);
    expect(bundle.notices).toEqual([
      expect.stringMatching(
        /^crt\.pem: a private key \(block 2, line 2\d\) was set aside: it is not read, sent or shown$/,
      ),
    ]);
  });

  test("an intact key has the same words and the same block number it always had", () => {
    const key = KEYS[0]!.pem;
    const intact = setAsidePrivateKeys(`${BEFORE}${key}`).notices;
    const damaged = setAsidePrivateKeys(`${BEFORE}${DAMAGES["BEGIN with four dashes"]!(key)}`).notices;
    expect(damaged).toEqual(intact);
    expect(intact).toEqual([
      `A private key (block 2, line ${BEFORE.split("\n").length}) was set aside: it is not sent and not shown.`,
    ]);
  });

  test("a legacy encrypted PEM is found by its headers, its ciphertext body blanked", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const legacy = rsa.privateKey.export({
      type: "pkcs1",
      format: "pem",
      cipher: "aes-128-cbc",
      passphrase: "x",
    }) as string;
    expect(legacy).toContain("Proc-Type: 4,ENCRYPTED");
    for (const damage of ["BEGIN missing", "END missing", "BEGIN with four dashes", "intact"]) {
      const aside = setAsidePrivateKeys(`${BEFORE}${DAMAGES[damage]!(legacy)}${AFTER}`);
      expect(windowsSeen(bodyOf(legacy.replace(/^(Proc-Type|DEK-Info).*$/gm, "")), aside.pem)).toEqual([]);
      expect(aside.pem).not.toContain("DEK-Info");
      expect(aside.pem).toContain(AFTER);
    }
  });

  test("no certificate of the fixtures, DER or PEM or bare base64, is taken for a key", () => {
    for (const name of certNames()) {
      expect(looksLikeDerKey(certDer(name))).toBe(false);
      expect(derKeyKindOfPrefix(certDer(name))).toBeNull();
      expect(findKeyMaterial(certPem(name))).toEqual([]);
      // The bare base64 body of a certificate is no key either.
      expect(findKeyMaterial(bodyOf(certPem(name)))).toEqual([]);
    }
  });

  test("a text of nothing but candidate starts is read in linear time", () => {
    // Every line a candidate start (`M`), every run of them one long base64 run: each candidate is
    // judged by its first eight characters, never by reading the run to its end.
    for (const text of ["M\n".repeat(500_000), "MIIB\n".repeat(200_000), "b3Bl ".repeat(200_000)]) {
      const started = performance.now();
      expect(findKeyMaterial(text)).toEqual([]);
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});
