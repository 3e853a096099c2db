/**
 * Inputs as people have them (CONTRACT §7.6), spawned as a user runs `nettools`: several FILE
 * arguments read as one bundle in order (Apache's `cert.pem chain.pem`) with locations naming the
 * file and its line; PEM, DER, PKCS#7 and leaf+key read the same from a file and from stdin;
 * binary never printed; a byte-order mark ignored; and every list input reading comments, blank
 * lines and CRLF the same way.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certDer, certPath, certPem, chainPem, filePath } from "../fixtures/fixtures.ts";
import { type Ran, runNettools } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-inputs-"));
const nettools = (args: string[], stdin?: string | Uint8Array): Promise<Ran> =>
  runNettools(args, { cwd: scratch, ...(stdin === undefined ? {} : { stdin }) });
const file = (name: string, content: string | Uint8Array) => {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
};
const ROOTS = () => ["--roots", certPath("chain-root")];
/** Anything a terminal would act on: a control character other than line feed. */
const hasControl = (text: string) =>
  [...text].some((c) => (c.charCodeAt(0) < 0x20 && c !== "\n") || c.charCodeAt(0) === 0x7f);

describe("several FILE arguments: one bundle, in order (Apache's cert.pem chain.pem)", () => {
  test("the leaf in one file, the intermediates in another: complete; swapped, the order is wrong", async () => {
    // No line break at the end of cert.pem: the next file still starts on a line of its own.
    const leaf = file("cert.pem", certPem("chain-leaf").trimEnd());
    const intermediates = file("chain.pem", certPem("chain-int2") + certPem("chain-int1"));
    const apache = await nettools(["chain", "--json", ...ROOTS(), leaf, intermediates]);
    expect(apache.code).toBe(0);
    const result = JSON.parse(apache.stdout);
    expect([result.status, result.path]).toEqual(["complete", [0, 1, 2]]);
    const swapped = await nettools(["chain", "--json", ...ROOTS(), intermediates, leaf]);
    expect(swapped.code).toBe(1);
    expect(JSON.parse(swapped.stdout).problems.map((p: { code: string }) => p.code)).toContain("WRONG_ORDER");
    const cert = await nettools(["cert", "--json", ...ROOTS(), leaf, intermediates]);
    expect(cert.code).toBe(0);
    expect(JSON.parse(cert.stdout).certificates.map((c: { commonName: string }) => c.commonName)).toEqual([
      "chain.example.com",
      "Fixture Chain Intermediate 2",
      "Fixture Chain Intermediate 1",
    ]);
  });

  test("an error names the file and the file's own line, with the line shown", async () => {
    const leaf = file("ok-leaf.pem", certPem("chain-leaf"));
    const int2 = certPem("chain-int2");
    const broken = int2.replace("-----BEGIN CERTIFICATE-----", "-----BEGIN CERTIFICAT-----");
    // A private key first (set aside, its lines kept), then the broken block at line 1 + key lines.
    const key = readFileSync(filePath("leaf-and-key.pem"), "utf8").match(
      /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----\n/,
    )![0];
    const keyLines = key.split("\n").length - 1;
    const second = file("bad-chain.pem", `${key}\n${broken}`);
    const ran = await nettools(["chain", leaf, second]);
    expect(ran.code).toBe(2);
    const line = keyLines + 2;
    expect(ran.stderr).toContain(`bad-chain.pem: a private key (block 1, line 1) was set aside`);
    expect(ran.stderr).toContain(`bad-chain.pem:${line}: PEM blocks labelled "CERTIFICAT" are not accepted`);
    expect(ran.stderr).toContain(`${line} | -----BEGIN CERTIFICAT-----`);
    expect(ran.stderr).not.toMatch(/PRIVATE KEY|MHcCAQEE|MIGHAgEA|MIIE/);
    // The same bundle through --json keeps the API's envelope (lines of the bundle as sent).
    const json = await nettools(["chain", "--json", leaf, second]);
    expect(JSON.parse(json.stdout).error.issues[0].location.line).toBe(
      certPem("chain-leaf").split("\n").length - 1 + line,
    );
  });

  test("a DER file among PEM files: its problems are named by file, never shown", async () => {
    // A SEQUENCE holding an OCTET STRING: DER, but neither a certificate nor a private key.
    const notCertificate = file("odd.der", Uint8Array.of(0x30, 0x03, 0x04, 0x01, 0x01));
    const ran = await nettools(["cert", file("a.pem", certPem("chain-leaf")), notCertificate]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "odd.der (a DER certificate): this CERTIFICATE block is not one DER-encoded X.509 certificate",
    );
    expect(hasControl(ran.stderr)).toBe(false);
  });

  test('stdin can be one of the files, once; "-" twice is a usage error', async () => {
    const ran = await nettools(
      ["chain", "--json", ...ROOTS(), file("leaf2.pem", certPem("chain-leaf")), "-"],
      certPem("chain-int2") + certPem("chain-int1"),
    );
    expect(JSON.parse(ran.stdout).status).toBe("complete");
    const twice = await nettools(["cert", "-", "-"], "");
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('stdin ("-") can be read only once');
  });
});

describe("every encoding, from a file and from stdin alike (detected by content)", () => {
  const sameAnswer = (ran: Ran) => ({
    code: ran.code,
    stdout: ran.stdout.replace(/"evaluatedAt":"[^"]+"/g, ""),
    stderr: ran.stderr.replaceAll("stdin", "FILE"),
  });
  const inputs: [string, () => Uint8Array][] = [
    ["PEM", () => new TextEncoder().encode(chainPem("rsa-sha256"))],
    [
      "PEM with a byte-order mark and CRLF",
      () => new TextEncoder().encode(`\uFEFF${chainPem("rsa-sha256").replaceAll("\n", "\r\n")}`),
    ],
    ["DER", () => certDer("chain-leaf")],
    [
      "DER, two certificates one after the other",
      () => Buffer.concat([certDer("chain-leaf"), certDer("chain-int2")]),
    ],
    ["DER PKCS#7", () => readFileSync(filePath("chain.p7b"))],
    ["PEM PKCS#7", () => readFileSync(filePath("chain.p7b.pem"))],
    ["leaf+key", () => readFileSync(filePath("leaf-and-key.pem"))],
  ];
  test.each(inputs)("%s", async (name, bytes) => {
    const path = file(`input-${name.replace(/\W+/g, "-")}`, bytes());
    for (const command of ["cert", "chain"]) {
      const fromFile = await nettools([command, "--json", path]);
      const fromStdin = await nettools([command, "--json", "-"], bytes());
      expect(fromFile.code).toBeLessThan(2);
      expect(JSON.parse(fromFile.stdout)).toBeObject();
      expect(sameAnswer(fromStdin)).toEqual(
        sameAnswer({ ...fromFile, stderr: fromFile.stderr.replaceAll(path, "FILE") }),
      );
    }
  });
});

describe("binary input is never printed (CONTRACT §7.6)", () => {
  const binary = Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x07, 0x00, 0xff, 0xfe,
    0x9b, 0x32, 0x4a,
  ]);
  test.each([
    ["a PNG-like file", binary, 0],
    [
      "PEM followed by binary",
      Buffer.concat([Buffer.from(certPem("chain-leaf")), Buffer.from(binary)]),
      Buffer.byteLength(certPem("chain-leaf")),
    ],
    ["a terminal escape in text", Buffer.from("hello\u001b[2Jworld"), 5],
    ["invalid UTF-8 in text", Buffer.from([0x61, 0x62, 0xc3, 0x28]), 2],
  ])("%s: one line with the offset and at most 16 bytes in hex, exit 2", async (_name, bytes, offset) => {
    for (const args of [
      ["cert", file("binary.bin", bytes)],
      ["chain", "-"],
    ]) {
      const ran = await nettools(args, args[1] === "-" ? bytes : undefined);
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe("");
      expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(hasControl(ran.stderr)).toBe(false);
      const shown = new RegExp(`byte ${offset} onwards reads ((?:[0-9a-f]{2} ?){1,16})\\n$`).exec(ran.stderr);
      expect(shown).not.toBeNull();
      const expected = Buffer.from(bytes)
        .subarray(offset, offset + 16)
        .toString("hex")
        .match(/../g)!
        .join(" ");
      expect(shown![1]).toBe(expected);
    }
  });

  test("a DER private key, from a file or stdin, is set aside: never read as a certificate, sent or shown", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    const hex = Buffer.from(der).toString("hex");
    const base64 = Buffer.from(der).toString("base64");
    for (const args of [
      ["cert", file("key.der", der)],
      ["chain", "-"],
      ["cert", certPath("chain-leaf"), file("leaf-key.der", der)],
    ]) {
      const ran = await nettools(args, args[1] === "-" ? der : undefined);
      expect(ran.stderr).toContain("a private key (DER) was set aside");
      const output = ran.stdout + ran.stderr;
      for (let at = 0; at + 32 <= hex.length; at += 16) expect(output).not.toContain(hex.slice(at, at + 32));
      for (let at = 0; at + 16 <= base64.length; at += 8)
        expect(output).not.toContain(base64.slice(at, at + 16));
      // Alone, nothing is left to inspect (exit 2); beside a certificate, that one is inspected.
      if (args.length === 2) expect(ran.code).toBe(2);
      else expect(ran.stdout).toContain("chain.example.com");
    }
  });

  test("a binary --roots file is named and not printed", async () => {
    const ran = await nettools(["chain", "--roots", file("roots.bin", binary), certPath("chain-leaf")]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--roots: ");
    expect(ran.stderr).toContain("roots.bin: binary data");
    expect(hasControl(ran.stderr)).toBe(false);
  });
});

describe("list inputs: a byte-order mark, comments, blank lines and CRLF, the same in every command", () => {
  const messy =
    "\uFEFF# blocklist, saved by a Windows editor\r\n10.0.0.0/25   # office\r\n\r\n   # indented\r\n10.0.0.128/25\r\n";
  const clean = "10.0.0.0/25\n10.0.0.128/25\n";
  const used = "\uFEFF10.0.0.0/26 # taken\r\n";
  const commands: [string, (list: string) => string[]][] = [
    ["cover -f", (list) => ["cover", "--plain", "-f", list]],
    ["merge -f", (list) => ["merge", "--plain", "-f", list]],
    ["subtract -f / -X", (list) => ["subtract", "--plain", "-f", list, "-X", file("used.txt", used)]],
    ["alloc -f / -U", (list) => ["alloc", "--plain", "-l", "26", "-f", list, "-U", file("used2.txt", used)]],
  ];
  test.each(commands)(
    "%s: the messy file reads as the clean one, from a file and from stdin",
    async (_name, args) => {
      const reference = await nettools(args(file("clean.txt", clean)));
      expect(reference.code).toBe(0);
      expect(reference.stdout).not.toBe("");
      expect(await nettools(args(file("messy.txt", messy)))).toEqual(reference);
      expect(await nettools(args("-"), messy)).toEqual(reference);
    },
  );

  test("range FILE: a byte-order mark and a trailing comment", async () => {
    const ran = await nettools([
      "range",
      "--plain",
      file("ranges.txt", "\uFEFF192.0.2.0 - 192.0.2.255  # whois\r\n"),
    ]);
    expect(ran).toEqual({ code: 0, stdout: "192.0.2.0/24\n", stderr: "" });
  });

  test("an invalid entry after a byte-order mark keeps the editor's line number", async () => {
    const ran = await nettools([
      "cover",
      "-f",
      file("bad.txt", "\uFEFF10.0.0.0/8\r\n# note\r\n10.0.0.256\r\n"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('bad.txt:3: "10.0.0.256" is not a valid IPv4 address');
  });
});
