/**
 * The `nettools` command, spawned as a user would run it (`bun src/cli/main.ts …`), in-process
 * and against the real server (`--server`): outputs, `--json` equal to the API's own answer for
 * the same input, stdin and file input, exit codes, colour rules.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchServer, type RunningServer, startServer } from "../e2e/server.ts";
import { chainPath, chainPem, privateKeyPem } from "../fixtures/fixtures.ts";
import { DBIP_CREDIT, DBIP_IPV4_CLIENT } from "../fixtures/geoip/expected.ts";
import { CLI, postForText, type Ran, runNettools, runOnTerminal } from "./run.ts";

const ESC = "\u001b[";

let server: RunningServer;
const fakes: { stop(force?: boolean): unknown }[] = [];
const scratch = mkdtempSync(join(tmpdir(), "nettools-cli-"));

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const fake of fakes) fake.stop(true);
  await server.stop();
});

function nettools(
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  return runNettools(args, { ...options, cwd: scratch });
}

/** The server's raw answer to a POST, as text. */
const serverBody = (path: string, body: unknown) => postForText(server.url, path, body);

/** Certificate results carry the evaluation second; two runs may straddle one. */
function sameInstant(text: string): string {
  const match = /"evaluatedAt":"([^"]+)"/.exec(text);
  return match ? text.replaceAll(match[1]!, "<evaluatedAt>") : text;
}

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe("cover", () => {
  test("prints an aligned summary", async () => {
    const ran = await nettools(["cover", "10.0.0.0/24", "10.0.1.7"]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("cidr                  10.0.0.0/23");
    expect(ran.stdout).toContain("additional addresses  255");
    expect(ran.stdout).toContain("  10.0.1.7/32");
    expect(ran.stdout).not.toContain(ESC);
  });

  test("--json is the API's answer, in-process and through --server", async () => {
    const inputs = ["2001:db8::/48", "2001:db8:1::1"];
    const expected = await serverBody("/v1/cidr-cover", { inputs });
    expect((await nettools(["cover", "--json", ...inputs])).stdout).toBe(`${expected}\n`);
    expect((await nettools(["cover", "--json", "--server", server.url, ...inputs])).stdout).toBe(
      `${expected}\n`,
    );
  });

  test("entries from stdin, one a line, comments and blank lines skipped", async () => {
    const ran = await nettools(["cover", "--json", "-"], { stdin: "# office\n10.0.0.1\n\n10.0.0.6\r\n" });
    expect(ran.stdout).toBe(`${await serverBody("/v1/cidr-cover", { inputs: ["10.0.0.1", "10.0.0.6"] })}\n`);
  });

  test("entries from a file", async () => {
    const path = file("cover.txt", "192.0.2.1\n192.0.2.200\n");
    const ran = await nettools(["cover", "--json", "-f", path]);
    expect(JSON.parse(ran.stdout).cidr).toBe("192.0.2.0/24");
  });

  test("an invalid entry: exit 2, the error on stderr with its location", async () => {
    const ran = await nettools(["cover", "10.0.0.1", "10.0.0.256"]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(
      'error INVALID_INPUT: arg 2: "10.0.0.256" is not a valid IPv4 address: octet 256 is above 255\n',
    );
  });

  test("--json of an invalid request is the server's envelope, schema messages included", async () => {
    for (const inputs of [
      ["10.0.0.1", "10.0.0.256"],
      ["10.0.0.1", "x".repeat(65)],
      ["10.0.0.1", "::1"],
    ]) {
      const expected = await serverBody("/v1/cidr-cover", { inputs });
      const ran = await nettools(["cover", "--json", ...inputs]);
      expect(ran.stdout).toBe(`${expected}\n`);
      expect(ran.code).toBe(2);
    }
  });
});

describe("subtract", () => {
  const include = ["10.0.0.0/8"];
  const exclude = ["10.128.0.0/9", "10.0.0.0/24"];

  test("on a terminal, prints a CIDR table with first, last and size, then the counts", async () => {
    const ran = await runOnTerminal(["subtract", ...include, "-x", exclude[0]!, "-x", exclude[1]!], scratch);
    expect(ran.code).toBe(0);
    const lines = ran.stdout.split("\n");
    expect(lines[0]).toMatch(/^CIDR\s+FIRST\s+LAST\s+ADDRESSES$/);
    expect(lines[1]).toMatch(/^10\.0\.1\.0\/24\s+10\.0\.1\.0\s+10\.0\.1\.255\s+256$/);
    // Columns line up: every row starts its FIRST column at the same place.
    const column = lines[0]!.indexOf("FIRST");
    for (const line of lines.slice(1, 16)) expect(line.slice(column - 2, column)).toBe("  ");
    expect(ran.stdout).toMatch(/remaining addresses\s+8388352/);
  });

  test("--json equals the API's answer; exclude entries from a file and include from stdin", async () => {
    const expected = await serverBody("/v1/cidr-subtract", { include, exclude });
    const path = file("exclude.txt", exclude.join("\n"));
    const ran = await nettools(["subtract", "--json", "-", "-X", path], { stdin: "10.0.0.0/8\n" });
    expect(ran.stdout).toBe(`${expected}\n`);
    const remote = await nettools([
      "subtract",
      "--json",
      "--server",
      server.url,
      ...include,
      "-x",
      exclude[0]!,
      "-x",
      exclude[1]!,
    ]);
    expect(remote.stdout).toBe(`${expected}\n`);
  });

  test("into a pipe, one CIDR a line and nothing else", async () => {
    const ran = await nettools(["subtract", ...include, "-x", exclude[0]!, "-x", exclude[1]!]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.split("\n")[0]).toBe("10.0.1.0/24");
    expect(ran.stdout).not.toContain("remaining");
  });

  test("removing everything succeeds with an empty list", async () => {
    const ran = await runOnTerminal(["subtract", "10.0.0.0/24", "-x", "10.0.0.0/23"], scratch);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("nothing remains");
    const piped = await nettools(["subtract", "10.0.0.0/24", "-x", "10.0.0.0/23"]);
    expect(piped).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("range", () => {
  test("START END, START-END and stdin give the API's answer", async () => {
    const expected = `${await serverBody("/v1/range-to-cidrs", { start: "192.0.2.10", end: "192.0.2.20" })}\n`;
    expect((await nettools(["range", "--json", "192.0.2.10", "192.0.2.20"])).stdout).toBe(expected);
    expect((await nettools(["range", "--json", "192.0.2.10-192.0.2.20"])).stdout).toBe(expected);
    expect((await nettools(["range", "--json", "-"], { stdin: "192.0.2.10-192.0.2.20\n" })).stdout).toBe(
      expected,
    );
    expect(
      (await nettools(["range", "--json", "--server", server.url, "192.0.2.10", "192.0.2.20"])).stdout,
    ).toBe(expected);
  });

  test("a reversed range is invalid input (exit 2)", async () => {
    const ran = await nettools(["range", "10.0.0.9", "10.0.0.1"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("start:");
    expect(ran.stderr).toContain("is after end");
  });

  test("one address is a one-address range; three words are a usage error (exit 2)", async () => {
    expect((await nettools(["range", "--json", "10.0.0.9"])).stdout).toBe(
      `${await serverBody("/v1/range-to-cidrs", { start: "10.0.0.9", end: "10.0.0.9" })}\n`,
    );
    const ran = await nettools(["range", "10.0.0.9", "10.0.0.10", "10.0.0.11"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("nettools range --help");
  });
});

describe("cert", () => {
  test("a good chain: certificates, links and findings by severity; exit 0", async () => {
    const ran = await nettools(["cert", chainPath("rsa-sha256")]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^Certificates\n#\s+LINE\s+SUBJECT/);
    expect(ran.stdout).toContain("Issuer links");
    expect(ran.stdout).toContain("INFO (");
    expect(ran.stdout).not.toContain("ERROR (");
  });

  test("an expired certificate is an error finding: exit 1, grouped under ERROR", async () => {
    const ran = await nettools(["cert", "--hostname", "expired.example.com", chainPath("expired")]);
    expect(ran.code).toBe(1);
    const errors = ran.stdout.slice(ran.stdout.indexOf("ERROR ("), ran.stdout.indexOf("INFO ("));
    expect(errors).toContain("CERTIFICATE_EXPIRED [#0]");
    expect(ran.stdout.indexOf("ERROR (")).toBeLessThan(ran.stdout.indexOf("INFO ("));
  });

  test("--json equals the API's answer (stdin, in-process and --server); exit code still 1", async () => {
    const pem = chainPem("expired");
    const expected = sameInstant(
      await serverBody("/v1/certificate-bundle", { pem, hostname: "expired.example.com" }),
    );
    const local = await nettools(["cert", "--json", "-H", "expired.example.com", "-"], { stdin: pem });
    expect(sameInstant(local.stdout)).toBe(`${expected}\n`);
    expect(local.code).toBe(1);
    const remote = await nettools(
      ["cert", "--json", "--server", server.url, "-H", "expired.example.com", "-"],
      {
        stdin: pem,
      },
    );
    expect(sameInstant(remote.stdout)).toBe(`${expected}\n`);
    expect(remote.code).toBe(1);
  });

  test("a PEM typo: exit 2, the offending line shown and underlined", async () => {
    const pem = chainPem("rsa-sha256");
    const secondBegin = pem.indexOf("-----BEGIN CERTIFICATE-----", 10);
    const broken = `${pem.slice(0, secondBegin)}-----BEGIN CERTIFICAT-----${pem.slice(secondBegin + 27)}`;
    const line = pem.slice(0, secondBegin).split("\n").length;
    const ran = await nettools(["cert", file("typo.pem", broken)]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`typo.pem:${line}: PEM blocks labelled "CERTIFICAT" are not accepted`);
    expect(ran.stderr).toContain(`${line} | -----BEGIN CERTIFICAT-----`);
    expect(ran.stderr).toMatch(/\n\s+\^{26} \(through line \d+\)\n/);
    const json = await nettools(["cert", "--json", file("typo.pem", broken)]);
    expect(json.stdout).toBe(`${await serverBody("/v1/certificate-bundle", { pem: broken })}\n`);
  });

  test("a missing intermediate: exit 1 and a warning line, although the finding is info", async () => {
    const ran = await nettools(["cert", chainPath("missing-intermediate")]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).not.toContain("ERROR (");
    expect(ran.stdout).toContain("ISSUER_NOT_IN_BUNDLE [#0]");
    expect(ran.stderr).toBe(
      "warning: The chain looks incomplete. Certificate 0 (CN=www.example.com) was issued by CN=Fixture Intermediate RSA, no certificate in the bundle carries that name, and it is not a known root: an intermediate CA certificate is most likely missing.\n",
    );
    const json = await nettools(["cert", "--json", chainPath("missing-intermediate")]);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout).findings.map((f: { code: string }) => f.code)).toContain(
      "ISSUER_NOT_IN_BUNDLE",
    );
  });

  test("a root left out that the runtime knows: exit 0, no warning", async () => {
    const ran = await nettools(["cert", chainPath("under-known-root")]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toContain("ISSUER_NOT_IN_BUNDLE [#0]");
  });

  test("a private key is set aside before anything is sent, and no line of it is printed", async () => {
    const key = privateKeyPem("ec-traditional");
    const pem = `${chainPem("rsa-sha256")}${key}`;
    const keyLines = key
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("-----"))
      .map((line) => line.slice(0, 20));
    const line = chainPem("rsa-sha256").split("\n").length;
    const bodies: string[] = [];
    const fake = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        bodies.push(await request.text());
        return Response.json(
          { error: { code: "INTERNAL_ERROR", message: "not answering" } },
          { status: 500 },
        );
      },
    });
    fakes.push(fake);
    const path = file("with-key.pem", pem);
    for (const args of [
      ["cert", path],
      ["cert", "--server", `http://127.0.0.1:${fake.port}`, path],
    ]) {
      const ran = await nettools(args);
      expect(ran.stderr).toContain(
        `a private key (block 4, line ${line}) was set aside: it is not read, sent or shown`,
      );
      for (const text of keyLines) expect(ran.stdout + ran.stderr).not.toContain(text);
    }
    expect(bodies.length).toBe(1);
    for (const text of keyLines) expect(bodies[0]).not.toContain(text);
    // A key block without its END line is recognised by its content (ADR 35) and set aside in the
    // same words: nothing of it is printed or sent.
    const broken = key.replace(/-----END [^\n]*\n?$/, "");
    const json = await nettools(["cert", "--json", "--server", `http://127.0.0.1:${fake.port}`, "-"], {
      stdin: broken,
    });
    expect(json.stderr).toContain(
      "stdin: a private key (block 1, line 1) was set aside: it is not read, sent or shown",
    );
    for (const text of keyLines) expect(json.stdout + json.stderr).not.toContain(text);
    expect(bodies.length).toBe(2);
    for (const text of keyLines) expect(bodies[1]).not.toContain(text);
  });

  test("a missing file is invalid input (exit 2)", async () => {
    const ran = await nettools(["cert", join(scratch, "absent.pem")]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("cannot read");
  });

  test("--leaf-index must be a number", async () => {
    expect((await nettools(["cert", "--leaf-index", "x", chainPath("rsa-sha256")])).code).toBe(2);
  });
});

describe("myip", () => {
  test("prints the observed address; --json is the API's JSON", async () => {
    expect((await nettools(["myip", "--server", server.url])).stdout).toBe("127.0.0.1\n");
    const json = await nettools(["myip", "--json"], { env: { NETTOOLS_SERVER: server.url } });
    expect(JSON.parse(json.stdout)).toEqual({ family: "ipv4", ip: "127.0.0.1" });
  });

  test("the server's network facts and DB-IP's credit, when it adds them; --plain is the address alone", async () => {
    const enriched = DBIP_IPV4_CLIENT;
    const fake = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(enriched) });
    fakes.push(fake);
    const url = `http://127.0.0.1:${fake.port}`;
    expect((await nettools(["myip", "--server", url])).stdout).toBe(
      [
        "198.51.100.23",
        "  asn      64500",
        "  asnOrg   Example Transit B.V.",
        "  country  NL",
        DBIP_CREDIT,
        "",
      ].join("\n"),
    );
    expect((await nettools(["myip", "--json", "--server", url])).stdout).toBe(
      `${JSON.stringify(enriched)}\n`,
    );
    expect((await nettools(["myip", "--plain", "--server", url])).stdout).toBe("198.51.100.23\n");
    expect((await nettools(["myip", "--plain", "--json", "--server", url])).code).toBe(2);
  });

  test("without a server it is a usage error (exit 2)", async () => {
    const ran = await nettools(["myip"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--server");
  });
});

describe("network and server failures exit 3", () => {
  test("a closed port is NETWORK_ERROR", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${probe.port}`;
    probe.stop(true);
    const ran = await nettools(["cover", "--server", url, "10.0.0.1"]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("NETWORK_ERROR");
    const json = await nettools(["myip", "--json", "--server", url]);
    expect(JSON.parse(json.stdout).error.code).toBe("NETWORK_ERROR");
    expect(json.code).toBe(3);
  });

  test("a malformed answer is INVALID_RESPONSE, naming what did not match", async () => {
    const fake = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => Response.json({ family: "ipv4" }),
    });
    fakes.push(fake);
    const ran = await nettools([
      "range",
      "--server",
      `http://127.0.0.1:${fake.port}`,
      "10.0.0.1",
      "10.0.0.2",
    ]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("INVALID_RESPONSE");
    expect(ran.stderr).toContain("cidrs");
  });

  test("a server error status is exit 3", async () => {
    const fake = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => Response.json({ error: { code: "INTERNAL_ERROR", message: "boom" } }, { status: 500 }),
    });
    fakes.push(fake);
    const ran = await nettools(["cover", "--server", `http://127.0.0.1:${fake.port}`, "10.0.0.1"]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("INTERNAL_ERROR: boom");
  });

  test("a timeout is NETWORK_ERROR", async () => {
    const fake = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    fakes.push(fake);
    const ran = await nettools([
      "cover",
      "--timeout",
      "0.2",
      "--server",
      `http://127.0.0.1:${fake.port}`,
      "10.0.0.1",
    ]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("NETWORK_ERROR");
  });
});

describe("help and usage", () => {
  test.each(["cover", "subtract", "merge", "range", "info", "cert", "myip", "serve"])(
    "%s --help",
    async (command) => {
      const ran = await nettools([command, "--help"]);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toStartWith(`Usage: nettools ${command}`);
    },
  );

  test("--help lists every command", async () => {
    const ran = await nettools(["--help"]);
    expect(ran.code).toBe(0);
    for (const command of ["cover", "subtract", "merge", "range", "info", "cert", "myip", "serve"]) {
      expect(ran.stdout).toContain(`\n  ${command} `);
    }
  });

  test("no command, an unknown command, an unknown option: exit 2", async () => {
    expect((await nettools([])).code).toBe(2);
    expect((await nettools(["frobnicate"])).code).toBe(2);
    const ran = await nettools(["cover", "--frob", "10.0.0.1"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--frob");
  });
});

describe("colour", () => {
  const args = ["cert", chainPath("expired")];

  test("none when the output is not a terminal", async () => {
    const ran = await nettools(args);
    expect(ran.stdout).not.toContain(ESC);
  });

  test("FORCE_COLOR asks for it off a terminal", async () => {
    const ran = await nettools(args, { env: { FORCE_COLOR: "1" } });
    expect(ran.stdout).toContain(`${ESC}31m`);
  });

  test("NO_COLOR wins over everything", async () => {
    const ran = await nettools(args, { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(ran.stdout).not.toContain(ESC);
    const failed = await nettools(["cover", "x"], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(failed.stderr).not.toContain(ESC);
  });

  test("--json is never coloured", async () => {
    const ran = await nettools(["cert", "--json", chainPath("expired")], { env: { FORCE_COLOR: "1" } });
    expect(ran.stdout).not.toContain(ESC);
  });
});

describe("serve", () => {
  test("runs the API and its page; SIGTERM stops it with exit 0", async () => {
    const serving = await launchServer(
      [process.execPath, CLI, "serve", "--port", "0", "--host", "127.0.0.1"],
      {
        cwd: scratch,
      },
    );
    const health = await fetch(`http://127.0.0.1:${serving.port}/v1/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(await serving.stop("SIGTERM")).toBe(0);
  });
});
