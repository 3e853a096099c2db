/**
 * The strict CRL reader (CONTRACT §10.2) against its oracle, `openssl crl -text`: CRLs written by
 * `openssl ca -gencrl` (EC and RSA CAs, every reason openssl ca writes, an invalidity date, an
 * empty list) read back with the same issuer, dates, number, algorithm, serials, revocation dates
 * and reasons; mutated lists that openssl refuses are refused too; and the signature is checked
 * with the existing WebCrypto verifier (`failed` under another key of the same name).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { DerRevocationListDecoder } from "../../src/adapters/crypto/crl-decoder.ts";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { rfc3339 } from "../../src/domain/certificates/findings.ts";
import { checkListSignature, REASON_WORDS } from "../../src/domain/certificates/revocation.ts";
import type { RevocationListData } from "../../src/domain/certificates/revocation-list-model.ts";
import { makeCa, openssl, opensslAccepts, opensslCrlText, type TestCa } from "../support/openssl-ca.ts";

const reader = new DerRevocationListDecoder();

function derOf(pemPath: string): Uint8Array {
  const body = readFileSync(pemPath, "utf8")
    .replace(/-----[^-]+-----/g, "")
    .replace(/\s/g, "");
  return new Uint8Array(Buffer.from(body, "base64"));
}

function read(der: Uint8Array): RevocationListData {
  const result = reader.decodeRevocationList(der);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.list;
}

async function certificate(path: string) {
  const result = await new DerCertificateDecoder().decode(derOf(path));
  if (!result.ok) throw new Error(result.reason);
  return result.certificate;
}

/** The reader's view, in the oracle's shape. */
function asOpenssl(list: RevocationListData) {
  return {
    version: list.version as number,
    issuer: list.issuer,
    thisUpdate: rfc3339(list.thisUpdate),
    nextUpdate: list.nextUpdate === null ? null : rfc3339(list.nextUpdate),
    crlNumber: list.crlNumber,
    signatureAlgorithm: list.signatureAlgorithm,
    revoked: [...list.entries()].map((entry) => ({
      serialNumber: entry.serialNumber,
      revocationDate: rfc3339(entry.revocationDate),
      reason: entry.reason === null ? null : REASON_WORDS[entry.reason],
      invalidityDate: entry.invalidityDate === null ? null : rfc3339(entry.invalidityDate),
    })),
  };
}

describe("CRLs written by openssl ca -gencrl read back as openssl crl -text prints them", () => {
  let ec: TestCa;
  let crlPath: string;
  const reasons = [
    "keyCompromise",
    "CACompromise",
    "affiliationChanged",
    "superseded",
    "cessationOfOperation",
    "certificateHold",
    "unspecified",
    undefined,
  ] as const;

  beforeAll(() => {
    ec = makeCa("CRL Oracle CA");
    reasons.forEach((reason, k) => {
      const cert = ec.issue(`leaf${k}.example`, (0x1000 + k * 0x101).toString(16).toUpperCase());
      ec.revoke(cert, reason);
    });
    // -crl_compromise writes keyCompromise with an invalidity date.
    const compromised = ec.issue("compromised.example", "00C0FFEE");
    openssl(
      [
        "ca",
        "-config",
        "ca.cnf",
        "-cert",
        "ca.pem",
        "-keyfile",
        "ca.key",
        "-revoke",
        compromised,
        "-crl_compromise",
        "20261101120000Z",
      ],
      ec.dir,
    );
    ec.issue("valid.example", "7E57");
    crlPath = ec.gencrl();
  }, 60_000);

  test("every field, serial, date and reason agrees (EC CA, nine entries, an invalidity date)", () => {
    const list = read(derOf(crlPath));
    const oracle = opensslCrlText(crlPath);
    expect(oracle.revoked.length).toBe(9);
    expect(oracle.revoked.some((entry) => entry.invalidityDate !== null)).toBe(true);
    expect(asOpenssl(list)).toEqual(oracle);
    expect(list.entryCount).toBe(9);
  });

  test("find answers the serials asked for, and only those", () => {
    const list = read(derOf(crlPath));
    const found = list.find(["C0FFEE", "7E57", "1000"]);
    expect([...found.keys()].sort()).toEqual(["1000", "C0FFEE"]);
    expect(found.get("C0FFEE")?.reason).toBe("keyCompromise");
    expect(found.get("1000")?.reason).toBe("keyCompromise");
  });

  test("its CA's key verifies it; another key under the same name does not (failed)", async () => {
    const verifier = new NodeSignatureVerifier();
    const list = read(derOf(crlPath));
    expect(await checkListSignature(list, await certificate(ec.caPath), verifier)).toBe("verified");
    const impostor = makeCa("CRL Oracle CA");
    const issuer = await certificate(impostor.caPath);
    expect(issuer.subjectNameKey).toBe(list.issuerNameKey);
    expect(await checkListSignature(list, issuer, verifier)).toBe("failed");
    // And a list the impostor signs is not verified by the real CA.
    const forged = read(derOf(impostor.gencrl()));
    expect(await checkListSignature(forged, await certificate(ec.caPath), verifier)).toBe("failed");
  }, 30_000);

  test("an RSA CA's list, and an empty one", async () => {
    const rsa = makeCa("CRL RSA CA", ["-newkey", "rsa:2048"]);
    const empty = rsa.gencrl("empty.pem");
    expect(asOpenssl(read(derOf(empty)))).toEqual(opensslCrlText(empty));
    expect(read(derOf(empty)).entryCount).toBe(0);
    rsa.revoke(rsa.issue("r.example", "0102"), "superseded");
    const one = rsa.gencrl("one.pem");
    const list = read(derOf(one));
    expect(asOpenssl(list)).toEqual(opensslCrlText(one));
    expect(list.signatureAlgorithm).toBe("sha256WithRSAEncryption");
    expect(await checkListSignature(list, await certificate(rsa.caPath), new NodeSignatureVerifier())).toBe(
      "verified",
    );
  }, 60_000);

  test("a list openssl refuses is refused: mutated lengths, tags and truncations", () => {
    const der = derOf(crlPath);
    const scratch = join(ec.dir, "mutant.der");
    // Deterministic mutations spread over the whole list: each sets one octet to another value.
    const mutants: Uint8Array[] = [];
    for (let k = 0; k < 80; k++) {
      const at = (k * 7919) % der.length;
      const copy = der.slice();
      copy[at] = (copy[at]! + 1 + ((k * 31) % 254)) & 0xff;
      mutants.push(copy);
    }
    mutants.push(der.slice(0, der.length - 1), Uint8Array.from([...der, 0]));
    let refusedByOpenssl = 0;
    for (const mutant of mutants) {
      writeFileSync(scratch, mutant);
      const opensslReads = opensslAccepts(["crl", "-inform", "DER", "-in", scratch, "-noout"]);
      if (!opensslReads) {
        refusedByOpenssl++;
        expect({ at: mutants.indexOf(mutant), ok: reader.decodeRevocationList(mutant).ok }).toEqual({
          at: mutants.indexOf(mutant),
          ok: false,
        });
      }
    }
    // The mutations must exercise the refusal path, not only bytes openssl ignores.
    expect(refusedByOpenssl).toBeGreaterThan(15);
  }, 120_000);

  test("random bytes and random mutations never throw, and the answer is a decision (fast-check)", () => {
    const der = derOf(crlPath);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        expect(typeof reader.decodeRevocationList(bytes).ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(der.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (edits) => {
          const copy = der.slice();
          for (const [at, value] of edits) copy[at] = value;
          const result = reader.decodeRevocationList(copy);
          if (result.ok) expect(result.list.entryCount).toBe([...result.list.entries()].length);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("hostile structure is refused, never thrown: empty, not a SEQUENCE, a certificate", async () => {
    expect(reader.decodeRevocationList(new Uint8Array()).ok).toBe(false);
    expect(reader.decodeRevocationList(Uint8Array.of(0x02, 0x01, 0x00)).ok).toBe(false);
    expect(reader.decodeRevocationList(derOf(ec.caPath)).ok).toBe(false);
  });
});
