/**
 * The node:crypto signature verifier on the generated fixtures: each algorithm's child → issuer
 * check, wrong keys, tampering, unsupported algorithms and unusable issuer keys (CONTRACT §4.2).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import type { SignatureCheck, SignatureOutcome } from "../../src/domain/ports.ts";
import { certDer, certNames } from "../fixtures/fixtures.ts";
import { concat, editTbs, oid, seq, tlv } from "./der-builder.ts";

const decoder = new DerCertificateDecoder();
const verifier = new NodeSignatureVerifier();

async function decode(der: Uint8Array): Promise<CertificateData> {
  const result = await decoder.decode(der);
  if (!result.ok) throw new Error(`decode failed: ${result.reason}`);
  return result.certificate;
}

const cert = (name: string) => decode(certDer(name));

async function check(
  child: string | CertificateData,
  issuer: string | CertificateData,
): Promise<SignatureCheck> {
  const c = typeof child === "string" ? await cert(child) : child;
  const i = typeof issuer === "string" ? await cert(issuer) : issuer;
  return verifier.verify(c, i);
}

/** `der` with the octet at `from` (counted back from the end when negative) XOR 0x01. */
function flip(der: Uint8Array, from: number): Uint8Array<ArrayBuffer> {
  const copy = der.slice();
  const at = from < 0 ? copy.length + from : from;
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

/** The three parts of a certificate's DER: TBSCertificate, signatureAlgorithm, signatureValue. */
function splitTop(der: Uint8Array): { tbs: Uint8Array; alg: Uint8Array; sig: Uint8Array } {
  const headerLength = (at: number) => (der[at + 1]! & 0x80 ? 2 + (der[at + 1]! & 0x7f) : 2);
  const contentLength = (at: number) => {
    const b = der[at + 1]!;
    if (!(b & 0x80)) return b;
    let n = 0;
    for (let k = 0; k < (b & 0x7f); k++) n = n * 256 + der[at + 2 + k]!;
    return n;
  };
  const tbsAt = headerLength(0);
  const algAt = tbsAt + headerLength(tbsAt) + contentLength(tbsAt);
  const sigAt = algAt + headerLength(algAt) + contentLength(algAt);
  return { tbs: der.slice(tbsAt, algAt), alg: der.slice(algAt, sigAt), sig: der.slice(sigAt) };
}

/** `der` with the outer signatureAlgorithm and/or the signatureValue replaced, the TBS kept. */
function withOuter(der: Uint8Array, alg?: Uint8Array, sig?: Uint8Array): Uint8Array<ArrayBuffer> {
  const parts = splitTop(der);
  return seq(parts.tbs, alg ?? parts.alg, sig ?? parts.sig);
}

/** `der` with both signature AlgorithmIdentifiers (tbsCertificate.signature and the outer one) replaced by `alg`. */
function withAlgorithm(der: Uint8Array, alg: Uint8Array): Uint8Array<ArrayBuffer> {
  const tbsAlgorithm = 2; // after [0] version and the serial number
  const edited = editTbs(der, (t) => t.map((part, k) => (k === tbsAlgorithm ? alg : part)));
  return withOuter(edited, alg);
}

describe("each algorithm: child → issuer", () => {
  const verified: [string, string][] = [
    ["leaf-rsa", "int-rsa"],
    ["int-rsa", "root-rsa"],
    ["root-rsa", "root-rsa"],
    ["leaf-rsa-sha1", "root-rsa-sha1"],
    ["root-rsa-sha1", "root-rsa-sha1"],
    ["leaf-rsa-sha224", "root-rsa-sha224"],
    ["leaf-rsa-sha384", "root-rsa-sha384"],
    ["leaf-rsa-sha512", "root-rsa-sha512"],
    ["leaf-rsa-pss", "root-rsa-pss"],
    ["leaf-rsa-pss-sha512", "root-rsa-pss"],
    ["root-rsa-pss", "root-rsa-pss"],
    ["leaf-rsa-pss-key", "root-rsa-pss-key"],
    ["root-rsa-pss-key", "root-rsa-pss-key"],
    ["leaf-ec-p256", "root-ec-p256"],
    ["leaf-ec-p256-sha1", "root-ec-p256"],
    ["leaf-ec-p256-sha224", "root-ec-p256"],
    ["root-ec-p256", "root-ec-p256"],
    ["leaf-ec-p384", "root-ec-p384"],
    ["root-ec-p384", "root-ec-p384"],
    ["leaf-ec-p521", "root-ec-p521"],
    ["root-ec-p521", "root-ec-p521"],
    ["leaf-ed25519", "root-ed25519"],
    ["root-ed25519", "root-ed25519"],
    ["leaf-twin", "twin-ca-a"],
    ["leaf-cross", "cross-int-a"],
    ["leaf-cross", "cross-int-b"],
    ["cross-int-a", "cross-root-a"],
    ["cross-int-b", "cross-root-b"],
    ["leaf-aki-mismatch", "skid-ca-other"],
    ["leaf-aki-mismatch", "skid-ca"],
    ["leaf-under-ca-false", "issuer-ca-false"],
    ["leaf-under-no-bc", "issuer-no-bc"],
    ["leaf-under-no-keycertsign", "issuer-no-keycertsign"],
    ["leaf-expired", "int-rsa"],
    ["leaf-not-yet-valid", "int-rsa"],
    ["leaf-serial-negative", "int-rsa"],
    ["name-utf8", "int-rsa"],
  ];
  for (const [child, issuer] of verified) {
    test(`${child} ← ${issuer}: verified`, async () => {
      expect(await check(child, issuer)).toEqual({ outcome: "verified" });
    });
  }

  const unsupportedCases: [string, string, RegExp][] = [
    ["leaf-rsa-md5", "root-rsa-md5", /MD5/],
    ["root-rsa-md5", "root-rsa-md5", /MD5/],
    ["leaf-dsa", "root-dsa", /DSA/],
    ["root-dsa", "root-dsa", /DSA/],
    ["leaf-ed448", "root-ed448", /Ed448/],
    ["root-ed448", "root-ed448", /Ed448/],
    ["leaf-secp256k1", "root-secp256k1", /secp256k1/],
    ["root-secp256k1", "root-secp256k1", /secp256k1/],
  ];
  for (const [child, issuer, reason] of unsupportedCases) {
    test(`${child} ← ${issuer}: unsupported`, async () => {
      const result = await check(child, issuer);
      expect(result.outcome).toBe("unsupported");
      expect(result.reason).toMatch(reason);
    });
  }
});

describe("the wrong key", () => {
  test("the same-name CA with another key → failed", async () => {
    expect(await check("leaf-twin", "twin-ca-b")).toEqual({ outcome: "failed" });
  });

  test("any issuer of the same key type that did not sign → failed", async () => {
    expect((await check("cross-int-b", "cross-root-a")).outcome).toBe("failed");
    expect((await check("leaf-rsa", "root-rsa")).outcome).toBe("failed");
    expect((await check("leaf-rsa-pss", "root-rsa")).outcome).toBe("failed");
    expect((await check("leaf-ed25519", "leaf-ed25519")).outcome).toBe("failed");
    expect((await check("leaf-ec-p384", "cross-root-b")).outcome).toBe("failed");
  });

  test("a key of another type → unavailable", async () => {
    for (const [child, issuer] of [
      ["leaf-rsa", "root-ec-p256"],
      ["leaf-ec-p256", "root-rsa"],
      ["leaf-ed25519", "root-rsa"],
      ["leaf-rsa", "root-rsa-pss-key"],
      ["leaf-rsa-pss", "root-ed25519"],
    ] as const) {
      const result = await check(child, issuer);
      expect(result.outcome).toBe("unavailable");
      expect(result.reason).toBe("the issuer key type does not match the signature algorithm");
    }
  });

  test("an ECDSA signature checked with a key on another curve → failed", async () => {
    // P-384 key, signature made on P-256: WebCrypto rejects the r‖s size or the value.
    expect((await check("leaf-ec-p256", "root-ec-p384")).outcome).toBe("failed");
  });
});

describe("tampering", () => {
  const tampered: [string, string][] = [
    ["leaf-rsa", "int-rsa"],
    ["leaf-rsa-sha1", "root-rsa-sha1"],
    ["leaf-rsa-pss", "root-rsa-pss"],
    ["leaf-ec-p256", "root-ec-p256"],
    ["leaf-ec-p521", "root-ec-p521"],
    ["leaf-ed25519", "root-ed25519"],
  ];
  for (const [child, issuer] of tampered) {
    test(`${child}: a changed signature octet and a changed TBS octet → failed`, async () => {
      const der = certDer(child);
      // The last octet of the signature (for ECDSA: the last octet of s).
      expect((await check(await decode(flip(der, -1)), issuer)).outcome).toBe("failed");
      // An octet inside the subject's CN value, far from the signature.
      const cn = Buffer.from(der).lastIndexOf(Buffer.from(".example.com"));
      expect(cn).toBeGreaterThan(0);
      expect((await check(await decode(flip(der, cn + 2)), issuer)).outcome).toBe("failed");
    });
  }

  test("outer signature algorithm differing from the one inside the TBS → failed, before anything else", async () => {
    const der = certDer("leaf-rsa");
    const sha384 = seq(oid("1.2.840.113549.1.1.12"), Uint8Array.of(0x05, 0x00));
    const mismatched = await decode(withOuter(der, sha384));
    expect([mismatched.signatureAlgorithmsMatch, mismatched.signatureAlgorithm]).toEqual([
      false,
      "sha384WithRSAEncryption",
    ]);
    expect(await check(mismatched, "int-rsa")).toEqual({ outcome: "failed" });
    // Same OID, parameters absent instead of NULL: RFC 5280 wants the fields identical.
    const noNull = seq(oid("1.2.840.113549.1.1.11"));
    expect((await check(await decode(withOuter(der, noNull)), "int-rsa")).outcome).toBe("failed");
    // An unsupported outer algorithm, or an issuer key of another type, does not hide the mismatch.
    const md5 = seq(oid("1.2.840.113549.1.1.4"), Uint8Array.of(0x05, 0x00));
    expect((await check(await decode(withOuter(der, md5)), "int-rsa")).outcome).toBe("failed");
    expect((await check(mismatched, "root-ec-p256")).outcome).toBe("failed");
    // The same two edits made together keep the certificate consistent: the signature alone fails.
    const both = await decode(withAlgorithm(der, sha384));
    expect(both.signatureAlgorithmsMatch).toBe(true);
    expect((await check(both, "root-ec-p256")).outcome).toBe("unavailable");
  });

  test("every fixture has matching algorithms", async () => {
    for (const name of certNames()) expect((await cert(name)).signatureAlgorithmsMatch).toBe(true);
  });

  test("a signature BIT STRING with unused bits → failed", async () => {
    const der = certDer("leaf-rsa");
    const { sig } = splitTop(der);
    const body = sig.slice(sig.length - 256);
    const odd = tlv(0x03, concat(Uint8Array.of(0x01), body));
    expect((await check(await decode(withOuter(der, undefined, odd)), "int-rsa")).outcome).toBe("failed");
  });

  test("an ECDSA signature that is not an ECDSA-Sig-Value, an Ed25519 signature of the wrong size → failed", async () => {
    const ec = certDer("leaf-ec-p256");
    const junk = tlv(0x03, Uint8Array.of(0x00, 0x30, 0x03, 0x02, 0x01, 0x01));
    expect((await check(await decode(withOuter(ec, undefined, junk)), "root-ec-p256")).outcome).toBe(
      "failed",
    );
    const negative = tlv(
      0x03,
      concat(Uint8Array.of(0x00), seq(tlv(0x02, Uint8Array.of(0x80)), tlv(0x02, Uint8Array.of(1)))),
    );
    expect((await check(await decode(withOuter(ec, undefined, negative)), "root-ec-p256")).outcome).toBe(
      "failed",
    );
    const ed = certDer("leaf-ed25519");
    const short = tlv(0x03, new Uint8Array(33));
    expect((await check(await decode(withOuter(ed, undefined, short)), "root-ed25519")).outcome).toBe(
      "failed",
    );
  });

  test("RSA-PSS with parameters that are not RSASSA-PSS-params → failed", async () => {
    const der = certDer("leaf-rsa-pss");
    const bad = seq(oid("1.2.840.113549.1.1.10"), seq(tlv(0xa2, tlv(0x02, Uint8Array.of(0x80)))));
    expect((await check(await decode(withAlgorithm(der, bad)), "root-rsa-pss")).outcome).toBe("failed");
  });
});

describe("what the verifier does not do, or cannot do", () => {
  test("unknown and SHA-3 signature algorithms → unsupported, decided by OID", async () => {
    const der = certDer("leaf-rsa");
    for (const sigOid of ["1.2.3.4", "2.16.840.1.101.3.4.3.14", "1.2.840.113549.1.1.2"]) {
      const alg = seq(oid(sigOid), Uint8Array.of(0x05, 0x00));
      const result = await check(await decode(withAlgorithm(der, alg)), "int-rsa");
      expect(result.outcome).toBe("unsupported");
      expect(result.reason).toBeString();
    }
  });

  test("RSA-PSS with an MGF1 hash other than the message hash → unsupported", async () => {
    const sha256 = seq(oid("2.16.840.1.101.3.4.2.1"));
    const mgf1Sha1 = seq(oid("1.2.840.113549.1.1.8"), seq(oid("1.3.14.3.2.26")));
    const params = seq(tlv(0xa0, sha256), tlv(0xa1, mgf1Sha1), tlv(0xa2, tlv(0x02, Uint8Array.of(32))));
    const alg = seq(oid("1.2.840.113549.1.1.10"), params);
    const result = await check(await decode(withAlgorithm(certDer("leaf-rsa-pss"), alg)), "root-rsa-pss");
    expect(result.outcome).toBe("unsupported");
  });

  /** A decoded `name` whose SubjectPublicKeyInfo (TBS part 6) is replaced by `spki`. */
  const withKey = (name: string, spki: Uint8Array) =>
    decode(editTbs(certDer(name), (t) => t.map((part, k) => (k === 6 ? spki : part))));

  test("an ECDSA issuer key on a curve WebCrypto lacks → unsupported", async () => {
    const issuer = await cert("root-ec-p256");
    // The same point, with brainpoolP256r1 instead of P-256 in the SPKI parameters.
    const point = issuer.publicKey.subjectPublicKey; // BIT STRING: 03 42 00 04 X Y
    const brainpool = seq(seq(oid("1.2.840.10045.2.1"), oid("1.3.36.3.3.2.8.1.1.7")), point);
    const result = await verifier.verify(
      await cert("leaf-ec-p256"),
      await withKey("root-ec-p256", brainpool),
    );
    expect(result).toEqual({ outcome: "unsupported", reason: "this elliptic curve is not supported" });
  });

  test("a garbage issuer key → unavailable with a short reason", async () => {
    const child = await cert("leaf-rsa");
    const rsa = seq(oid("1.2.840.113549.1.1.1"), Uint8Array.of(5, 0));
    const outcomes: SignatureCheck[] = [];
    for (const spki of [
      seq(rsa, tlv(0x03, Uint8Array.of(0, 1, 2, 3))),
      seq(rsa, tlv(0x03, Uint8Array.of(0))),
      seq(rsa, tlv(0x03, Uint8Array.of(0, 0x30, 0x03, 0x02, 0x01, 0x00))),
    ]) {
      outcomes.push(await verifier.verify(child, await withKey("int-rsa", spki)));
    }
    for (const result of outcomes) {
      expect(result.outcome).toBe("unavailable");
      expect(result.reason).toMatch(/^the [a-z ]+$/);
    }
  });

  test("the verifier reads what the decoder read, never the DER again", async () => {
    const issuer = await cert("int-rsa");
    const child = await cert("leaf-rsa");
    // The certificate's DER is not looked at: emptied, the check still verifies.
    expect(
      await verifier.verify({ ...child, der: new Uint8Array() }, { ...issuer, der: new Uint8Array() }),
    ).toEqual({
      outcome: "verified",
    });
    // The signed bytes and the key are: another TBS or another key fails.
    const other = await cert("leaf-ec-p256");
    expect((await verifier.verify({ ...child, tbs: other.tbs }, issuer)).outcome).toBe("failed");
    // Spans as views into the DER, not copies.
    expect(child.tbs.buffer).toBe(child.der.buffer);
    expect(child.publicKey.spki.buffer).toBe(child.der.buffer);
  });

  test("data not made by the decoder → unavailable; verify never throws", async () => {
    const issuer = await cert("int-rsa");
    const child = await cert("leaf-rsa");
    const nasty = { ...child, tbs: undefined as unknown as Uint8Array };
    expect((await verifier.verify(nasty, issuer)).outcome).toBe("unavailable");
    const keyless = { ...issuer, publicKey: undefined as unknown as CertificateData["publicKey"] };
    expect((await verifier.verify(child, keyless)).outcome).toBe("unavailable");
  });

  test("reasons never contain certificate content", async () => {
    const names = certNames();
    const outcomes = new Map<SignatureOutcome, number>();
    for (const child of names) {
      const c = await cert(child);
      for (const issuer of ["root-rsa", "root-ec-p384", "root-ed448", "root-dsa", "root-rsa-pss-key"]) {
        const i = await cert(issuer);
        const result = await verifier.verify(c, i);
        outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
        for (const text of [c.subject, c.commonName ?? "", i.subject, c.serialNumber]) {
          if (text.length > 3) expect(result.reason ?? "").not.toContain(text);
        }
      }
    }
    expect([...outcomes.keys()].sort()).toEqual(["failed", "unavailable", "unsupported", "verified"]);
  });
});

describe("the checks share the event loop (ADR 68)", () => {
  test("with the defaults a check answers in the turn it was asked in: no later turn of the loop runs first", async () => {
    const [child, issuer] = await Promise.all([cert("leaf-rsa"), cert("int-rsa")]);
    for (let round = 0; round < 20; round++) {
      let laterTurnRan = false;
      setImmediate(() => {
        laterTurnRan = true;
      });
      expect(await new NodeSignatureVerifier().verify(child, issuer)).toEqual({ outcome: "verified" });
      expect(laterTurnRan).toBe(false);
    }
  });

  /** A verifier whose clock moves `msPerCheck` over each check, and whose turns end when the test says. */
  function sliced(sliceMs: number, msPerCheck: number) {
    let clock = 0;
    let calls = 0;
    const turnEnds: (() => void)[] = [];
    const verifier = new NodeSignatureVerifier({
      sliceMs,
      // Read twice per check, at its start and its end: the end is `msPerCheck` later.
      now: () => {
        if (calls++ % 2 === 1) clock += msPerCheck;
        return clock;
      },
      nextTurn: (callback) => turnEnds.push(callback),
    });
    /** Ends the present turn: runs what waited for it, in order. */
    const endTurn = () => {
      for (const callback of turnEnds.splice(0)) callback();
    };
    return { verifier, endTurn, pending: () => turnEnds.length };
  }

  test("checks run in the same turn until the slice is spent; the next waits for the following turn, which starts a new account", async () => {
    const [child, issuer] = await Promise.all([cert("leaf-rsa"), cert("int-rsa")]);
    const { verifier, endTurn } = sliced(10, 4);
    const answered: number[] = [];
    const ask = (n: number) => verifier.verify(child, issuer).then(() => answered.push(n));
    // 4 + 4 ms: under the slice, so the third starts in this turn too (and ends it past 10 ms).
    await ask(1);
    await ask(2);
    await ask(3);
    expect(answered).toEqual([1, 2, 3]);
    const fourth = ask(4);
    const fifth = ask(5);
    await Bun.sleep(5);
    expect(answered).toEqual([1, 2, 3]); // 12 ms spent: they wait for the turn to end
    endTurn();
    await fourth;
    await fifth;
    expect(answered).toEqual([1, 2, 3, 4, 5]);
  });

  test("property: no turn runs checks starting after its slice was spent, and every check is answered", async () => {
    const [child, issuer] = await Promise.all([cert("leaf-rsa"), cert("int-rsa")]);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 12 }),
        async (sliceMs, msPerCheck, checks) => {
          const { verifier, endTurn } = sliced(sliceMs, msPerCheck);
          let done = 0;
          const all = Array.from({ length: checks }, () => verifier.verify(child, issuer).then(() => done++));
          let turns = 0;
          const perTurn: number[] = [];
          while (done < checks && turns < 100) {
            const before = done;
            await Bun.sleep(0);
            perTurn.push(done - before);
            endTurn();
            turns++;
          }
          await Promise.all(all);
          expect(done).toBe(checks);
          // A turn starts checks while less than the slice is spent: ⌈slice / cost⌉ of them at most.
          const most = Math.ceil(sliceMs / msPerCheck);
          for (const count of perTurn) expect(count).toBeLessThanOrEqual(most);
        },
      ),
      { numRuns: 60 },
    );
  });
});
