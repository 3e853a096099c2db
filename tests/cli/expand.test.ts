/**
 * `nettools expand` (CONTRACT §8.7): every address of each ITEM, in order, against Python's
 * `ipaddress` for the text (RFC 5952; IPv4-mapped written `::ffff:a.b.c.d` as CONTRACT §2 says,
 * which Python 3.11 does not, so the oracle converts those); the cap counted before anything is
 * printed, with the exact total; stdin as list files come (§7.6); every bad ITEM reported.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { EXPAND_DEFAULT_MAX, expand } from "../../src/cli/commands/expand.ts";
import { capturingIo } from "./match-harness.ts";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `expand ARGS` in this process with `stdin`; usage errors are thrown. */
async function run(args: string[], stdin = ""): Promise<Ran> {
  const { io, output } = capturingIo(() => {
    throw new Error("no files here");
  }, Buffer.from(stdin));
  const code = (await expand.run(args, io)) as number;
  const { stdout, stderr } = output();
  return { code, stdout: stdout.toString(), stderr };
}

const ORACLE = `
import ipaddress, json, sys
out = []
for item in json.load(sys.stdin):
    if "-" in item:
        start, end = (ipaddress.ip_address(part.strip()) for part in item.split("-"))
        addresses = (ipaddress.ip_address(n) if start.version == 4 else ipaddress.IPv6Address(n)
                     for n in range(int(start), int(end) + 1))
    else:
        addresses = iter(ipaddress.ip_network(item, strict=False))
    for a in addresses:
        mapped = a.version == 6 and a.ipv4_mapped
        out.append("::ffff:" + str(mapped) if mapped else str(a))
sys.stdout.write("".join(line + "\\n" for line in out))
`;

/** What Python's ipaddress prints for `items`. */
function python(items: string[]): string {
  const ran = Bun.spawnSync(["python3", "-c", ORACLE], { stdin: Buffer.from(JSON.stringify(items)) });
  if (ran.exitCode !== 0) throw new Error(ran.stderr.toString());
  return ran.stdout.toString();
}

const octet = fc.integer({ min: 0, max: 255 });
const v4 = fc.tuple(octet, octet, octet, octet).map((q) => q.join("."));
const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
/** IPv6 texts with zero runs, mapped addresses and all-ones tails, so every RFC 5952 case comes up. */
const v6 = fc.oneof(
  fc.array(fc.oneof(group, fc.constant("0")), { minLength: 8, maxLength: 8 }).map((g) => g.join(":")),
  fc.tuple(group, group).map(([a, b]) => `2001:db8::${a}:${b}`),
  v4.map((q) => `::ffff:${q}`),
  fc.constantFrom(
    "::",
    "::1",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00",
    "1:0:0:1:0:0:0:fff0",
    "0:0:1::",
    "::ffff:0:0",
  ),
);
const item = fc.oneof(
  v4,
  v6,
  fc.tuple(v4, fc.integer({ min: 24, max: 32 })).map(([a, n]) => `${a}/${n}`),
  fc.tuple(v6, fc.integer({ min: 118, max: 128 })).map(([a, n]) => `${a}/${n}`),
  fc.tuple(v4, fc.integer({ min: 0, max: 300 })).map(([a, n]) => {
    const start = a.split(".").map(Number);
    const value = ((start[0]! << 24) | (start[1]! << 16) | (start[2]! << 8) | start[3]!) >>> 0;
    const end = Math.min(0xffff_ffff, value + n);
    return `${a}-${[end >>> 24, (end >>> 16) & 255, (end >>> 8) & 255, end & 255].join(".")}`;
  }),
);

describe("expand against Python's ipaddress", () => {
  test("random addresses, CIDRs and ranges of both families: the same lines, in order", async () => {
    const cases = fc.sample(fc.array(item, { minLength: 1, maxLength: 6 }), { seed: 87, numRuns: 60 });
    let lines = 0;
    for (const items of cases) {
      const ran = await run(items);
      // A random CIDR often has host bits set: said on stderr (CONTRACT §12), nothing else is.
      const hostBits = items.filter(
        (entry) => entry.includes("/") && ran.stderr.includes(`${entry} has host bits set: using `),
      );
      expect(ran.stderr.split("\n").filter((line) => line !== "").length).toBe(hostBits.length);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe(python(items));
      lines += ran.stdout.split("\n").length - 1;
    }
    expect(lines).toBeGreaterThan(2000);
  });

  test("the edges: the last addresses of both spaces, a range crossing words, mapped and zero runs", async () => {
    const items = [
      "255.255.255.252/30",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffc/126",
      "::fffe:ffff:fffe-::ffff:0:1",
      "2001:db8:0:0:1::/126",
      "0.0.0.0/31",
      "::/126",
      "10.0.0.255-10.0.1.2",
    ];
    const ran = await run(items);
    expect(ran.stdout).toBe(python(items));
    expect(ran.stdout).toContain("::ffff:0.0.0.0\n");
  });
});

describe("expand's rules", () => {
  test("ITEMs in argument order, nothing merged: overlapping ITEMs print their addresses twice", async () => {
    const ran = await run(["192.0.2.2/31", "192.0.2.0/30", "192.0.2.1"]);
    expect(ran.stdout).toBe("192.0.2.2\n192.0.2.3\n192.0.2.0\n192.0.2.1\n192.0.2.2\n192.0.2.3\n192.0.2.1\n");
  });

  test("the cap is the total of all ITEMs, counted before anything is printed, with the exact total", async () => {
    expect((await run(["10.0.0.0/16"])).stdout.split("\n").length - 1).toBe(EXPAND_DEFAULT_MAX);
    expect(await run(["10.0.0.0/17", "10.0.128.0/17", "192.0.2.1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: would print 65537 addresses, over the limit of 65536 (--max)\n",
    });
    expect(await run(["--max", "3", "192.0.2.0/30"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: would print 4 addresses, over the limit of 3 (--max)\n",
    });
    expect((await run(["::/0"])).stderr).toBe(
      "error: would print 340282366920938463463374607431768211456 addresses, over the limit of 65536 (--max)\n",
    );
    expect((await run(["--max", "4", "192.0.2.0/30"])).code).toBe(0);
  });

  test("--max takes 1 to 16777216", async () => {
    for (const bad of ["0", "16777217", "1e3", "-1", "abc", ""]) {
      await expect(run([`--max=${bad}`, "192.0.2.1"])).rejects.toThrow(
        "--max must be a whole number from 1 to 16777216",
      );
    }
    expect((await run(["--max", "16777216", "10.0.0.0/31"])).stdout).toBe("10.0.0.0\n10.0.0.1\n");
  });

  test("- reads ITEMs from stdin as list files come: BOM, CRLF, comments, blank lines", async () => {
    const ran = await run(
      ["192.0.2.9", "-"],
      "\ufeff192.0.2.1 # first\r\n\r\n# a comment\r\n2001:db8::1-2001:db8::2\r\n",
    );
    expect(ran).toEqual({ code: 0, stdout: "192.0.2.9\n192.0.2.1\n2001:db8::1\n2001:db8::2\n", stderr: "" });
  });

  test("every bad ITEM is reported at its place, and nothing is printed", async () => {
    const ran = await run(
      ["192.0.2.1", "010.0.0.1", "-"],
      "10.0.0.9-10.0.0.1\n\n2001:db8::1 - 10.0.0.1\nfe80::1%eth0\n",
    );
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    const lines = ran.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toStartWith('error: arg 2: "010.0.0.1" is not a valid IPv4');
    expect(lines[1]).toBe('error: stdin:1: "10.0.0.9-10.0.0.1" is not a range: START is after END');
    expect(lines[2]).toBe(
      'error: stdin:3: "2001:db8::1 - 10.0.0.1" is not a range: START is IPv6 and END is IPv4',
    );
    expect(lines[3]).toStartWith('error: stdin:4: "fe80::1%eth0"');
  });

  test("usage", async () => {
    await expect(run([])).rejects.toThrow("expand needs at least one ITEM");
    await expect(run(["-", "-"])).rejects.toThrow("stdin");
    await expect(run(["--bogus", "10.0.0.1"])).rejects.toThrow("bogus");
    expect((await run(["--help"])).stdout).toStartWith("Usage: nettools expand");
  });
});
