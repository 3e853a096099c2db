/**
 * CONTRACT §4.1: each common PEM mistake gives exactly one issue, located, with words that name
 * the mistake and never quote the text. Inputs are made the way users make them: real fixture
 * certificates, `cat` without a final newline, `openssl x509 -text`, DER read as text, PKCS#7.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { inspectCertificateBundle } from "../../src/domain/certificates/inspect.ts";
import {
  OUTSIDE_TEXT_MESSAGES,
  PRIVATE_KEY_MESSAGE,
  privateKeyIssues,
  scanPem,
} from "../../src/domain/certificates/pem.ts";
import { DomainError, type Issue } from "../../src/domain/errors.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { certDer, certPath, certPem, chainPath, privateKeyPem } from "../fixtures/fixtures.ts";

const BODY = "MAMCAQU=";

function openssl(...args: string[]): string {
  const ran = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  if (ran.exitCode !== 0) throw new Error(`openssl ${args.join(" ")}: ${ran.stderr.toString()}`);
  return ran.stdout.toString();
}

/** No issue quotes a line of the input (a label excepted), and every one is located on its text. */
function expectClean(issues: Issue[], pem: string): void {
  for (const issue of issues) {
    expect(issue.path).toEqual(["pem"]);
    expect(issue.location).toBeDefined();
    const { offset, end } = issue.location!;
    expect(pem.slice(offset, end).trim()).not.toBe("");
    for (const line of pem.split(/\r\n|\r|\n/)) {
      const text = line.trim();
      if (text.length >= 12 && !text.startsWith("-----")) expect(issue.message).not.toContain(text);
    }
  }
}

interface Case {
  name: string;
  pem: () => string;
  message: string | RegExp;
  /** The located text, as a function of the input. */
  located: (pem: string) => string;
  /** How many CERTIFICATE blocks are still read. */
  blocks: number;
}

const leaf = () => certPem("leaf-rsa");
const intermediate = () => certPem("int-rsa");

/**
 * What CONTRACT §4.1 says text outside blocks spans: from its first non-whitespace character to
 * the end of the line holding its last one. A DER file's last octets are random (the signature),
 * so they may be whitespace that this extent keeps and `trim` would drop.
 */
function outsideTextExtent(pem: string): string {
  const trimmed = pem.trim();
  const from = pem.indexOf(trimmed);
  const last = from + trimmed.length;
  const lineBreak = pem.slice(last).search(/\r|\n/);
  return pem.slice(from, lineBreak === -1 ? pem.length : last + lineBreak);
}

const CASES: Case[] = [
  {
    name: "two files joined by cat, the first without a final newline",
    pem: () => leaf().trimEnd() + intermediate(),
    message: OUTSIDE_TEXT_MESSAGES.missingLineBreak,
    located: () => "-----END CERTIFICATE----------BEGIN CERTIFICATE-----",
    blocks: 2,
  },
  {
    name: "a DER file read as UTF-8 text",
    pem: () => new TextDecoder().decode(certDer("leaf-rsa")),
    message: OUTSIDE_TEXT_MESSAGES.binary,
    located: outsideTextExtent,
    blocks: 0,
  },
  {
    name: "a DER file read as Latin-1 text",
    pem: () => Buffer.from(certDer("int-rsa")).toString("latin1"),
    message: OUTSIDE_TEXT_MESSAGES.binary,
    located: outsideTextExtent,
    blocks: 0,
  },
  {
    // Whatever the fixture's random last octet is, this path is always taken here.
    name: "a DER file whose last octets are whitespace, read as Latin-1 text",
    pem: () => Buffer.concat([certDer("int-rsa"), Uint8Array.of(0x20, 0x09)]).toString("latin1"),
    message: OUTSIDE_TEXT_MESSAGES.binary,
    located: outsideTextExtent,
    blocks: 0,
  },
  {
    name: "openssl x509 -text output around the block",
    pem: () => openssl("x509", "-in", certPath("leaf-rsa"), "-text"),
    message: OUTSIDE_TEXT_MESSAGES.opensslText,
    located: (pem) => pem.slice(0, pem.indexOf("-----BEGIN")).trim(),
    blocks: 1,
  },
  {
    name: "openssl x509 -subject -issuer lines before the block",
    pem: () => openssl("x509", "-in", certPath("leaf-rsa"), "-subject", "-issuer"),
    message: OUTSIDE_TEXT_MESSAGES.opensslAttributes,
    located: (pem) => pem.slice(0, pem.indexOf("-----BEGIN")).trim(),
    blocks: 1,
  },
  {
    name: "# comment lines before the block",
    pem: () => `# www.example.com\n# issued by Fixture Intermediate RSA\n${leaf()}`,
    message: OUTSIDE_TEXT_MESSAGES.comment,
    located: () => "# www.example.com\n# issued by Fixture Intermediate RSA",
    blocks: 1,
  },
  {
    name: "a block whose BEGIN line was lost",
    pem: () => leaf().slice(leaf().indexOf("\n") + 1),
    message: OUTSIDE_TEXT_MESSAGES.base64WithoutBegin,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "base64 and the END line on one line",
    pem: () => leaf().replace("\n-----END", "-----END"),
    message: OUTSIDE_TEXT_MESSAGES.missingLineBreakBeforeEnd,
    located: (pem) => pem.trim(),
    blocks: 1,
  },
  {
    name: "a PKCS#7 bundle (openssl crl2pkcs7)",
    pem: () => openssl("crl2pkcs7", "-nocrl", "-certfile", chainPath("rsa-sha256")),
    message:
      'PEM blocks labelled "PKCS7" are not accepted; only CERTIFICATE blocks are: this is a PKCS#7 bundle, so extract its certificates with openssl pkcs7 -print_certs -in bundle.p7b -out bundle.pem',
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a certificate with trust settings (openssl x509 -trustout)",
    pem: () => openssl("x509", "-in", certPath("leaf-rsa"), "-trustout", "-addtrust", "serverAuth"),
    message: /"TRUSTED CERTIFICATE".*openssl x509 -in cert\.pem -out plain\.pem/,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a public key (openssl x509 -pubkey -noout)",
    pem: () => openssl("x509", "-in", certPath("leaf-rsa"), "-pubkey", "-noout"),
    message: /"PUBLIC KEY".*a public key alone is not a certificate/,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a certificate signing request",
    pem: () => `-----BEGIN CERTIFICATE REQUEST-----\n${BODY}\n-----END CERTIFICATE REQUEST-----\n`,
    message: /"CERTIFICATE REQUEST".*send it to your CA/,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a revocation list",
    pem: () => `-----BEGIN X509 CRL-----\n${BODY}\n-----END X509 CRL-----\n`,
    message: /"X509 CRL".*not a certificate, so leave it out/,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a lower-case label",
    pem: () => leaf().replaceAll("CERTIFICATE", "certificate"),
    message: /"certificate".*labels are case-sensitive/,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
  {
    name: "a private key alone",
    pem: () => privateKeyPem("pkcs8"),
    message: PRIVATE_KEY_MESSAGE,
    located: (pem) => pem.trim(),
    blocks: 0,
  },
];

describe("each common mistake gives exactly one located issue", () => {
  test.each(CASES.map((c) => [c.name, c]))("%s", (_, c) => {
    const pem = c.pem();
    const scan = scanPem(pem);
    expect(scan.issues).toHaveLength(1);
    const [issue] = scan.issues;
    if (typeof c.message === "string") expect(issue!.message).toBe(c.message);
    else expect(issue!.message).toMatch(c.message);
    expect(pem.slice(issue!.location!.offset, issue!.location!.end)).toBe(c.located(pem));
    expect(issue!.location!.line).toBe(pem.slice(0, issue!.location!.offset).split(/\r\n|\r|\n/).length);
    expect(scan.blocks).toHaveLength(c.blocks);
    expectClean(scan.issues, pem);
  });
});

describe("runs of outside text", () => {
  test("consecutive lines are one issue; a blank line starts another", () => {
    const pem = `note one\nnote two\n\nnote three\n${leaf()}`;
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.location)).toEqual([
      { line: 1, offset: 0, end: 17 },
      { line: 4, offset: 19, end: 29 },
    ]);
    expect(scan.issues.every((i) => i.message === OUTSIDE_TEXT_MESSAGES.unexpected)).toBe(true);
  });

  test("a run ends at a BEGIN line: text before and after a block are two issues", () => {
    const pem = `# before\n${leaf()}# after\n`;
    expect(scanPem(pem).issues.map((i) => i.message)).toEqual([
      OUTSIDE_TEXT_MESSAGES.comment,
      OUTSIDE_TEXT_MESSAGES.comment,
    ]);
  });

  test("three files joined without newlines: one issue per missing line break, all blocks read", () => {
    const pem = leaf().trimEnd() + intermediate().trimEnd() + certPem("root-rsa");
    const scan = scanPem(pem);
    expect(scan.issues.map((i) => i.message)).toEqual([
      OUTSIDE_TEXT_MESSAGES.missingLineBreak,
      OUTSIDE_TEXT_MESSAGES.missingLineBreak,
    ]);
    expect(scan.blocks.map((b) => b.index)).toEqual([0, 1, 2]);
    expect([...scan.blocks[1]!.der]).toEqual([...certDer("int-rsa")]);
    expect(scan.blocks[1]!.line).toBe(scan.issues[0]!.location!.line);
  });

  test("a word of letters is not mistaken for base64", () => {
    expect(scanPem(`junk\n${leaf()}`).issues[0]!.message).toBe(OUTSIDE_TEXT_MESSAGES.unexpected);
  });

  test("text glued before a BEGIN line is located up to the BEGIN; the block is read", () => {
    const pem = `leaf:${leaf()}`;
    const scan = scanPem(pem);
    expect(scan.issues).toEqual([
      { message: OUTSIDE_TEXT_MESSAGES.unexpected, path: ["pem"], location: { line: 1, offset: 0, end: 5 } },
    ]);
    expect(scan.blocks).toHaveLength(1);
  });
});

describe("through the use case with the real decoder", () => {
  const deps = {
    clock: fixedClock("2026-06-01T00:00:00Z"),
    decoder: new DerCertificateDecoder(),
    verifier: new NodeSignatureVerifier(),
    roots: noKnownRoots,
  };

  test("cat without a final newline: the request is refused with that one issue", async () => {
    const pem = leaf().trimEnd() + intermediate();
    const error = await inspectCertificateBundle({ pem }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).issues.map((i) => i.message)).toEqual([
      OUTSIDE_TEXT_MESSAGES.missingLineBreak,
    ]);
  });
});

describe("privateKeyIssues: the server's key issues, for refusing before sending", () => {
  test("same message and location as the scan, nothing else", () => {
    const key = privateKeyPem("rsa-traditional");
    const pem = `${leaf()}\n# my key\n${key}`;
    const issues = privateKeyIssues(pem);
    expect(issues).toEqual(scanPem(pem).issues.filter((i) => i.message === PRIVATE_KEY_MESSAGE));
    expect(issues).toEqual([
      {
        message: PRIVATE_KEY_MESSAGE,
        path: ["pem"],
        location: {
          line: expect.any(Number) as unknown as number,
          offset: pem.indexOf("-----BEGIN RSA"),
          end: pem.trimEnd().length,
        },
      },
    ]);
  });

  test("whatever the size or block count: a key after 20 certificates in 60 KB is still found", () => {
    const pem = `${leaf().repeat(20)}${" ".repeat(60_000)}\n${privateKeyPem("pkcs8")}`;
    expect(scanPem(pem).issues.map((i) => i.message)).toEqual(["pem is longer than 49152 characters"]);
    expect(privateKeyIssues(pem)).toHaveLength(1);
  });

  test("none in a bundle of certificates", () => {
    expect(privateKeyIssues(leaf() + intermediate())).toEqual([]);
  });
});
