/**
 * The strict-DER fixtures (tests/fixtures/README.md, "Strict DER") through the real decoder and
 * verifier and the inspection use case, each checked against openssl where openssl has a say.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import {
  type CertificateBundleResult,
  inspectCertificateBundle,
} from "../../src/domain/certificates/inspect.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { MAX_PEM_LENGTH } from "../../src/domain/limits.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import {
  certDer,
  certPath,
  certPem,
  chainPem,
  GENERATED_DIR,
  strictDer,
  strictNames,
  strictPath,
  strictPem,
} from "../fixtures/fixtures.ts";
import { ORACLE_TIMEOUT_MS, opensslLoads } from "./openssl-oracle.ts";

const decoder = new DerCertificateDecoder();
const deps = {
  clock: fixedClock("2030-01-01T00:00:00Z"),
  decoder,
  verifier: new NodeSignatureVerifier(),
  roots: noKnownRoots,
};
const inspect = (pem: string): Promise<CertificateBundleResult> => inspectCertificateBundle({ pem }, deps);

async function rejection(pem: string): Promise<DomainError> {
  try {
    await inspect(pem);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected the inspection to be rejected");
}

/** Exit code and output of an openssl command. */
function openssl(...args: string[]): { code: number; output: string } {
  const run = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe", cwd: GENERATED_DIR });
  return { code: run.exitCode ?? -1, output: run.stdout.toString() + run.stderr.toString() };
}

test("the strict/ folder holds the four malformed or inconsistent certificates", () => {
  expect(strictNames()).toEqual(["alg-mismatch", "bit-string-unused-8", "null-with-content", "oid-bomb"]);
});

describe("a CA whose keyCertSign bit sits in the keyUsage padding", () => {
  test("keyCertSign is false, as openssl prints it", async () => {
    const result = await decoder.decode(certDer("ku-padding-ca"));
    if (!result.ok) throw new Error(result.reason);
    expect([result.certificate.ca, result.certificate.keyCertSign]).toEqual([true, false]);
    const printed = openssl("x509", "-in", certPath("ku-padding-ca"), "-noout", "-ext", "keyUsage").output;
    expect(printed).toContain("Digital Signature");
    expect(printed).not.toContain("Certificate Sign");
  });

  test("with the leaf it signs: the signature verifies and the issuer is rejected for its keyUsage", async () => {
    const result = await inspect(chainPem("ku-padding"));
    expect(result.certificates.map((c) => c.keyCertSign)).toEqual([false, false, true]);
    const link = result.relationships.find((r) => r.childIndex === 0 && r.issuerIndex === 1);
    expect(link?.signature).toBe("verified");
    expect(link?.issuerEligible).toBe(false);
    const rejected = result.findings.filter((f) => f.code === "ISSUER_KEY_USAGE_REJECTED");
    expect(rejected.map((f) => f.certificateIndexes)).toEqual([[0, 1]]);
  });

  test("openssl verify refuses the chain for the same reason", () => {
    const { code, output } = openssl(
      "verify",
      "-CAfile",
      certPath("root-rsa"),
      "-untrusted",
      certPath("ku-padding-ca"),
      certPath("leaf-under-ku-padding"),
    );
    expect(code).not.toBe(0);
    expect(output).toContain("key usage does not include certificate signing");
  });
});

describe("malformed DER in a field the decoder does not need", () => {
  for (const name of ["null-with-content", "bit-string-unused-8"]) {
    test(
      `${name}: openssl refuses to load it, and the block is rejected where it is`,
      async () => {
        expect(await opensslLoads(strictDer(name))).toBe(false);
        expect((await decoder.decode(strictDer(name))).ok).toBe(false);
        const first = certPem("leaf-rsa");
        const pem = first + strictPem(name);
        const error = await rejection(pem);
        expect(error.code).toBe("INVALID_INPUT");
        expect(error.issues).toHaveLength(1);
        const issue = error.issues![0]!;
        expect(issue.path).toEqual(["pem"]);
        expect(issue.location).toEqual({
          line: first.split("\n").length,
          offset: first.length,
          end: pem.trimEnd().length,
        });
        expect(JSON.stringify(error)).not.toContain(strictPem(name).split("\n")[1]!.slice(0, 16));
      },
      ORACLE_TIMEOUT_MS,
    );
  }
});

describe("inner and outer signature algorithms differ", () => {
  test("signatureAlgorithm shows the outer one; the self-signature is failed", async () => {
    const result = await inspect(strictPem("alg-mismatch"));
    const [entry] = result.certificates;
    expect(entry?.signatureAlgorithm).toBe("sha512WithRSAEncryption");
    expect(entry?.selfSignature).toBe("failed");
    const failed = result.findings.filter((f) => f.code === "SELF_SIGNATURE_FAILED");
    expect(failed.map((f) => [f.certificateIndexes, f.evidence])).toEqual([
      [[0], { signatureAlgorithm: "sha512WithRSAEncryption" }],
    ]);
    expect(result.findings.map((f) => f.code)).not.toContain("SELF_SIGNED_CERTIFICATE");
  });

  test("the signature itself is a valid SHA-512 one: only the mismatch fails it", async () => {
    const decoded = await decoder.decode(strictDer("alg-mismatch"));
    if (!decoded.ok) throw new Error(decoded.reason);
    const cert = decoded.certificate;
    expect(cert.signatureAlgorithmsMatch).toBe(false);
    // TBSCertificate and signature of the DER: 30 82 LLLL | 30 82 LLLL … | 30 0d … | 03 82 01 01 00 sig.
    const der = cert.der;
    const tbsEnd = 4 + 4 + ((der[6]! << 8) | der[7]!);
    const key = await crypto.subtle.importKey(
      "spki",
      Buffer.from(cert.publicKeyKey, "hex"),
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
      false,
      ["verify"],
    );
    const signature = der.slice(der.length - 256);
    const ok = await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, der.slice(4, tbsEnd));
    expect(ok).toBe(true);
  });

  test("openssl refuses its self-signature too", () => {
    const path = strictPath("alg-mismatch");
    const { code, output } = openssl("verify", "-check_ss_sig", "-CAfile", path, path);
    expect(code).not.toBe(0);
    expect(output).toContain("certificate signature failure");
  });
});

describe("an OID bomb just under the PEM size limit", () => {
  test(
    "refused at once and located; openssl loads it (an arc over 32 bits is a deliberate difference)",
    async () => {
      const pem = strictPem("oid-bomb");
      expect(pem.length).toBeLessThanOrEqual(MAX_PEM_LENGTH);
      expect(pem.length).toBeGreaterThan(MAX_PEM_LENGTH - 1000);
      expect(await decoder.decode(strictDer("oid-bomb"))).toEqual({
        ok: false,
        reason: "malformed signature algorithm",
      });
      const error = await rejection(pem);
      expect(error.issues?.map((i) => i.location?.line)).toEqual([1]);
      expect(await opensslLoads(strictDer("oid-bomb"))).toBe(true);
    },
    ORACLE_TIMEOUT_MS,
  );
});
