/**
 * The public half of an Ed448 private key (RFC 8032 §5.2.5), for `nettools key-match` under Bun:
 * Bun's `node:crypto` (BoringSSL) cannot load Ed448 keys, while Node's can. Not a signer: one
 * scalar multiplication of the base point, with BigInt, in the process; nothing leaves it. Its
 * answer is compared with `openssl pkey -pubout` in tests/cli/key-match.test.ts.
 */
import { createHash } from "node:crypto";

/** p = 2^448 − 2^224 − 1, the field of Edwards448 (RFC 8032 §5.2). */
const P = 2n ** 448n - 2n ** 224n - 1n;
/** d = −39081 (the untwisted curve x² + y² = 1 + d·x²·y²). */
const D = P - 39081n;
/** The base point B (RFC 8032 §5.2). */
const BASE_X =
  224580040295924300187604334099896036246789641632564134246125461686950415467406032909029192869357953282578032075146446173674602635247710n;
const BASE_Y =
  298819210078481492676017930443930673437544040154080242095928241372331506189835876003536878655418784733982303233503462500531545062832660n;
/** Octets of a key and of an encoded point. */
const KEY_OCTETS = 57;

/** A point in projective coordinates (X:Y:Z), x = X/Z, y = Y/Z. */
type Point = readonly [bigint, bigint, bigint];

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

/** Point addition, RFC 8032 §5.2.4 (complete for the untwisted curve). */
function add([x1, y1, z1]: Point, [x2, y2, z2]: Point): Point {
  const a = mod(z1 * z2);
  const b = mod(a * a);
  const c = mod(x1 * x2);
  const d = mod(y1 * y2);
  const e = mod(D * c * d);
  const f = mod(b - e);
  const g = mod(b + e);
  const h = mod((x1 + y1) * (x2 + y2));
  return [mod(a * f * (h - c - d)), mod(a * g * (d - c)), mod(f * g)];
}

/** Point doubling, RFC 8032 §5.2.4. */
function double([x1, y1, z1]: Point): Point {
  const b = mod((x1 + y1) * (x1 + y1));
  const c = mod(x1 * x1);
  const d = mod(y1 * y1);
  const e = mod(c + d);
  const h = mod(z1 * z1);
  const j = mod(e - 2n * h);
  return [mod((b - e) * j), mod(e * (c - d)), mod(e * j)];
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
  }
  return result;
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/**
 * The 57-octet public key of a 57-octet Ed448 secret (RFC 8032 §5.2.5): SHAKE256 of the secret,
 * its first half pruned into the scalar s, and A = [s]B encoded as y with x's low bit on top.
 */
export function ed448PublicKey(secret: Uint8Array): Uint8Array {
  if (secret.length !== KEY_OCTETS) throw new RangeError("an Ed448 secret key has 57 octets");
  const h = createHash("shake256", { outputLength: 2 * KEY_OCTETS })
    .update(secret)
    .digest();
  const scalarBytes = Uint8Array.from(h.subarray(0, KEY_OCTETS));
  scalarBytes[0]! &= 0xfc;
  scalarBytes[KEY_OCTETS - 1] = 0;
  scalarBytes[KEY_OCTETS - 2]! |= 0x80;
  const scalar = littleEndian(scalarBytes);

  let result: Point = [0n, 1n, 1n];
  for (let bit = BigInt(scalar.toString(2).length - 1); bit >= 0n; bit--) {
    result = double(result);
    if ((scalar >> bit) & 1n) result = add(result, [BASE_X, BASE_Y, 1n]);
  }
  const inverse = power(result[2], P - 2n);
  const x = mod(result[0] * inverse);
  const y = mod(result[1] * inverse);
  const encoded = new Uint8Array(KEY_OCTETS);
  let rest = y;
  for (let i = 0; i < KEY_OCTETS - 1; i++) {
    encoded[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  encoded[KEY_OCTETS - 1] = Number(x & 1n) << 7;
  return encoded;
}
