/**
 * `nettools` at the sizes and in the forms people use locally (issue 13): merge, --plain for pipes,
 * the range spellings, input errors at `FILE:LINE` / `stdin:LINE` / `arg N` in plain words, lists
 * far over the API's limits in-process, and `info`.
 */
import { describe, expect, test } from "bun:test";
import { serverPerFile } from "../e2e/server.ts";
import { postForText, scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("nettools-local-");
const server = serverPerFile();

/** The server's raw answer to a POST, as text. */
const serverBody = (path: string, body: unknown) => postForText(server.url, path, body);

/** 1,500 /24s, 10.0.0.0/24 … in order: merges into a handful of blocks. */
const LINES = Array.from({ length: 1500 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);

describe("merge", () => {
  test("collapses a mixed list, IPv4 first; into a pipe one CIDR a line; --json is cidr-merge's answer", async () => {
    const entries = [
      "2001:db8:8000::/33",
      "10.0.0.128/25",
      "10.0.0.0/25",
      "2001:db8::/33",
      "192.0.2.7",
      "10.0.0.5",
    ];
    const ran = await nettools(["merge", ...entries]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("10.0.0.0/24\n192.0.2.7/32\n2001:db8::/32\n");
    expect((await nettools(["merge", "-4", ...entries])).stdout).toBe("10.0.0.0/24\n192.0.2.7/32\n");
    expect((await nettools(["merge", "-6", ...entries])).stdout).toBe("2001:db8::/32\n");
    const json = await nettools(["merge", "--json", ...entries]);
    expect(json.stdout).toBe(`${await serverBody("/v1/cidr-merge", { inputs: entries })}\n`);
    const remote = await nettools(["merge", "--json", "--server", server.url, ...entries]);
    expect(remote.stdout).toBe(json.stdout);
  });

  test("1,500 lines from a file, over the API's 1000, in-process", async () => {
    const ran = await nettools(["merge", "--plain", "-f", file("blocks.txt", `${LINES.join("\n")}\n`)]);
    expect(ran.code).toBe(0);
    // 1,500 /24s from 10.0.0.0: five whole /16s, then 220 = 128 + 64 + 16 + 8 + 4 more /24s.
    expect(ran.stdout).toBe(
      [
        "10.0.0.0/14",
        "10.4.0.0/16",
        "10.5.0.0/17",
        "10.5.128.0/18",
        "10.5.192.0/20",
        "10.5.208.0/21",
        "10.5.216.0/22",
        "",
      ].join("\n"),
    );
  });
});

describe("--plain", () => {
  test("one CIDR a line on cover, subtract, merge and range; nothing else", async () => {
    expect((await nettools(["cover", "--plain", "10.0.0.0/24", "10.0.1.7"])).stdout).toBe("10.0.0.0/23\n");
    expect((await nettools(["subtract", "--plain", "10.0.0.0/22", "-x", "10.0.1.0/24"])).stdout).toBe(
      "10.0.0.0/24\n10.0.2.0/23\n",
    );
    expect((await nettools(["merge", "--plain", "-"], "2001:db8::/33\n2001:db8:8000::/33\n")).stdout).toBe(
      "2001:db8::/32\n",
    );
    expect((await nettools(["range", "--plain", "192.0.2.10", "192.0.2.20"])).stdout).toBe(
      "192.0.2.10/31\n192.0.2.12/30\n192.0.2.16/30\n192.0.2.20/32\n",
    );
  });

  test("an empty result prints nothing; errors still go to stderr with exit 2", async () => {
    const empty = await nettools(["subtract", "--plain", "10.0.0.0/24", "-x", "10.0.0.0/8"]);
    expect(empty).toEqual({ code: 0, stdout: "", stderr: "" });
    const bad = await nettools(["merge", "--plain", "10.0.0.1", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    // N counts every argument after the command, options included.
    expect(bad.stderr).toContain('arg 3: "nope" is not a valid IP address');
  });

  test("--plain with --json is a usage error", async () => {
    const ran = await nettools(["cover", "--plain", "--json", "10.0.0.1"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--json and --plain cannot be used together");
  });
});

describe("range spellings", () => {
  const expected = "192.0.2.10/31\n192.0.2.12/30\n192.0.2.16/30\n192.0.2.20/32\n";
  test.each([
    [["192.0.2.10", "192.0.2.20"]],
    [["192.0.2.10-192.0.2.20"]],
    [["192.0.2.10", "-", "192.0.2.20"]],
    [["192.0.2.10 - 192.0.2.20"]],
    [["192.0.2.10-", "192.0.2.20"]],
  ])("%j", async (words) => {
    const ran = await nettools(["range", "--plain", ...words]);
    expect(ran).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  test("whois's NetRange value on stdin", async () => {
    const ran = await nettools(["range", "--plain", "-"], "192.0.2.10 - 192.0.2.20\n");
    expect(ran.stdout).toBe(expected);
  });

  test.each([[["a", "b", "c"]], [["10.0.0.1-10.0.0.2-10.0.0.3"]], [["10.0.0.1", "-"]]])(
    "%j is a usage error",
    async (words) => {
      const ran = await nettools(["range", ...words]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain("START - END");
    },
  );
});

describe("input errors name the place and speak plainly", () => {
  test("FILE:LINE for an entry of a 1,500-line file", async () => {
    const lines = [...LINES];
    lines[1202] = "10.0.0.256";
    const name = file("addresses.txt", `# office\n${lines.join("\n")}\n`);
    for (const command of [
      ["cover", "-f", name],
      ["merge", "-f", name],
      ["subtract", "10.0.0.0/8", "-X", name],
    ]) {
      const ran = await nettools(command);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        'error INVALID_INPUT: addresses.txt:1204: "10.0.0.256" is not a valid IPv4 address: octet 256 is above 255\n',
      );
    }
  });

  test("stdin:LINE and arg N (an -x value counts as its own argument)", async () => {
    const fromStdin = await nettools(["merge", "-"], "10.0.0.1\n\n10.0.0.300\n");
    expect(fromStdin.stderr).toContain('stdin:3: "10.0.0.300"');
    const fromArgs = await nettools(["subtract", "10.0.0.0/8", "-x", "10.1.0.0/16", "--exclude=10.2.0.0/33"]);
    expect(fromArgs.stderr).toContain('arg 4: "10.2.0.0/33" is not a valid IPv4 CIDR');
  });

  test("many invalid entries: one line each for the first 100, then that more were found", async () => {
    const lines = Array.from({ length: 150 }, (_, i) => `10.0.${i}.999`);
    const ran = await nettools(["merge", "-f", file("bad.txt", lines.join("\n"))]);
    expect(ran.stderr).toStartWith("error INVALID_INPUT: more than 100 problems in the input\n");
    expect(ran.stderr).toContain('  - bad.txt:1: "10.0.0.999"');
    expect(ran.stderr).toContain('  - bad.txt:100: "10.0.99.999"');
    expect(ran.stderr).not.toContain("bad.txt:101:");
    expect(ran.stderr).toEndWith("  … and more, not listed\n");
  });

  test("no schema jargon: an over-long entry, and the server's list limit through --server", async () => {
    const long = await nettools(["cover", "10.0.0.1", "1".repeat(70)]);
    expect(long.stderr).toBe(
      "error INVALID_INPUT: arg 2: the entry is longer than 64 characters, too long for any address or CIDR\n",
    );
    // Checked the same way with --json: the server's own envelope for that request.
    const longJson = await nettools(["cover", "--json", "10.0.0.1", "1".repeat(70)]);
    expect(longJson.stdout).toBe(
      `${await serverBody("/v1/cidr-cover", { inputs: ["10.0.0.1", "1".repeat(70)] })}\n`,
    );
    const name = file("many.txt", LINES.join("\n"));
    const remote = await nettools(["cover", "--server", server.url, "-f", name]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).not.toContain("Expected");
    expect(remote.stderr).toContain(
      "the address list may have at most 1000 entries; it has 1500 (the server's limit; run without --server to use the local limits)",
    );
    const json = await nettools(["cover", "--json", "--server", server.url, "-f", name]);
    expect(json.stdout).toBe(`${await serverBody("/v1/cidr-cover", { inputs: LINES })}\n`);
  });

  test("--json keeps the API's envelope, locally too", async () => {
    const inputs = ["10.0.0.1", "10.0.0.256"];
    const ran = await nettools(["cover", "--json", ...inputs]);
    expect(ran.stdout).toBe(`${await serverBody("/v1/cidr-cover", { inputs })}\n`);
    const over = await nettools(["cover", "--json", "-f", file("over.txt", LINES.join("\n"))]);
    expect(JSON.parse(over.stdout)).toMatchObject({
      cidr: "10.0.0.0/13",
      inputAddressCount: String(1500 * 256),
    });
  });
});

describe("info", () => {
  test("ipcalc-style facts of an IPv4 block", async () => {
    const ran = await nettools(["info", "100.64.1.7/10"]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^address\s+100\.64\.1\.7\ncidr\s+100\.64\.0\.0\/10\n/);
    expect(ran.stdout).toMatch(/\nnetmask\s+255\.192\.0\.0 = \/10\n/);
    expect(ran.stdout).toMatch(/\nwildcard\s+0\.63\.255\.255\n/);
    expect(ran.stdout).toMatch(/\nbroadcast\s+100\.127\.255\.255\n/);
    expect(ran.stdout).toMatch(/\nusable hosts\s+4194302\n/);
    expect(ran.stdout).toMatch(/\ntype\s+Shared Address Space, RFC 6598 \(100\.64\.0\.0\/10\)\n/);
  });

  test("IPv6: /64 count, embedded IPv4, blocks inside a wide prefix; --json", async () => {
    const mapped = await nettools(["info", "::ffff:192.168.0.1"]);
    expect(mapped.stdout).toMatch(/\nembedded IPv4\s+192\.168\.0\.1: Private-Use, RFC 1918/);
    const wide = await nettools(["info", "2001::/16"]);
    expect(wide.stdout).toMatch(/\n\/64 subnets\s+281474976710656\n/);
    expect(wide.stdout).toContain("2001:db8::/32");
    const json = JSON.parse((await nettools(["info", "--json", "fe80::1/64"])).stdout);
    expect(json).toMatchObject({ cidr: "fe80::/64", subnets64: "1", type: { name: "Link-Local Unicast" } });
  });

  test("invalid input: exit 2 with the parser's sentence; two arguments: usage", async () => {
    const ran = await nettools(["info", "10.0.0.256"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'error INVALID_INPUT: arg 1: "10.0.0.256" is not a valid IPv4 address: octet 256 is above 255\n',
    );
    const json = await nettools(["info", "--json", "10.0.0.256"]);
    expect(JSON.parse(json.stdout).error.code).toBe("INVALID_INPUT");
    expect((await nettools(["info", "10.0.0.1", "10.0.0.2"])).code).toBe(2);
  });
});
