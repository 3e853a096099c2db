/**
 * The certificate fields behind the client rules (CONTRACT §8.1) against what `openssl x509 -text`
 * prints, on every generated fixture and every client-rule fixture: key type, bits and curve,
 * the key's SHA-256, extendedKeyUsage, pathLenConstraint, the SCT count, the CRL URLs, name
 * constraints and the signature's digest. Malformed values of these extensions are refused;
 * a malformed SCT list counts 0.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import { certNames, certPath, pemToDers } from "../fixtures/fixtures.ts";
import { extension, withExtensions } from "./der-builder.ts";
import { limiter, ORACLE_TIMEOUT_MS } from "./openssl-oracle.ts";

const decoder = new DerCertificateDecoder();
const CLIENT_RULES = join(import.meta.dir, "..", "fixtures", "client-rules", "certs");

/** OpenSSL's long names of the purposes (`openssl x509 -text`), by the contract's names. */
const PURPOSE_NAMES: Record<string, string> = {
  "TLS Web Server Authentication": "serverAuth",
  "TLS Web Client Authentication": "clientAuth",
  "Code Signing": "codeSigning",
  "E-mail Protection": "emailProtection",
  "Time Stamping": "timeStamping",
  "OCSP Signing": "OCSPSigning",
  "Any Extended Key Usage": "anyExtendedKeyUsage",
};

/** OpenSSL's names of the signature digests, by the decoder's. */
const DIGESTS: Record<string, string> = {
  sha1: "SHA-1",
  sha224: "SHA-224",
  sha256: "SHA-256",
  sha384: "SHA-384",
  sha512: "SHA-512",
};

interface Printed {
  keyBits: number | null;
  publicKeySha256: string;
  extendedKeyUsage: string[] | null;
  pathLenConstraint: number | null;
  sctCount: number;
  crlUrls: string[];
  nameConstraints: string[];
  signatureDigest: string | null;
}

function openssl(args: string[]): string {
  const run = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`openssl ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** The lines of one extension's block in `-text` output (empty when absent). */
function block(text: string, header: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.trim().startsWith(`${header}:`));
  if (at < 0) return [];
  const indent = lines[at]!.search(/\S/);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.search(/\S/) <= indent) break;
    out.push(line.trim());
  }
  return out;
}

function printed(path: string): Printed {
  const text = openssl(["x509", "-in", path, "-noout", "-text"]);
  const pubkey = openssl(["x509", "-in", path, "-noout", "-pubkey"]);
  const spki = Buffer.from(pubkey.replace(/-----[^-]+-----/g, "").replace(/\s/g, ""), "base64");
  const bits = /Public-Key: \((\d+) bit\)/.exec(text);
  // openssl prints no size for EdDSA keys; EVP_PKEY_get_bits answers 256 and 456 (ED25519_BITS, ED448_BITS).
  const edBits = /ED25519 Public-Key:/.test(text) ? 256 : /ED448 Public-Key:/.test(text) ? 456 : null;
  const eku = block(text, "X509v3 Extended Key Usage");
  const bc = block(text, "X509v3 Basic Constraints").join(" ");
  const pathLen = /pathlen:(\d+)/.exec(bc);
  // RSASSA-PSS names its hash on the next line (`Hash Algorithm: sha256`, `sha1 (default)`).
  const digest =
    /Signature Algorithm: rsassaPss\s+Hash Algorithm: (sha\d+)/.exec(text) ??
    /Signature Algorithm: [^\n]*?(sha1|sha224|sha256|sha384|sha512)/i.exec(text);
  return {
    keyBits: bits ? Number(bits[1]) : edBits,
    publicKeySha256: createHash("sha256").update(spki).digest("hex"),
    extendedKeyUsage:
      eku.length === 0
        ? null
        : eku
            .join(", ")
            .split(", ")
            .map((name) => PURPOSE_NAMES[name] ?? name),
    pathLenConstraint: pathLen && /CA:TRUE/.test(bc) ? Number(pathLen[1]) : null,
    sctCount: text.split("\n").filter((line) => line.trim() === "Signed Certificate Timestamp:").length,
    crlUrls: block(text, "X509v3 CRL Distribution Points")
      .filter((line) => line.startsWith("URI:"))
      .map((line) => line.slice(4)),
    nameConstraints: block(text, "X509v3 Name Constraints"),
    signatureDigest: digest ? DIGESTS[digest[1]!.toLowerCase()]! : null,
  };
}

/** The decoder's name constraints in openssl's words (`Permitted:`, `DNS:…`, `IP:a/mask`). */
function constraintLines(certificate: CertificateData): string[] {
  const nc = certificate.nameConstraints;
  if (nc === null) return [];
  const ip = (subtree: { address: Uint8Array; mask: Uint8Array }) =>
    subtree.address.length === 4
      ? `IP:${[...subtree.address].join(".")}/${[...subtree.mask].join(".")}`
      : `IP:(IPv6 subtree)`;
  const side = (label: string, s: typeof nc.permitted) =>
    s.dns.length + s.ip.length === 0 ? [] : [label, ...s.dns.map((d) => `DNS:${d}`), ...s.ip.map(ip)];
  return [...side("Permitted:", nc.permitted), ...side("Excluded:", nc.excluded)];
}

async function decodedPem(path: string): Promise<CertificateData> {
  const [der] = pemToDers(await Bun.file(path).text());
  const result = await decoder.decode(der!);
  if (!result.ok) throw new Error(`${path}: ${result.reason}`);
  return result.certificate;
}

describe("client-rule fields against openssl x509 -text", () => {
  test(
    "every fixture: bits, key SHA-256, EKU, pathLen, SCTs, CRL URLs, name constraints, digest",
    async () => {
      const paths = [
        ...certNames().map(certPath),
        ...readdirSync(CLIENT_RULES).map((file) => join(CLIENT_RULES, file)),
      ];
      expect(paths.length).toBeGreaterThan(100);
      const schedule = limiter(4);
      const mismatches = (
        await Promise.all(
          paths.map((path) =>
            schedule(async () => {
              const certificate = await decodedPem(path);
              const ours: Printed = {
                keyBits: certificate.keyBits,
                publicKeySha256: certificate.publicKeySha256,
                extendedKeyUsage: certificate.extendedKeyUsage,
                pathLenConstraint: certificate.pathLenConstraint,
                sctCount: certificate.sctCount,
                crlUrls: certificate.crlUrls,
                nameConstraints: constraintLines(certificate),
                signatureDigest: certificate.signatureDigest,
              };
              const theirs = printed(path);
              return Bun.deepEquals(ours, theirs) ? [] : [{ path, ours, theirs }];
            }),
          ),
        )
      ).flat();
      expect(mismatches).toEqual([]);
    },
    ORACLE_TIMEOUT_MS,
  );

  test("the client-rule fixtures hold what their names say", async () => {
    const at = (name: string) => decodedPem(join(CLIENT_RULES, `${name}.pem`));
    expect((await at("good")).sctCount).toBe(2);
    expect((await at("no-sct")).sctCount).toBe(0);
    expect((await at("eku-any")).extendedKeyUsage).toEqual(["clientAuth", "anyExtendedKeyUsage"]);
    expect((await at("no-eku-2019")).extendedKeyUsage).toBeNull();
    expect((await at("rsa-1023")).keyBits).toBe(1023);
    expect((await at("int-pathlen0")).pathLenConstraint).toBe(0);
    expect((await at("int-sha1")).signatureDigest).toBe("SHA-1");
    expect((await at("no-sct")).crlUrls).toEqual(["http://crl.client-rules.test/int.crl"]);
    expect((await at("int-nc")).nameConstraints).toEqual({
      permitted: {
        dns: ["allowed.test"],
        ip: [{ address: new Uint8Array([10, 0, 0, 0]), mask: new Uint8Array([255, 0, 0, 0]) }],
        email: [],
        uri: [],
        directoryName: [],
        unsupported: [],
      },
      excluded: {
        dns: ["blocked.allowed.test"],
        ip: [],
        email: [],
        uri: [],
        directoryName: [],
        unsupported: [],
      },
    });
  });
});

describe("the client rules' extensions, malformed", () => {
  const base = async () => pemToDers(await Bun.file(join(CLIENT_RULES, "good.pem")).text())[0]!;
  const withValue = async (oid: string, hex: string) =>
    decoder.decode(withExtensions(await base(), extension(oid, Buffer.from(hex.replace(/\s/g, ""), "hex"))));

  test("a malformed extendedKeyUsage, nameConstraints or cRLDistributionPoints refuses the certificate", async () => {
    for (const [oid, hex, reason] of [
      ["2.5.29.37", "30 03 02 01 05", "malformed extendedKeyUsage extension"],
      ["2.5.29.30", "30 04 a2 02 30 00", "malformed nameConstraints extension"],
      ["2.5.29.31", "30 05 30 03 a0 01 00", "malformed cRLDistributionPoints extension"],
    ] as const) {
      expect(await withValue(oid, hex)).toEqual({ ok: false, reason });
    }
  });

  test("an SCT list whose lengths do not add up counts 0, and the certificate still decodes", async () => {
    for (const hex of ["04 04 00 05 00 01", "04 01 00", "05 00", "04 06 00 04 00 03 aa bb"]) {
      const result = await withValue("1.3.6.1.4.1.11129.2.4.2", hex);
      expect(result.ok && result.certificate.sctCount).toBe(0);
    }
    const one = await withValue("1.3.6.1.4.1.11129.2.4.2", "04 06 00 04 00 02 aa bb");
    expect(one.ok && one.certificate.sctCount).toBe(1);
  });
});
