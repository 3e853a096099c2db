/**
 * `nettools chain --fix` in a deploy script (CONTRACT §7.1): the exit status judges the file it
 * writes, nothing is written for an incomplete chain, `-o` is replaced atomically; `--strict` and
 * `--expires-within`, each exit status pinned; hostnames answered in words (§7.1, §7.6, §7.3
 * "Hostnames in messages"); and environment defaults that never make a command fail (§7.6).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/server.ts";
import { certPath, certPem, chainNames, chainPath } from "../fixtures/fixtures.ts";
import { rootAndLeaf } from "../support/crafted-certificates.ts";
import { nettoolsLine, type Ran, runNettools, runShell } from "./run.ts";

const scratch = mkdtempSync(join(tmpdir(), "nettools-deploy-"));
const nettools = (args: string[], env: Record<string, string> = {}): Promise<Ran> =>
  runNettools(args, { cwd: scratch, env });
const file = (name: string, content: string) => {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
};
const DAY = 86_400_000;

let api: RunningServer;
beforeAll(async () => {
  api = await startServer();
});
afterAll(async () => {
  await api.stop();
});

/** `nettools chain --fix -o fullchain.pem ARGS && echo deployable`, as a deploy script runs it. */
async function deployScript(
  dir: string,
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  const command = nettoolsLine(["chain", "--fix", "-o", "fullchain.pem", ...args]);
  const { code, stdout, stderr } = await runShell(`${command} && echo deployable`, { cwd: dir });
  return { status: code, stdout, stderr };
}

describe("chain --fix -o fullchain.pem … && echo deployable", () => {
  const OLD = "the previous fullchain.pem\n";
  const cases = () => [
    ...chainNames()
      .filter((name) => name.startsWith("chain-"))
      .flatMap((name) => [
        { label: name, args: [chainPath(name)] },
        { label: `${name} --roots`, args: ["--roots", certPath("chain-root"), chainPath(name)] },
      ]),
    // Complete, but an error that writing cannot repair: the file is written, not deployable.
    {
      label: "chain-misordered --roots -H wrong.example",
      args: ["--roots", certPath("chain-root"), "-H", "wrong.example", chainPath("chain-misordered")],
    },
  ];

  test("prints deployable exactly when the written file is complete and error-free; an incomplete chain writes nothing", async () => {
    const seen = { deployable: 0, notWritten: 0, writtenNotDeployable: 0 };
    for (const { label, args } of cases()) {
      const dir = join(scratch, label.replace(/\W+/g, "-"));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "fullchain.pem"), OLD);
      const ran = await deployScript(dir, args);
      const written = readFileSync(join(dir, "fullchain.pem"), "utf8");
      // No temporary file is ever left beside it.
      expect([label, readdirSync(dir)]).toEqual([label, ["fullchain.pem"]]);
      if (written === OLD) {
        // Nothing written: only for a chain that is not complete, and then never "deployable".
        expect([label, ran.stdout, ran.status]).toEqual([label, "", 1]);
        expect(ran.stderr).toContain("Nothing written (fullchain.pem is neither created nor changed)");
        seen.notWritten++;
        continue;
      }
      // The oracle: the written file judged on its own (the anchor is the fixtures' root).
      const judged = await nettools([
        "chain",
        "--json",
        "--roots",
        certPath("chain-root"),
        ...(args.includes("-H") ? ["-H", "wrong.example"] : []),
        join(dir, "fullchain.pem"),
      ]);
      const result = JSON.parse(judged.stdout) as { status: string; problems: { severity: string }[] };
      const clean = result.status === "complete" && result.problems.every((p) => p.severity !== "error");
      expect([label, ran.stdout === "deployable\n"]).toEqual([label, clean]);
      if (clean) seen.deployable++;
      else seen.writtenNotDeployable++;
    }
    // Each kind of outcome was met.
    expect(seen.deployable).toBeGreaterThanOrEqual(5);
    expect(seen.notWritten).toBeGreaterThanOrEqual(5);
    expect(seen.writtenNotDeployable).toBe(1);
  }, 120_000);

  test("-o FILE of an incomplete chain is not created; --partial writes it (exit 1)", async () => {
    const target = join(scratch, "new-fullchain.pem");
    const ran = await nettools(["chain", "--fix", "-o", target, chainPath("chain-leaf-only")]);
    expect(ran.code).toBe(1);
    expect(existsSync(target)).toBe(false);
    expect(ran.stderr).toContain("missing issuer CN=Fixture Chain Intermediate 2");
    expect(ran.stderr).toContain("its CA publishes it at http://pki.example.test/chain-int2.cer");
    const partial = await nettools([
      "chain",
      "--fix",
      "--partial",
      "-o",
      target,
      chainPath("chain-leaf-only"),
    ]);
    expect(partial.code).toBe(1);
    expect(readFileSync(target, "utf8")).toBe(certPem("chain-leaf"));
  });

  test("a file that cannot be written: exit 3, the old file untouched, no temporary file left", async () => {
    const dir = join(scratch, "readonly");
    mkdirSync(dir, { recursive: true });
    const ran = await nettools([
      "chain",
      "--fix",
      "-o",
      join(dir, "missing-dir", "f.pem"),
      chainPath("chain-with-root"),
    ]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("cannot write");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("exit statuses, pinned (CONTRACT §7.1)", () => {
  let roots: string;
  let expiring: string;
  let expired: string;
  beforeAll(async () => {
    const now = Date.now();
    const soon = await rootAndLeaf({
      notBefore: new Date(now - 30 * DAY),
      notAfter: new Date(now + 10 * DAY + 3_600_000),
      sans: ["crafted.example", "ip:10.0.0.5"],
    });
    const past = await rootAndLeaf({
      notBefore: new Date(now - 60 * DAY),
      notAfter: new Date(now - 2 * DAY),
      sans: ["crafted.example"],
    });
    roots = file("crafted-roots.pem", soon.rootPem + past.rootPem);
    expiring = file("expiring.pem", soon.leafPem);
    expired = file("expired.pem", past.leafPem);
  });

  test.each([
    // [label, extra args, bundle, exit]
    ["expiring in 10 days", [], "expiring", 0],
    ["expiring, --expires-within 30", ["--expires-within", "30"], "expiring", 1],
    ["expiring, --expires-within 5", ["--expires-within", "5"], "expiring", 0],
    ["expiring, --strict", ["--strict"], "expiring", 1],
    ["expiring, --fix", ["--fix"], "expiring", 0],
    ["expiring, --fix --strict", ["--fix", "--strict"], "expiring", 1],
    ["expiring, --fix --expires-within 30", ["--fix", "--expires-within", "30"], "expiring", 1],
    ["expired", [], "expired", 1],
    ["expired, --fix (EXPIRED is not repaired by writing)", ["--fix"], "expired", 1],
  ] as const)("%s (%j, %s): exit %d", async (_label, extra, bundle, exit) => {
    const ran = await nettools([
      "chain",
      "--roots",
      roots,
      ...extra,
      bundle === "expiring" ? expiring : expired,
    ]);
    expect(ran.code).toBe(exit);
  });

  test.each([
    // The bundle as sent against the file written, with the fixtures' own root.
    ["chain-misordered", [], 1],
    ["chain-misordered", ["--fix"], 0],
    ["chain-unrelated-between", [], 0],
    ["chain-unrelated-between", ["--strict"], 1],
    ["chain-unrelated-between", ["--fix", "--strict"], 0],
    ["chain-everything", [], 1],
    ["chain-everything", ["--fix"], 0],
    ["chain-everything", ["--fix", "--include-root"], 0],
  ] as const)("%s %j: exit %d", async (name, extra, exit) => {
    const ran = await nettools(["chain", "--roots", certPath("chain-root"), ...extra, chainPath(name)]);
    expect(ran.code).toBe(exit);
  });

  test("--partial and --strict go with chain only as documented", async () => {
    expect((await nettools(["chain", "--partial", chainPath("chain-ordered")])).code).toBe(2);
  });
});

describe("hostnames answered in words", () => {
  const roots = () => ["--roots", certPath("chain-root")];
  test.each([
    ["192.0.2.10", "hostname 192.0.2.10: matched (IP SAN)"],
    ["2001:db8::10", "hostname 2001:db8::10: matched (IP SAN)"],
    ["www.chain.example.com", "hostname www.chain.example.com: matched (DNS SAN www.chain.example.com)"],
  ])("chain -H %s says it matched", async (hostname, line) => {
    const ran = await nettools(["chain", ...roots(), "-H", hostname, chainPath("chain-ordered")]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.split("\n")[1]).toBe(line);
  });

  test("a wildcard SAN is named as written", async () => {
    const bundle = file("wildcards.pem", certPem("leaf-wildcards") + certPem("int-rsa"));
    const ran = await nettools(["chain", "--roots", certPath("root-rsa"), "-H", "www.example.com", bundle]);
    expect(ran.stdout).toContain("hostname www.example.com: matched (DNS SAN *.example.com)");
    const cert = await nettools(["cert", "--roots", certPath("root-rsa"), "-H", "www.example.com", bundle]);
    expect(cert.stdout).toMatch(/hostname +www\.example\.com: matched \(DNS SAN \*\.example\.com\)/);
  });

  test("cert -H ADDRESS is checked in this process against the leaf's IP SANs", async () => {
    const leaf = certPath("chain-leaf");
    const matched = await nettools(["cert", ...roots(), "-H", "192.0.2.10", leaf]);
    expect(matched.stdout).toMatch(/hostname +192\.0\.2\.10: matched \(IP SAN\)/);
    expect(matched.stdout).not.toContain("not checked");
    // ::ffff:192.0.2.20 is in the SANs: an IPv4-mapped SAN never matches an IPv4 name.
    const mapped = await nettools(["cert", ...roots(), "-H", "192.0.2.20", leaf]);
    expect(mapped.code).toBe(1);
    expect(mapped.stdout).toMatch(
      /hostname +192\.0\.2\.20: not matched \(the leaf's IP SANs: 192\.0\.2\.10, 2001:db8::10, ::ffff:192\.0\.2\.20\)/,
    );
    expect(mapped.stderr).toContain("hostname 192.0.2.20: not matched");
    // --json: the answer checked here is the result's hostname, in its own shape, the address in
    // RFC 5952 text (CONTRACT §9.6); stderr says where it was checked.
    const json = await nettools(["cert", "--json", ...roots(), "-H", "2001:DB8:0:0::10", leaf]);
    expect(JSON.parse(json.stdout).hostname).toEqual({ expected: "2001:db8::10", status: "matched" });
    expect(json.stderr).toContain("hostname 2001:db8::10: matched (IP SAN), checked in this process");
    const missed = await nettools(["cert", "--json", ...roots(), "-H", "192.0.2.20", leaf]);
    expect(missed.code).toBe(1);
    expect(JSON.parse(missed.stdout).hostname).toEqual({ expected: "192.0.2.20", status: "mismatched" });
  });

  test.each([
    ["[2001:db8::10]", "give the address without brackets (2001:db8::10)"],
    ["fe80::1%eth0", "zone indexes are not accepted"],
    ["2001:db8::10/128", "a hostname has no prefix length"],
  ])("%s is refused with the accepted form, by chain and by cert", async (hostname, words) => {
    for (const command of ["chain", "cert"]) {
      const ran = await nettools([command, "-H", hostname, certPath("chain-leaf")]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(words);
      expect(ran.stderr).not.toContain("must be a DNS name, not an IP address");
    }
  });
});

describe("environment defaults never make a command fail (CONTRACT §7.6)", () => {
  const notices = (ran: Ran) => ran.stderr.split("\n").filter((line) => line.startsWith("notice: "));

  test("NETTOOLS_ROOTS and NETTOOLS_SERVER both set: cert goes to the server, roots skipped with one notice", async () => {
    const env = { NETTOOLS_ROOTS: certPath("chain-root"), NETTOOLS_SERVER: api.url };
    const ran = await nettools(["cert", chainPath("chain-ordered")], env);
    expect(ran.code).toBe(1); // the server knows no private root: an intermediate "missing"
    expect(notices(ran)).toEqual([
      "notice: NETTOOLS_ROOTS is not used: the server's certificate-bundle operation takes no roots; cert uses them only when it runs in this process",
    ]);
    // chain's operation takes roots: both apply, no notice, and the chain is complete.
    const chain = await nettools(["chain", chainPath("chain-ordered")], env);
    expect([chain.code, notices(chain)]).toEqual([0, []]);
  });

  test("the same things as flags are still an error", async () => {
    const ran = await nettools([
      "cert",
      "--roots",
      certPath("chain-root"),
      "--server",
      api.url,
      chainPath("chain-ordered"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--roots works in this process only");
  });

  test("--roots with NETTOOLS_SERVER: the run stays in this process, with one notice", async () => {
    const ran = await nettools(["cert", "--roots", certPath("chain-root"), chainPath("chain-ordered")], {
      NETTOOLS_SERVER: "http://127.0.0.1:1",
    });
    expect(ran.code).toBe(0);
    expect(notices(ran)).toEqual([
      "notice: NETTOOLS_SERVER is not used for this run: --roots works in this process only: the API's bundle operation takes no roots",
    ]);
  });

  test("a NETTOOLS_ROOTS that cannot be read or holds a bad block is skipped with a notice naming it; --roots is an error naming the file", async () => {
    const missing = await nettools(["chain", chainPath("chain-ordered")], {
      NETTOOLS_ROOTS: join(scratch, "nope.pem"),
    });
    expect(missing.code).toBe(1); // judged without the roots: incomplete, not an input error
    expect(notices(missing)).toHaveLength(1);
    expect(notices(missing)[0]).toContain("NETTOOLS_ROOTS is not used: cannot read");
    const bad = file(
      "bad-roots.pem",
      `${certPem("chain-root")}\n-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n`,
    );
    const line = certPem("chain-root").split("\n").length + 1;
    const skipped = await nettools(["chain", chainPath("chain-ordered")], { NETTOOLS_ROOTS: bad });
    expect(skipped.code).toBe(1);
    expect(notices(skipped)).toHaveLength(1);
    expect(notices(skipped)[0]).toContain(`NETTOOLS_ROOTS is not used: ${bad}:${line}: `);
    for (const command of ["chain", "cert"]) {
      const flagged = await nettools([command, "--roots", bad, chainPath("chain-ordered")]);
      expect(flagged.code).toBe(2);
      expect(flagged.stderr).toContain(`${bad}:${line}: `);
      expect(flagged.stderr).toContain(`${line} | -----BEGIN CERTIFICATE-----`);
    }
  });

  test("a NETTOOLS_SERVER that is not a URL is skipped with a notice; --server is an error", async () => {
    const ran = await nettools(["cover", "--plain", "10.0.0.0/25", "10.0.0.128/25"], {
      NETTOOLS_SERVER: "localhost:3000",
    });
    expect([ran.code, ran.stdout, notices(ran).length]).toEqual([0, "10.0.0.0/24\n", 1]);
    expect((await nettools(["cover", "--server", "localhost:3000", "10.0.0.1"])).code).toBe(2);
  });
});
