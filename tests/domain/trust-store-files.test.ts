/**
 * Trust-store files as people have them (CONTRACT §9.6), read as OpenSSL reads a CA file: curl's
 * cacert.pem (made here in its layout: `##` header, a title and `=` underline above each block),
 * `openssl x509 -text` output, `openssl x509 -trustout` output (`TRUSTED CERTIFICATE`), other
 * labels skipped with one notice. openssl is the oracle twice: the files are its own output, and
 * `openssl verify -CAfile` accepts the same files. `pem` stays strict, and the API's `roots`
 * keeps its 16 blocks and 49152 characters.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { scanPem } from "../../src/domain/certificates/pem.ts";
import { readSuppliedRoots } from "../../src/domain/certificates/trust-anchors.ts";
import {
  readTrustStoreText,
  trustStoreCertificates,
} from "../../src/domain/certificates/trust-store-file.ts";
import { certDer, certPath, certPem } from "../fixtures/fixtures.ts";
import { call, errorOf, jsonOf, testApp } from "../http/helpers.ts";

const decoder = new DerCertificateDecoder();
const scratch = mkdtempSync(join(tmpdir(), "trust-store-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function openssl(...args: string[]): string {
  const ran = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  if (ran.exitCode !== 0) throw new Error(`openssl ${args.join(" ")}: ${ran.stderr.toString()}`);
  return ran.stdout.toString();
}

/** curl's cacert.pem layout: a `##` header, then each certificate under its title. */
function curlStyle(names: readonly string[]): string {
  const header = [
    "##",
    "## Bundle of CA Root Certificates",
    "##",
    "## Certificate data from Mozilla as of: Tue Sep  9 03:12:01 2025 GMT",
    "##",
    "## This is a bundle of X.509 certificates of public Certificate Authorities (CA).",
    "##",
    "",
  ].join("\n");
  return `${header}\n${names.map((name) => `${name}\n${"=".repeat(name.length)}\n${certPem(name)}`).join("\n")}`;
}

const hex = (der: Uint8Array) => Buffer.from(der).toString("hex");

describe("files openssl reads as a CA file", () => {
  const files = {
    "curl's cacert.pem": () => curlStyle(["chain-root", "root-rsa"]),
    "openssl x509 -text": () =>
      openssl("x509", "-in", certPath("chain-root"), "-text") +
      openssl("x509", "-in", certPath("root-rsa"), "-text"),
    "openssl x509 -trustout": () =>
      openssl("x509", "-in", certPath("chain-root"), "-trustout", "-addtrust", "serverAuth") +
      openssl("x509", "-in", certPath("root-rsa"), "-trustout", "-addreject", "emailProtection"),
  };

  for (const [kind, make] of Object.entries(files)) {
    test(`${kind}: both roots, no issue, exactly as openssl verify -CAfile reads them`, async () => {
      const text = make();
      const path = join(scratch, `${kind.replace(/\W+/g, "-")}.pem`);
      writeFileSync(path, text);
      // The oracle: openssl takes the file as a CA file and verifies the chain under it.
      const untrusted = join(scratch, "untrusted.pem");
      writeFileSync(untrusted, certPem("chain-int2") + certPem("chain-int1"));
      expect(
        openssl(
          "verify",
          "-purpose",
          "sslserver",
          "-no_check_time",
          "-CAfile",
          path,
          "-untrusted",
          untrusted,
          certPath("chain-leaf"),
        ),
      ).toContain(": OK");

      const read = await readSuppliedRoots(text, decoder);
      expect(read.issues).toEqual([]);
      expect(read.skippedLabels).toEqual([]);
      expect(read.roots.map((root) => hex(root.der))).toEqual(
        [certDer("chain-root"), certDer("root-rsa")].map(hex),
      );
      expect(trustStoreCertificates(text).ders.map(hex)).toEqual(
        [certDer("chain-root"), certDer("root-rsa")].map(hex),
      );
      // `pem` stays strict: the same text is refused there.
      if (kind !== "openssl x509 -trustout") expect(scanPem(text).issues.length).toBeGreaterThan(0);
    });
  }

  test("other labels are skipped and named once; a private key is still refused", async () => {
    const crl = "-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n";
    const publicKey = "-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n";
    const text = `${crl}${certPem("chain-root")}${crl}${publicKey}`;
    const read = await readSuppliedRoots(text, decoder);
    expect(read.issues).toEqual([]);
    expect(read.skippedLabels).toEqual(["X509 CRL", "PUBLIC KEY"]);
    expect(read.roots).toHaveLength(1);
    const key = "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n";
    const refused = await readSuppliedRoots(`${certPem("chain-root")}${key}`, decoder);
    expect(refused.issues.map((issue) => issue.message)).toEqual(["private key material is not accepted"]);
  });

  test("the mask keeps every offset: a bad block inside a cacert.pem is located where it is", async () => {
    const good = curlStyle(["chain-root"]);
    const text = `${good}\nBroken\n======\n-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n`;
    expect(readTrustStoreText(text).masked).toHaveLength(text.length);
    const read = await readSuppliedRoots(text, decoder);
    expect(read.roots).toHaveLength(1);
    expect(read.issues).toHaveLength(1);
    const at = read.issues[0]?.location?.offset ?? -1;
    expect(text.slice(at)).toStartWith("-----BEGIN CERTIFICATE-----\nnot base64!");
  });
});

describe("the API's roots field", () => {
  const app = testApp({ decoder, verifier: new NodeSignatureVerifier() }).app;
  const chainOf = (
    roots: string,
    pem = certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1"),
  ) => call(app, "POST", "/v1/certificate-chain", { json: { pem, roots } });

  test("a curl-style cacert.pem anchors the chain; the same text as pem is refused", async () => {
    const answer = (await jsonOf(await chainOf(curlStyle(["root-rsa", "chain-root"])))) as {
      status: string;
      anchor: { kind: string };
    };
    expect(answer.status).toBe("complete");
    expect(answer.anchor.kind).toBe("supplied-root");
    const strict = await call(app, "POST", "/v1/certificate-chain", {
      json: { pem: curlStyle(["chain-root"]) },
    });
    expect(strict.status).toBe(400);
  });

  test("keeps 16 blocks and 49152 characters", async () => {
    const seventeen = Array.from({ length: 17 }, () => certPem("chain-root")).join("");
    const many = await chainOf(seventeen);
    expect(many.status).toBe(400);
    expect((await errorOf(many)).issues?.[0]?.path).toEqual(["roots"]);
    const long = await chainOf(`${"#".repeat(49_153)}\n${certPem("chain-root")}`);
    expect(long.status).toBe(400);
    expect((await errorOf(long)).issues?.[0]?.path).toEqual(["roots"]);
  });
});
