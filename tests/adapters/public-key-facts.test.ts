/**
 * publicKeyFacts against the openssl CLI: keys of every type and every named curve OpenSSL lists
 * are generated at test time, and keyBits and keyCurve must be what `openssl pkey -pubin -text`
 * prints (`Public-Key: (N bit)`, `ASN1 OID:`, `NIST CURVE:`). Hostile bytes never throw.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { publicKeyFacts } from "../../src/adapters/crypto/public-key-facts.ts";

let dir = "";

/** What one generated key's openssl text says, beside its DER SubjectPublicKeyInfo. */
interface GeneratedKey {
  name: string;
  spki: Uint8Array;
  text: string;
}

/** Generates each key with openssl in one shell run (name → genpkey arguments or a full command). */
function generate(commands: Record<string, string>): GeneratedKey[] {
  const script = Object.entries(commands)
    .map(
      ([name, make]) =>
        `${make} > "${name}.key" 2>/dev/null && openssl pkey -in "${name}.key" -pubout -outform DER -out "${name}.der" && openssl pkey -pubin -inform DER -in "${name}.der" -text -noout > "${name}.txt"`,
    )
    .join("\n");
  const run = Bun.spawnSync(["bash", "-euo", "pipefail", "-c", script], { cwd: dir, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`key generation failed: ${run.stderr.toString()}`);
  return Object.keys(commands).map((name) => ({
    name,
    spki: new Uint8Array(readFileSync(join(dir, `${name}.der`))),
    text: readFileSync(join(dir, `${name}.txt`), "utf8"),
  }));
}

/** `Public-Key: (N bit)` as openssl prints it (EVP_PKEY_get_bits), or null when it prints none. */
function opensslBits(text: string): number | null {
  const match = /Public-Key: \((\d+) bit\)/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * The curve as the contract names it from openssl's text: the NIST name for P-256, P-384 and
 * P-521 (openssl prints `NIST CURVE:` for P-192, P-224 and the B-/K- curves too, which the
 * contract names by their short name), else `ASN1 OID:`.
 */
function opensslCurve(text: string): string | null {
  const nist = /NIST CURVE: (P-256|P-384|P-521)\n/.exec(text);
  if (nist) return nist[1]!;
  const asn1 = /ASN1 OID: (\S+)/.exec(text);
  return asn1 ? asn1[1]! : null;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "public-key-facts-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("publicKeyFacts against openssl pkey -text", () => {
  test("RSA of several sizes, RSASSA-PSS, DSA, Ed25519, Ed448, X25519", () => {
    const keys = generate({
      "rsa-1024": "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024",
      "rsa-2047": "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2047",
      "rsa-2048": "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048",
      "rsa-pss-2048": "openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048",
      "dsa-1024":
        "openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:1024 -out dsa.params 2>/dev/null && openssl genpkey -paramfile dsa.params",
      ed25519: "openssl genpkey -algorithm ED25519",
      ed448: "openssl genpkey -algorithm ED448",
      x25519: "openssl genpkey -algorithm X25519",
    });
    const facts = Object.fromEntries(keys.map((key) => [key.name, publicKeyFacts(key.spki)]));
    expect(facts).toEqual({
      "rsa-1024": { keyType: "RSA", keyBits: 1024, keyCurve: null },
      "rsa-2047": { keyType: "RSA", keyBits: 2047, keyCurve: null },
      "rsa-2048": { keyType: "RSA", keyBits: 2048, keyCurve: null },
      "rsa-pss-2048": { keyType: "1.2.840.113549.1.1.10", keyBits: 2048, keyCurve: null },
      "dsa-1024": { keyType: "DSA", keyBits: 1024, keyCurve: null },
      ed25519: { keyType: "Ed25519", keyBits: 256, keyCurve: null },
      ed448: { keyType: "Ed448", keyBits: 456, keyCurve: null },
      x25519: { keyType: "1.3.101.110", keyBits: null, keyCurve: null },
    });
    // Where openssl prints a size, it is the same number.
    for (const key of keys) {
      const printed = opensslBits(key.text);
      if (printed !== null)
        expect({ key: key.name, bits: facts[key.name]!.keyBits }).toEqual({ key: key.name, bits: printed });
    }
    expect(keys.filter((key) => opensslBits(key.text) !== null).map((key) => key.name)).toEqual([
      "rsa-1024",
      "rsa-2047",
      "rsa-2048",
      "rsa-pss-2048",
      "dsa-1024",
    ]);
  });

  test("every named curve openssl lists: order bits and name", () => {
    const list = Bun.spawnSync(["openssl", "ecparam", "-list_curves"]).stdout.toString();
    const curves = [...list.matchAll(/^\s*([\w-]+)\s*:/gm)]
      .map((match) => match[1]!)
      // The Oakley curves have no OID: a certificate cannot name them.
      .filter((curve) => !curve.startsWith("Oakley"));
    expect(curves.length).toBeGreaterThan(70);
    const keys = generate(
      Object.fromEntries(
        curves.map((curve) => [
          `ec-${curve}`,
          `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:${curve}`,
        ]),
      ),
    );
    const mismatches = keys.flatMap((key) => {
      const facts = publicKeyFacts(key.spki);
      const expected = { keyType: "EC", keyBits: opensslBits(key.text), keyCurve: opensslCurve(key.text) };
      return Bun.deepEquals(facts, expected) ? [] : [{ key: key.name, facts, expected }];
    });
    expect(mismatches).toEqual([]);
    const byName = new Map(keys.map((key) => [key.name, publicKeyFacts(key.spki)]));
    expect(byName.get("ec-prime256v1")).toEqual({ keyType: "EC", keyBits: 256, keyCurve: "P-256" });
    expect(byName.get("ec-secp384r1")).toEqual({ keyType: "EC", keyBits: 384, keyCurve: "P-384" });
    expect(byName.get("ec-secp521r1")).toEqual({ keyType: "EC", keyBits: 521, keyCurve: "P-521" });
    expect(byName.get("ec-secp256k1")).toEqual({ keyType: "EC", keyBits: 256, keyCurve: "secp256k1" });
    expect(byName.get("ec-brainpoolP256r1")).toEqual({
      keyType: "EC",
      keyBits: 256,
      keyCurve: "brainpoolP256r1",
    });
  }, 60_000);

  test("explicit curve parameters: the order's bits, no name", () => {
    const [key] = generate({
      explicit:
        "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -pkeyopt ec_param_enc:explicit",
    });
    expect(opensslCurve(key!.text)).toBeNull();
    expect(publicKeyFacts(key!.spki)).toEqual({
      keyType: "EC",
      keyBits: opensslBits(key!.text),
      keyCurve: null,
    });
    expect(opensslBits(key!.text)).toBe(384);
  });
});

describe("publicKeyFacts on keys openssl would not load", () => {
  /** SubjectPublicKeyInfo of `algorithm` DER and key octets (no unused bits). */
  function spkiOf(algorithm: number[], key: number[]): Uint8Array {
    const bitString = [0x03, key.length + 1, 0x00, ...key];
    const body = [...algorithm, ...bitString];
    return new Uint8Array([0x30, body.length, ...body]);
  }
  const RSA_ALGORITHM = [
    0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
  ];
  const ED25519_ALGORITHM = [0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70];
  const EC_UNKNOWN_CURVE = [
    0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x04,
    0x01, 0x81, 0xfd, 0x59,
  ];

  test("an RSA modulus that is negative, zero or padded has no size", () => {
    const rsa = (modulus: number[]) =>
      spkiOf(RSA_ALGORITHM, [0x30, modulus.length + 5, 0x02, modulus.length, ...modulus, 0x02, 0x01, 0x03]);
    expect(publicKeyFacts(rsa([0x00, 0x80, 0x01]))).toEqual({ keyType: "RSA", keyBits: 16, keyCurve: null });
    expect(publicKeyFacts(rsa([0x80, 0x01])).keyBits).toBeNull();
    expect(publicKeyFacts(rsa([0x00])).keyBits).toBeNull();
    expect(publicKeyFacts(rsa([0x00, 0x01])).keyBits).toBeNull();
  });

  test("an Ed25519 key of the wrong length has no size; an unknown curve is named by its OID", () => {
    expect(publicKeyFacts(spkiOf(ED25519_ALGORITHM, new Array(32).fill(7))).keyBits).toBe(256);
    expect(publicKeyFacts(spkiOf(ED25519_ALGORITHM, new Array(31).fill(7))).keyBits).toBeNull();
    expect(publicKeyFacts(spkiOf(EC_UNKNOWN_CURVE, [0x04, 1, 2]))).toEqual({
      keyType: "EC",
      keyBits: null,
      keyCurve: "1.3.6.1.4.1.32473",
    });
  });

  test("random bytes never throw", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const facts = publicKeyFacts(bytes);
        expect(typeof facts.keyType).toBe("string");
      }),
    );
  });
});
