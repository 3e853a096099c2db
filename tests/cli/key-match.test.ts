/**
 * `nettools key-match`, spawned as a user runs it (CONTRACT §8.2):
 * - agreement with openssl: every key format (PKCS#8 RSA/P-256/P-384/Ed25519/Ed448, PKCS#1, SEC1
 *   with and without EC PARAMETERS, encrypted PKCS#8 with --passin env: and file:), certificates
 *   and requests give the SHA-256 of the SubjectPublicKeyInfo that `openssl pkey -pubout`,
 *   `openssl x509 -pubkey` and `openssl req -pubkey` print, and match exactly when those agree;
 * - HAProxy's combined file, the -k notice, exit codes 0/1/2 and every input error;
 * - no server is ever contacted (--server and NETTOOLS_SERVER change nothing);
 * - privacy: for any input, broken ones included, no 16-character run of a key's base64 and no
 *   16-digit run of its DER's hex appears on stdout or stderr.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ed448PublicKey } from "../../src/adapters/keys-node/ed448.ts";
import { composeCli } from "../../src/cli/composition-root.ts";
import { main } from "../../src/cli/main.ts";
import { KEY_PASSPHRASE, keyFixture, keyFixturePath } from "../fixtures/key-fixtures.ts";
import { type Ran, runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-key-match-"));
const PASS_ENV = { KEY_PASS: KEY_PASSPHRASE };
const passFile = join(scratch, "pass.txt");
writeFileSync(passFile, `${KEY_PASSPHRASE}\nsecond line is not read\n`);

const nettools = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runNettools(args, { ...options, cwd: scratch });
const k = (name: string) => keyFixturePath(`keys/${name}.pem`);
const r = (name: string) => keyFixturePath(`requests/${name}.pem`);
const c = (name: string) => keyFixturePath(`certs/${name}.pem`);
const f = (name: string) => keyFixturePath(`files/${name}`);

/** SHA-256 of the DER SubjectPublicKeyInfo openssl writes for `args` (the oracle). */
function opensslSpkiHash(args: string[]): string {
  const pem = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  if (pem.exitCode !== 0) throw new Error(`openssl ${args.join(" ")}: ${pem.stderr.toString()}`);
  const der = Bun.spawnSync(["openssl", "pkey", "-pubin", "-outform", "DER"], {
    stdin: pem.stdout,
    stdout: "pipe",
  });
  return createHash("sha256").update(der.stdout).digest("hex");
}
const keyHash = (path: string, encrypted = false) =>
  opensslSpkiHash([
    "pkey",
    "-in",
    path,
    "-pubout",
    ...(encrypted ? ["-passin", `pass:${KEY_PASSPHRASE}`] : []),
  ]);
const certHash = (path: string) => opensslSpkiHash(["x509", "-in", path, "-noout", "-pubkey"]);
const requestHash = (path: string) => opensslSpkiHash(["req", "-in", path, "-noout", "-pubkey"]);

interface Answer {
  match: boolean;
  key: { keyType: string; keyBits: number | null; publicKeySha256: string } | null;
  csr: { subject: string; publicKeySha256: string } | null;
  certificates: { index: number; subject: string; publicKeySha256: string }[];
  matchingCertificateIndexes: number[];
}

async function json(args: string[], env: Record<string, string> = {}): Promise<{ ran: Ran; answer: Answer }> {
  const ran = await nettools(["key-match", "--json", ...args], { env });
  return { ran, answer: JSON.parse(ran.stdout) as Answer };
}

/** Every key of the fixtures: file, type, bits, its pair (a request or certificate of the same key). */
const KEYS: { name: string; keyType: string; keyBits: number; encrypted?: boolean }[] = [
  { name: "rsa", keyType: "RSA", keyBits: 2048 },
  { name: "rsa.pkcs1", keyType: "RSA", keyBits: 2048 },
  { name: "rsa.enc", keyType: "RSA", keyBits: 2048, encrypted: true },
  { name: "p256", keyType: "EC", keyBits: 256 },
  { name: "p256.sec1-params", keyType: "EC", keyBits: 256 },
  { name: "p384", keyType: "EC", keyBits: 384 },
  { name: "p384.sec1", keyType: "EC", keyBits: 384 },
  { name: "p384.enc", keyType: "EC", keyBits: 384, encrypted: true },
  { name: "ed25519", keyType: "Ed25519", keyBits: 256 },
  { name: "ed25519.enc", keyType: "Ed25519", keyBits: 256, encrypted: true },
  { name: "ed448", keyType: "Ed448", keyBits: 456 },
  { name: "ed448.enc", keyType: "Ed448", keyBits: 456, encrypted: true },
  { name: "rsa-2047", keyType: "RSA", keyBits: 2047 },
];

describe("agreement with openssl: the same SubjectPublicKeyInfo, key by key", () => {
  test.each(KEYS)(
    "$name: publicKeySha256 is openssl pkey -pubout's",
    async ({ name, keyType, keyBits, encrypted }) => {
      const { ran, answer } = await json(
        ["-k", k(name), "-c", c("other"), "--passin", "env:KEY_PASS"],
        PASS_ENV,
      );
      expect(ran.code).toBe(1); // other.pem holds another key
      expect(answer.key).toEqual({ keyType, keyBits, publicKeySha256: keyHash(k(name), encrypted) });
      expect(answer.certificates).toEqual([
        {
          index: 0,
          subject: "CN=other.example.com,O=Network Tools Fixtures,C=US",
          publicKeySha256: certHash(c("other")),
        },
      ]);
      expect(answer).toMatchObject({ match: false, csr: null, matchingCertificateIndexes: [] });
    },
  );

  test.each([
    ["rsa", "rsa", "rsa"],
    ["rsa.pkcs1", "rsa", "rsa"],
    ["rsa.enc", "rsa-pss", "rsa"],
    ["p256.sec1-params", "p256", "p256"],
    ["p384.enc", "p384", null],
    ["ed25519", "ed25519", null],
    ["ed448.enc", "ed448", "ed448"],
  ] as const)(
    "key %s, request %s, certificate %s: a match exactly when openssl's keys agree",
    async (key, request, certificate) => {
      const args = ["-k", k(key), "-r", r(request), "--passin", `file:${passFile}`];
      if (certificate !== null) args.push("-c", c(certificate), "-c", c("other"));
      const { ran, answer } = await json(args);
      const encrypted = key.endsWith(".enc");
      const expectedKey = keyHash(k(key), encrypted);
      expect(answer.csr?.publicKeySha256).toBe(requestHash(r(request)));
      expect(expectedKey).toBe(requestHash(r(request)));
      if (certificate !== null) {
        expect(answer.certificates.map((entry) => entry.publicKeySha256)).toEqual([
          certHash(c(certificate)),
          certHash(c("other")),
        ]);
        expect(answer.matchingCertificateIndexes).toEqual([0]);
      }
      expect(answer.match).toBe(true);
      expect(ran.code).toBe(0);
    },
  );

  test("a request and certificates without a key: positions holding the request's key", async () => {
    const { ran, answer } = await json(["-r", r("p256"), "-c", c("other"), "-c", c("ca"), "-c", c("p256")]);
    expect(answer.key).toBeNull();
    expect(answer.matchingCertificateIndexes).toEqual([2]);
    expect(answer.match).toBe(true);
    expect(ran.code).toBe(0);
    const none = await json(["-r", r("rsa"), "-c", c("p256")]);
    expect(none.answer).toMatchObject({ match: false, matchingCertificateIndexes: [] });
    expect(none.ran.code).toBe(1);
  });

  test("the Ed448 public half computed in this process is openssl's (Bun has no Ed448)", () => {
    for (const name of ["ed448", "ed448.enc"]) {
      const der = Bun.spawnSync(
        ["openssl", "pkey", "-in", k(name), "-outform", "DER", "-passin", `pass:${KEY_PASSPHRASE}`],
        { stdout: "pipe" },
      ).stdout;
      const pub = Bun.spawnSync(
        [
          "openssl",
          "pkey",
          "-in",
          k(name),
          "-pubout",
          "-outform",
          "DER",
          "-passin",
          `pass:${KEY_PASSPHRASE}`,
        ],
        {
          stdout: "pipe",
        },
      ).stdout;
      expect(Buffer.from(ed448PublicKey(new Uint8Array(der.subarray(der.length - 57)))).toString("hex")).toBe(
        Buffer.from(pub.subarray(pub.length - 57)).toString("hex"),
      );
    }
  });
});

describe("HAProxy's combined file and the text output", () => {
  test("a crt file with the chain and the key: the key in it is the key input", async () => {
    for (const file of ["haproxy.pem", "haproxy-sec1.pem"]) {
      const ran = await nettools(["key-match", "-c", f(file), "-r", r("p256")], { env: { NO_COLOR: "1" } });
      const hash = keyHash(k("p256"));
      expect(ran.stdout).toBe(
        [
          `key ${f(file)} (EC 256 bits): publicKeySha256 ${hash}`,
          `request (CN=www.example.com,O=Network Tools Fixtures,C=US): publicKeySha256 ${hash}`,
          `certificate 0 (CN=www.example.com): publicKeySha256 ${hash}`,
          `certificate 1 (CN=Fixture Key CA): publicKeySha256 ${certHash(c("ca"))}`,
          "Match: the request is for this key; certificate 0 (CN=www.example.com) holds the key.",
          "",
        ].join("\n"),
      );
      expect(ran.stderr).toBe("");
      expect(ran.code).toBe(0);
    }
  });

  test("with -k, the key in the -c file is ignored, with one notice", async () => {
    const ran = await nettools(["key-match", "-c", f("haproxy.pem"), "-k", k("other-p256")]);
    expect(ran.stderr).toBe(
      `notice: the private key in ${f("haproxy.pem")} is ignored: -k ${k("other-p256")} is the key compared\n`,
    );
    expect(ran.stdout).toContain("No match: no certificate holds the key.");
    expect(ran.code).toBe(1);
  });

  test("a key and a request of different keys", async () => {
    const ran = await nettools(["key-match", "-k", k("p256"), "-r", r("rsa")]);
    expect(ran.stdout).toEndWith("No match: the request is for another key.\n");
    expect(ran.code).toBe(1);
  });

  test("stdin for one input", async () => {
    const ran = await nettools(["key-match", "-k", "-", "-c", c("p256"), "--json"], {
      stdin: keyFixture("keys/p256.pem"),
    });
    expect((JSON.parse(ran.stdout) as Answer).match).toBe(true);
    expect(ran.code).toBe(0);
  });
});

describe("no server is ever contacted", () => {
  test("--server and NETTOOLS_SERVER (unreachable) change neither the answer nor the exit code", async () => {
    const args = ["key-match", "-k", k("p256"), "-c", c("p256"), "--json"];
    const plain = await nettools(args);
    const flagged = await nettools([...args, "--server", "http://127.0.0.1:9"]);
    const environment = await nettools(args, { env: { NETTOOLS_SERVER: "http://127.0.0.1:9" } });
    for (const ran of [flagged, environment]) {
      expect(ran.stdout).toBe(plain.stdout);
      expect(ran.code).toBe(0);
      expect(ran.stderr).toContain("key-match runs in this process only");
    }
  });
});

describe("invalid input: exit 2, one clear message", () => {
  const cases: [string, string[], RegExp][] = [
    ["fewer than two inputs", ["-k", "KEY:p256"], /two or three inputs/],
    ["a -c file without a key, alone", ["-c", "CERT:p256"], /two or three inputs/],
    [
      "an unreadable file",
      ["-k", join(scratch, "missing.pem"), "-c", "CERT:p256"],
      /cannot read .*missing\.pem: ENOENT/,
    ],
    ["no key in -k", ["-k", "CERT:p256", "-c", "CERT:p256"], /holds no PEM private key/],
    [
      "several keys in -k",
      ["-k", "FILE:two-keys.pem", "-c", "CERT:p256"],
      /holds 2 private keys; -k takes one/,
    ],
    ["no certificate in -c", ["-c", "KEY:p384", "-r", "REQ:p384"], /contains no CERTIFICATE block/],
    [
      "an encrypted key without --passin",
      ["-k", "KEY:rsa.enc", "-r", "REQ:rsa"],
      /give its passphrase with --passin/,
    ],
    [
      "a wrong passphrase",
      ["-k", "KEY:rsa.enc", "-r", "REQ:rsa", "--passin", "env:WRONG"],
      /passphrase is wrong/,
    ],
    [
      "a wrong passphrase, Ed448",
      ["-k", "KEY:ed448.enc", "-r", "REQ:ed448", "--passin", "env:WRONG"],
      /passphrase is wrong/,
    ],
    [
      "legacy encryption",
      ["-k", "KEY:rsa.legacy", "-r", "REQ:rsa", "--passin", "env:KEY_PASS"],
      /Proc-Type: 4,ENCRYPTED.*openssl pkey -in old\.key -aes256 -out new\.key/,
    ],
    [
      "a DER key file",
      ["-k", "DER", "-r", "REQ:rsa"],
      /is a DER private key: it is not read or sent.*openssl pkey -inform DER/,
    ],
    ["a DER key file as -c", ["-c", "DER", "-r", "REQ:rsa"], /is a DER private key: it is not read or sent/],
    ["a DER key file as -r", ["-r", "DER", "-k", "KEY:rsa"], /is a DER private key: it is not read or sent/],
    [
      "a certificate as the request",
      ["-r", "CERT:p256", "-k", "KEY:p256"],
      /labelled "CERTIFICATE" are not accepted/,
    ],
    [
      "--passin of another form",
      ["-k", "KEY:rsa.enc", "-r", "REQ:rsa", "--passin", "pass:secret"],
      /--passin takes env:VAR or file:PATH/,
    ],
    [
      "an unset variable",
      ["-k", "KEY:rsa.enc", "-r", "REQ:rsa", "--passin", "env:NOT_SET"],
      /NOT_SET is not set/,
    ],
  ];
  const resolve = (arg: string) =>
    arg.startsWith("KEY:")
      ? k(arg.slice(4))
      : arg.startsWith("CERT:")
        ? c(arg.slice(5))
        : arg.startsWith("REQ:")
          ? r(arg.slice(4))
          : arg.startsWith("FILE:")
            ? f(arg.slice(5))
            : arg === "DER"
              ? keyFixturePath("keys/rsa.der")
              : arg;
  test.each(cases)("%s", async (_label, args, message) => {
    const ran = await nettools(["key-match", ...args.map(resolve)], {
      env: { ...PASS_ENV, WRONG: "not the passphrase", NO_COLOR: "1" },
    });
    expect(ran.stderr).toMatch(message);
    expect(ran.stdout).toBe("");
    expect(ran.code).toBe(2);
  });

  test("--json: the error as an envelope on stdout", async () => {
    const ran = await nettools(["key-match", "--json", "-k", k("rsa.enc"), "-r", r("rsa")]);
    expect(JSON.parse(ran.stdout)).toEqual({
      error: { code: "INVALID_INPUT", message: expect.stringContaining("--passin"), issues: [] },
    });
    expect(ran.code).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Privacy.

/** Every 16-character run of `text` (step 4), for "no run of it appears" checks. */
function runsOf(text: string, step = 4): string[] {
  const runs: string[] = [];
  for (let at = 0; at + 16 <= text.length; at += step) runs.push(text.slice(at, at + 16));
  return runs;
}

/** The base64 and DER hex of every key block of a PEM text. */
function secretsOf(pem: string): { base64: string; hex: string }[] {
  return [...pem.matchAll(/-----BEGIN ([A-Z ]*PRIVATE KEY)-----\n([\s\S]*?)-----END \1-----/g)].map(
    (match) => {
      const base64 = match[2]!.replace(/^[A-Za-z-]+:.*$/gm, "").replace(/\s+/g, "");
      return { base64, hex: Buffer.from(base64, "base64").toString("hex") };
    },
  );
}

function expectNoKeyBytes(ran: Ran, secrets: { base64: string; hex: string }[]): void {
  const output = ran.stdout + ran.stderr;
  // Hex written with spaces or colons between the pairs (`30 82 04 bd`, `30:82:04:BD`) counts too.
  const lower = output.toLowerCase().replace(/[\s:]/g, "");
  for (const secret of secrets) {
    for (const run of runsOf(secret.base64)) expect(output.includes(run) ? run : null).toBeNull();
    for (const run of runsOf(secret.hex)) expect(lower.includes(run) ? run : null).toBeNull();
  }
}

/**
 * `nettools ARGS…` in this process (main() with a captured Io): the same code as the spawned
 * command, fast enough to try every key in every broken form.
 */
async function inProcess(args: string[], env: Record<string, string>, stdin = ""): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const code = await main({
    ports: composeCli(),
    argv: args,
    env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdoutIsTty: false,
    stderrIsTty: false,
    readStdin: async () => stdin,
    readFile: async (path) => readFileSync(path, "utf8"),
  });
  return { code: typeof code === "number" ? code : -1, stdout, stderr };
}

describe("privacy: no byte of a key in any output, for any input", () => {
  const KEY_FILES = [
    "rsa",
    "rsa.pkcs1",
    "rsa.enc",
    "rsa.legacy",
    "p256",
    "p256.sec1-params",
    "p384",
    "p384.sec1",
    "p384.enc",
    "ed25519",
    "ed25519.enc",
    "ed448",
    "ed448.enc",
    "rsa-512",
    "dsa",
    "other-p256",
  ];

  /** Broken forms of a key: truncated, a changed character, a wrong END label, no END line, junk in every line. */
  function broken(pem: string): string[] {
    const lines = pem.trimEnd().split("\n");
    const body = lines.slice(1, -1);
    const last = body.length - 1;
    const changed = body.map((line, i) =>
      i === last - 1 ? line.replace(/[A-Za-z]/, (ch) => (ch === "A" ? "B" : "A")) : line,
    );
    return [
      [lines[0], ...body.slice(0, Math.ceil(body.length / 2)), lines.at(-1)].join("\n"),
      [lines[0], ...changed, lines.at(-1)].join("\n"),
      [lines[0], ...body, lines.at(-1)!.replace("KEY", "KEX")].join("\n"),
      [lines[0], ...body].join("\n"),
      [lines[0], ...body.map((line) => `${line}!`), lines.at(-1)].join("\n"),
    ].map((text) => `${text}\n`);
  }

  /** Every way a key file can reach the CLI: as -k (right and wrong passphrase), in -c, as -r, on stdin, to csr and cert. */
  function invocations(file: string, combined: string): [string[], boolean][] {
    return [
      [["key-match", "-k", file, "-c", c("p256"), "--passin", "env:KEY_PASS"], false],
      [["key-match", "-k", file, "-r", r("p256"), "--passin", "env:WRONG", "--json"], false],
      [["key-match", "-k", file, "-c", c("p256")], false],
      [["key-match", "-c", combined, "-r", r("rsa"), "--passin", "env:KEY_PASS"], false],
      [["key-match", "-r", file, "-c", c("p256")], false],
      [["key-match", "-k", "-", "-c", combined, "--passin", `file:${passFile}`], true],
      [["csr", file], false],
      [["csr", "-c", combined, r("p256")], false],
      [["cert", file], false],
      [["chain", file], false],
    ];
  }

  test("every key format, whole and broken, every way in, in this process", async () => {
    let runs = 0;
    const env = { ...PASS_ENV, WRONG: "nope" };
    for (const name of KEY_FILES) {
      const pem = keyFixture(`keys/${name}.pem`);
      const secrets = secretsOf(pem);
      expect(secrets.length).toBeGreaterThan(0);
      for (const [index, variant] of [pem, ...broken(pem)].entries()) {
        const file = join(scratch, `${name}-${index}.pem`);
        writeFileSync(file, variant);
        const combined = join(scratch, `${name}-${index}-combined.pem`);
        writeFileSync(combined, keyFixture("certs/p256.pem") + variant + keyFixture("certs/ca.pem"));
        for (const [position, [args, viaStdin]] of invocations(file, combined).entries()) {
          const ran = await inProcess(args, env, viaStdin ? variant : "");
          expectNoKeyBytes(ran, secrets);
          // The whole key is really read (the check is not vacuous): a verdict, not an input error.
          if (index === 0 && position === 0 && name !== "rsa.legacy")
            expect([name, ran.code]).toEqual([name, ran.code === 0 ? 0 : 1]);
          runs++;
        }
      }
    }
    expect(runs).toBe(KEY_FILES.length * 6 * 10);
  }, 120_000);

  test("the same as spawned processes, for each key whole (what reaches a terminal)", async () => {
    const env = { ...PASS_ENV, WRONG: "nope" };
    for (const name of ["rsa.enc", "rsa.legacy", "p256.sec1-params", "ed448.enc", "dsa"]) {
      const pem = keyFixture(`keys/${name}.pem`);
      const combined = join(scratch, `${name}-spawned-combined.pem`);
      writeFileSync(combined, keyFixture("certs/p256.pem") + pem);
      for (const [args, viaStdin] of invocations(k(name), combined).slice(0, 6)) {
        expectNoKeyBytes(await nettools(args, { env, ...(viaStdin ? { stdin: pem } : {}) }), secretsOf(pem));
      }
    }
  }, 120_000);

  test("the DER key file: neither its base64 nor its hex appears", async () => {
    const der = readFileSync(keyFixturePath("keys/rsa.der"));
    const secret = { base64: der.toString("base64"), hex: der.toString("hex") };
    const truncated = join(scratch, "truncated.der");
    writeFileSync(truncated, der.subarray(0, 200));
    for (const file of [keyFixturePath("keys/rsa.der"), truncated])
      for (const args of [
        ["key-match", "-k", file, "-r", r("rsa")],
        ["key-match", "-c", file, "-r", r("rsa")],
        ["key-match", "-r", file, "-k", k("rsa")],
        ["csr", file],
        ["csr", "-c", file, r("rsa")],
        ["csr", "--server", "http://127.0.0.1:9", "-c", file, r("rsa")],
      ]) {
        const ran = await nettools(args);
        expect(ran.code).toBe(2);
        expectNoKeyBytes(ran, [secret]);
      }
  });

  test("the check itself finds a key's bytes when they are there", () => {
    const pem = keyFixture("keys/p256.pem");
    const [secret] = secretsOf(pem);
    const leaked = { code: 0, stdout: `oops ${secret!.base64.slice(20, 40)}`, stderr: "" };
    expect(() => expectNoKeyBytes(leaked, [secret!])).toThrow();
    const leakedHex = { code: 0, stdout: "", stderr: secret!.hex.slice(30, 50).toUpperCase() };
    expect(() => expectNoKeyBytes(leakedHex, [secret!])).toThrow();
    const spaced = secret!.hex.slice(40, 72).replace(/(..)(?!$)/g, "$1 ");
    expect(() => expectNoKeyBytes({ code: 0, stdout: spaced, stderr: "" }, [secret!])).toThrow();
  });
});
