/**
 * `--format lines|json|nft|ipset|cisco` (CONTRACT §8.6), byte for byte, on every command that has
 * it: merge, subtract, split, common, alloc and range. The set formats describe the union (a split
 * is its block again, overlapping ranges are joined), write both families' sets unless `merge -4`
 * or `-6` kept one, split `/0` for ipset and say `maxelem` past 65536 entries. Then the real tools
 * load what we write: `nft -c -f` and `nft -f` (twice: a re-run replaces the elements) and
 * `ipset restore -exist`, inside a private network namespace (`unshare -n`), so the host's
 * firewall is never touched. Where no namespace can be made (not root), those tests say so in
 * their names and check only that the namespace really is refused.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { scratchRunner } from "./run.ts";

const scratch = scratchRunner("nettools-formats-");
const { nettools } = scratch;
/** Writes a file in the scratch directory; returns its full path (the namespace's shell needs it). */
const file = (name: string, text: string): string => join(scratch.dir, scratch.file(name, text));

const MIXED = ["10.0.0.0/8", "192.0.2.1", "2001:db8::/32", "::ffff:192.0.2.1"];

/** The nft script for sets NAME_v4 and NAME_v6 in TABLE holding `v4` and `v6` (few: one line each). */
function nft(table: string, name: string, v4: string[] | null, v6: string[] | null, family = "inet"): string {
  const sets = [
    ...(v4 === null ? [] : [[`${name}_v4`, "ipv4_addr", v4] as const]),
    ...(v6 === null ? [] : [[`${name}_v6`, "ipv6_addr", v6] as const]),
  ];
  return (
    `table ${family} ${table} {\n` +
    sets.map(([set, type]) => `\tset ${set} {\n\t\ttype ${type}\n\t\tflags interval\n\t}\n`).join("") +
    "}\n" +
    sets.map(([set]) => `flush set ${family} ${table} ${set}\n`).join("") +
    sets
      .filter(([, , cidrs]) => cidrs.length > 0)
      .map(([set, , cidrs]) => `add element ${family} ${table} ${set} { ${cidrs.join(", ")} }\n`)
      .join("")
  );
}

/**
 * The ipset script of CONTRACT §12 for sets NAME_v4 and NAME_v6: each created when missing, filled
 * as NAME.tmp, swapped in and the temporary set destroyed.
 */
function ipset(name: string, v4: string[] | null, v6: string[] | null, maxelem = ""): string {
  const sets = [
    ...(v4 === null ? [] : [[`${name}_v4`, "inet", v4] as const]),
    ...(v6 === null ? [] : [[`${name}_v6`, "inet6", v6] as const]),
  ];
  return sets
    .map(
      ([set, family, cidrs]) =>
        `create ${set} hash:net family ${family}${maxelem} -exist\n` +
        `create ${set}.tmp hash:net family ${family}${maxelem} -exist\n` +
        `flush ${set}.tmp\n` +
        cidrs.map((cidr) => `add ${set}.tmp ${cidr}\n`).join("") +
        `swap ${set}.tmp ${set}\ndestroy ${set}.tmp\n`,
    )
    .join("");
}

describe("each format, byte for byte", () => {
  test("merge: lines, json, nft, ipset and cisco of a mixed list", async () => {
    const lines = "10.0.0.0/8\n192.0.2.1/32\n::ffff:192.0.2.1/128\n2001:db8::/32\n";
    expect(await nettools(["merge", "--format", "lines", ...MIXED])).toEqual({
      code: 0,
      stdout: lines,
      stderr: "",
    });
    expect((await nettools(["merge", "--plain", ...MIXED])).stdout).toBe(lines);
    expect((await nettools(["merge", "--format", "json", ...MIXED])).stdout).toBe(
      '["10.0.0.0/8","192.0.2.1/32","::ffff:192.0.2.1/128","2001:db8::/32"]\n',
    );
    expect((await nettools(["merge", "--format", "nft", ...MIXED])).stdout).toBe(
      "table inet nettools {\n" +
        "\tset nettools_v4 {\n\t\ttype ipv4_addr\n\t\tflags interval\n\t}\n" +
        "\tset nettools_v6 {\n\t\ttype ipv6_addr\n\t\tflags interval\n\t}\n" +
        "}\n" +
        "flush set inet nettools nettools_v4\n" +
        "flush set inet nettools nettools_v6\n" +
        "add element inet nettools nettools_v4 { 10.0.0.0/8, 192.0.2.1/32 }\n" +
        "add element inet nettools nettools_v6 { ::ffff:192.0.2.1/128, 2001:db8::/32 }\n",
    );
    expect(
      (await nettools(["merge", "--format", "ipset", "--set-name", "block_list", ...MIXED])).stdout,
    ).toBe(
      "create block_list_v4 hash:net family inet -exist\n" +
        "create block_list_v4.tmp hash:net family inet -exist\n" +
        "flush block_list_v4.tmp\n" +
        "add block_list_v4.tmp 10.0.0.0/8\n" +
        "add block_list_v4.tmp 192.0.2.1/32\n" +
        "swap block_list_v4.tmp block_list_v4\n" +
        "destroy block_list_v4.tmp\n" +
        "create block_list_v6 hash:net family inet6 -exist\n" +
        "create block_list_v6.tmp hash:net family inet6 -exist\n" +
        "flush block_list_v6.tmp\n" +
        "add block_list_v6.tmp ::ffff:192.0.2.1/128\n" +
        "add block_list_v6.tmp 2001:db8::/32\n" +
        "swap block_list_v6.tmp block_list_v6\n" +
        "destroy block_list_v6.tmp\n",
    );
    expect((await nettools(["merge", "--format", "cisco", ...MIXED, "0.0.0.0/1"])).stdout).toBe(
      "0.0.0.0 127.255.255.255\n192.0.2.1 0.0.0.0\n::ffff:192.0.2.1/128\n2001:db8::/32\n",
    );
    expect((await nettools(["merge", "--format", "cisco", "0.0.0.0/0"])).stdout).toBe(
      "0.0.0.0 255.255.255.255\n",
    );
  });

  test("--table and --set-name name the nft table and sets; merge -4 and -6 write one family's set", async () => {
    expect(
      (await nettools(["merge", "--format", "nft", "--table", "filter", "--set-name", "bl", ...MIXED]))
        .stdout,
    ).toBe(nft("filter", "bl", ["10.0.0.0/8", "192.0.2.1/32"], ["::ffff:192.0.2.1/128", "2001:db8::/32"]));
    expect((await nettools(["merge", "-4", "--format", "nft", ...MIXED])).stdout).toBe(
      nft("nettools", "nettools", ["10.0.0.0/8", "192.0.2.1/32"], null),
    );
    expect((await nettools(["merge", "-6", "--format", "ipset", ...MIXED])).stdout).toBe(
      ipset("nettools", null, ["::ffff:192.0.2.1/128", "2001:db8::/32"]),
    );
    expect((await nettools(["merge", "-4", "--format", "json", ...MIXED])).stdout).toBe(
      '["10.0.0.0/8","192.0.2.1/32"]\n',
    );
  });

  test("the set formats describe the union; lines and json keep the command's own list", async () => {
    // split: four /24s as lines, one /22 as a set (both families' sets still written)
    expect((await nettools(["split", "--format", "json", "10.0.0.0/22", "24"])).stdout).toBe(
      '["10.0.0.0/24","10.0.1.0/24","10.0.2.0/24","10.0.3.0/24"]\n',
    );
    expect((await nettools(["split", "--format", "nft", "10.0.0.0/22", "24"])).stdout).toBe(
      nft("nettools", "nettools", ["10.0.0.0/22"], []),
    );
    // range: overlapping ranges are joined in a set, listed one by one in lines
    const ranges = file("ranges.txt", "10.0.0.0-10.0.0.9\n10.0.0.4 - 10.0.0.20\n2001:db8::1\n");
    expect((await nettools(["range", "--format", "lines", ranges])).stdout).toBe(
      "10.0.0.0/29\n10.0.0.8/31\n10.0.0.4/30\n10.0.0.8/29\n10.0.0.16/30\n10.0.0.20/32\n2001:db8::1/128\n",
    );
    expect((await nettools(["range", "--format", "cisco", ranges])).stdout).toBe(
      "10.0.0.0 0.0.0.15\n10.0.0.16 0.0.0.3\n10.0.0.20 0.0.0.0\n2001:db8::1/128\n",
    );
    // alloc: two adjacent /26s are one /25 in a set
    expect(
      (await nettools(["alloc", "-l", "26", "-n", "2", "--format", "ipset", "10.0.0.0/24"])).stdout,
    ).toBe(ipset("nettools", ["10.0.0.0/25"], []));
    // subtract and common
    expect(
      (await nettools(["subtract", "--format", "cisco", "10.0.0.0/24", "-x", "10.0.0.128/25"])).stdout,
    ).toBe("10.0.0.0 0.0.0.127\n");
    const a = file("a.txt", "10.0.0.0/24\n2001:db8::/32\n");
    const b = file("b.txt", "10.0.0.128/25\n2001:db8::/48\n");
    expect((await nettools(["common", "--format", "json", a, b])).stdout).toBe(
      '["10.0.0.128/25","2001:db8::/48"]\n',
    );
  });

  test("empty lists: lines and cisco print nothing, json []; nft and ipset empty the sets", async () => {
    const everything = ["10.0.0.0/24", "-x", "10.0.0.0/24"];
    expect((await nettools(["subtract", "--format", "lines", ...everything])).stdout).toBe("");
    expect((await nettools(["subtract", "--format", "cisco", ...everything])).stdout).toBe("");
    expect((await nettools(["subtract", "--format", "json", ...everything])).stdout).toBe("[]\n");
    expect((await nettools(["subtract", "--format", "nft", ...everything])).stdout).toBe(
      nft("nettools", "nettools", [], []),
    );
    expect((await nettools(["subtract", "--format", "ipset", ...everything])).stdout).toBe(
      ipset("nettools", [], []),
    );
  });

  test("ipset: /0 becomes its two /1 halves; past 65536 entries the create line says maxelem", async () => {
    expect((await nettools(["merge", "--format", "ipset", "0.0.0.0/0", "::/0"])).stdout).toBe(
      ipset("nettools", ["0.0.0.0/1", "128.0.0.0/1"], ["::/1", "8000::/1"]),
    );
    // 70,000 addresses, every other one of 10.0.0.0/14: nothing joins
    const scattered = Array.from(
      { length: 70_000 },
      (_, i) => `10.${i >> 15}.${(i >> 7) & 255}.${(i & 127) * 2}`,
    );
    const big = await nettools([
      "merge",
      "--format",
      "ipset",
      "-f",
      file("scattered.txt", `${scattered.join("\n")}\n`),
    ]);
    expect(big.stdout.split("\n").filter((line) => line.startsWith("create "))).toEqual([
      "create nettools_v4 hash:net family inet maxelem 70000 -exist",
      "create nettools_v4.tmp hash:net family inet maxelem 70000 -exist",
      "create nettools_v6 hash:net family inet6 -exist",
      "create nettools_v6.tmp hash:net family inet6 -exist",
    ]);
    expect(big.stdout.split("\n").filter((line) => line.startsWith("add ")).length).toBe(70_000);
  });

  test("nft: add element lines of at most 4,096 elements; --family ip and ip6 write their family's set", async () => {
    const scattered = Array.from(
      { length: 10_000 },
      (_, i) => `10.${i >> 15}.${(i >> 7) & 255}.${(i & 127) * 2}`,
    );
    const ran = await nettools([
      "merge",
      "--format",
      "nft",
      "-f",
      file("ten-thousand.txt", `${scattered.join("\n")}\n`),
    ]);
    const adds = ran.stdout.split("\n").filter((line) => line.startsWith("add element "));
    expect(adds.map((line) => line.split(", ").length)).toEqual([4096, 4096, 1808]);
    expect(adds[0]!.startsWith("add element inet nettools nettools_v4 { 10.0.0.0/32, 10.0.0.2/32, ")).toBe(
      true,
    );
    expect(await nettools(["merge", "--format", "nft", "--family", "ip", ...MIXED])).toEqual({
      code: 0,
      stdout: nft("nettools", "nettools", ["10.0.0.0/8", "192.0.2.1/32"], null, "ip"),
      stderr: "note: 2 IPv6 blocks left out: --family ip holds one family\n",
    });
    expect((await nettools(["merge", "--format", "nft", "--family", "ip6", "-6", ...MIXED])).stdout).toBe(
      nft("nettools", "nettools", null, ["::ffff:192.0.2.1/128", "2001:db8::/32"], "ip6"),
    );
  });

  test("usage: --format with --json, an unknown format, bad names, --plain with a set format: exit 2", async () => {
    for (const args of [
      ["--format", "json", "--json"],
      ["--format", "yaml"],
      ["--format", "nft", "--set-name", "1st"],
      ["--format", "nft", "--table", "a-b"],
      ["--format", "nft", "--set-name", "x".repeat(29)],
      ["--format", "ipset", "--plain"],
      ["--format", "ipset", "--set-name", "x".repeat(25)],
      ["--format", "nft", "--family", "arp"],
      ["--format", "ipset", "--family", "ip"],
      ["--format", "nft", "--family", "ip6", "-4"],
    ]) {
      const ran = await nettools(["merge", ...args, "10.0.0.0/8"]);
      expect({ args, code: ran.code, stdout: ran.stdout }).toEqual({ args, code: 2, stdout: "" });
    }
    expect(
      (await nettools(["merge", "--format", "nft", "--set-name", `a${"x".repeat(27)}`, "10.0.0.0/8"])).code,
    ).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Loading what we write into the real tools, in a private network namespace

/** Why the firewall tools cannot be run here, or null when they can. */
function namespaceProblem(): string | null {
  const probe = Bun.spawnSync(
    ["unshare", "-n", "sh", "-c", "nft list ruleset >/dev/null && ipset list >/dev/null"],
    {
      env: { PATH: `${process.env.PATH ?? ""}:/usr/sbin:/sbin` },
    },
  );
  if (probe.exitCode === 0) return null;
  return `unshare -n with nft and ipset failed (exit ${probe.exitCode}): ${probe.stderr.toString().trim().slice(0, 200)}`;
}

const PROBLEM = namespaceProblem();
const SBIN_PATH = `${process.env.PATH ?? ""}:/usr/sbin:/sbin`;

/** Runs `script` (sh) in a fresh network namespace; returns its exit code and output. */
function inNamespace(script: string): { code: number; stdout: string; stderr: string } {
  const ran = Bun.spawnSync(["unshare", "-n", "sh", "-ec", script], {
    env: { PATH: SBIN_PATH },
    cwd: scratch.dir,
  });
  return { code: ran.exitCode, stdout: ran.stdout.toString(), stderr: ran.stderr.toString() };
}

const load = PROBLEM === null ? "loaded" : `SKIPPED, no private network namespace here (${PROBLEM})`;

describe(`the real tools accept what we write (${load})`, () => {
  test(`nft -c -f and nft -f load the nft output, and a re-run replaces the elements (${load})`, async () => {
    if (PROBLEM !== null) {
      expect(inNamespace("true").code).not.toBe(0); // the reason above is real
      return;
    }
    const first = file(
      "first.nft",
      (await nettools(["merge", "--format", "nft", ...MIXED, "0.0.0.0/0"])).stdout,
    );
    const second = file(
      "second.nft",
      (
        await nettools([
          "range",
          "--format",
          "nft",
          file("r.txt", "10.0.0.0-10.0.0.9\n10.0.0.4 - 10.0.0.20\n"),
        ])
      ).stdout,
    );
    const ran = inNamespace(
      `nft -c -f ${first}; nft -f ${first}; nft -f ${first}; nft -c -f ${second}; nft -f ${second}; nft list ruleset`,
    );
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    // The second file's elements only: flush emptied what the first loaded.
    expect(ran.stdout.replace(/\s+/g, " ")).toContain("elements = { 10.0.0.0/28, 10.0.0.16/30, 10.0.0.20 }");
    expect(ran.stdout).not.toContain("2001:db8::/32");
  });

  test(`ipset restore -exist loads the ipset output, twice, with /0 halves and maxelem (${load})`, async () => {
    if (PROBLEM !== null) {
      expect(inNamespace("true").code).not.toBe(0);
      return;
    }
    const sets = file(
      "sets.ipset",
      (await nettools(["merge", "--format", "ipset", ...MIXED, "::/0"])).stdout,
    );
    const scattered = Array.from(
      { length: 66_000 },
      (_, i) => `10.${i >> 15}.${(i >> 7) & 255}.${(i & 127) * 2}`,
    );
    const big = file(
      "big.ipset",
      (
        await nettools([
          "merge",
          "--format",
          "ipset",
          "--set-name",
          "big",
          "-f",
          file("many.txt", `${scattered.join("\n")}\n`),
        ])
      ).stdout,
    );
    const ran = inNamespace(
      `ipset restore -exist < ${sets}; ipset restore -exist < ${sets}; ipset restore -exist < ${big}; ` +
        "ipset list nettools_v4 -o save; ipset list nettools_v6 -o save; ipset list big_v4 -t",
    );
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("add nettools_v4 10.0.0.0/8\n");
    expect(ran.stdout).toContain("add nettools_v6 ::/1\n");
    expect(ran.stdout).toContain("add nettools_v6 8000::/1\n");
    expect(ran.stdout).toContain("maxelem 66000");
    expect(ran.stdout).toContain("Number of entries: 66000");
  });

  test(`the blocklist job: a feed with junk → ipset and nft sets equal to Python's ipaddress (${load})`, async () => {
    if (PROBLEM !== null) {
      expect(inNamespace("true").code).not.toBe(0);
      return;
    }
    const valid = Array.from(
      { length: 3000 },
      (_, i) => `${(i * 7919) % 223}.${(i * 31) % 256}.${i % 256}.0/${20 + (i % 13)}`,
    );
    const feed = file(
      "junk-feed.txt",
      `${valid.map((line, i) => (i % 500 === 0 ? `junk ${i}\n${line}` : line)).join("\n")}\n`,
    );
    const python = Bun.spawnSync(
      [
        "python3",
        "-c",
        "import ipaddress,sys\nnets=[ipaddress.ip_network(l.strip(),strict=False) for l in sys.stdin if l.strip() and not l.startswith('junk')]\nprint('\\n'.join(str(n) for n in ipaddress.collapse_addresses(nets)))",
      ],
      { stdin: Buffer.from(await Bun.file(feed).text()) },
    );
    const expected = python.stdout.toString().trim().split("\n").sort();
    const ipsetRun = await nettools(["merge", "--skip-invalid", "--format", "ipset", "-f", feed]);
    const nftRun = await nettools(["merge", "--skip-invalid", "--format", "nft", "-f", feed]);
    expect(ipsetRun.stderr).toEndWith("skipped 6 invalid entries\n");
    const ran = inNamespace(
      `ipset restore < ${file("feed.ipset", ipsetRun.stdout)}; ipset restore < ${file("feed.ipset", ipsetRun.stdout)}; ` +
        `ipset list nettools_v4 -o save | sed -n 's/^add nettools_v4 //p'; echo --; ` +
        `nft -f ${file("feed.nft", nftRun.stdout)}; nft list set inet nettools nettools_v4`,
    );
    expect(ran.stderr).toBe("");
    const [ipsetPart, nftPart] = ran.stdout.split("--\n") as [string, string];
    const withLength = (cidr: string) => (cidr.includes("/") ? cidr : `${cidr}/32`);
    expect(ipsetPart.trim().split("\n").map(withLength).sort()).toEqual(expected);
    const nftElements = /elements = \{([^}]*)\}/.exec(nftPart)?.[1] ?? "";
    expect(
      nftElements
        .split(",")
        .map((e) => withLength(e.trim()))
        .sort(),
    ).toEqual(expected);
  });

  test(`a 70,000-entry nft set loads with nft -f in under 5 s (${load})`, async () => {
    if (PROBLEM !== null) {
      expect(inNamespace("true").code).not.toBe(0);
      return;
    }
    const scattered = Array.from(
      { length: 70_000 },
      (_, i) => `10.${i >> 15}.${(i >> 7) & 255}.${(i & 127) * 2}`,
    );
    const script = file(
      "seventy.nft",
      (await nettools(["merge", "--format", "nft", "-f", file("seventy.txt", `${scattered.join("\n")}\n`)]))
        .stdout,
    );
    expect(inNamespace(`nft -c -f ${script}`)).toEqual({ code: 0, stdout: "", stderr: "" });
    const started = performance.now();
    const ran = inNamespace(
      `nft -f ${script}; nft list set inet nettools nettools_v4 | tr ',' '\\n' | grep -c '10\\.'`,
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`nft -f of 70,000 elements (${script.split("/").pop()}): ${seconds.toFixed(2)} s`);
    expect(ran.stderr).toBe("");
    expect(ran.stdout.trim()).toBe("70000");
    expect(seconds).toBeLessThan(5);
  });

  test(`ipset restore twice in a row under a reader that never sees the set empty or missing (${load})`, async () => {
    if (PROBLEM !== null) {
      expect(inNamespace("true").code).not.toBe(0);
      return;
    }
    const many = Array.from({ length: 20_000 }, (_, i) => `172.16.${i >> 7}.${(i & 127) * 2}`);
    const sets = file(
      "swap.ipset",
      (
        await nettools([
          "merge",
          "--format",
          "ipset",
          "--set-name",
          "feed",
          "-f",
          file("swap.txt", `${many.join("\n")}\n`),
        ])
      ).stdout,
    );
    // The reader lists the live set's size in a loop (at most 60 s, at most 100,000 reads) until
    // the restores are done; a missing set prints "missing".
    const ran = inNamespace(
      `ipset restore < ${sets}; touch reading; ` +
        `( i=0; while [ -e reading ] && [ $i -lt 100000 ]; do i=$((i+1)); ` +
        `ipset list feed_v4 -t 2>/dev/null | sed -n 's/^Number of entries: //p' | grep . || echo missing; done > reads.txt ) & ` +
        `reader=$!; sleep 0.2; ipset restore < ${sets}; ipset restore < ${sets}; sleep 0.2; rm reading; wait $reader; ` +
        "ipset list -n; sort reads.txt | uniq -c",
    );
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    // Only the two live sets are left: the temporary ones were destroyed.
    expect(ran.stdout.split("\n").slice(0, 2)).toEqual(["feed_v4", "feed_v6"]);
    const counts = ran.stdout
      .split("\n")
      .slice(2)
      .filter((line) => line.trim() !== "")
      .map((line) => line.trim().split(/\s+/));
    console.log(`reader saw: ${counts.map(([n, what]) => `${what} × ${n}`).join(", ")}`);
    expect(counts.map(([, what]) => what)).toEqual(["20000"]);
    expect(Number(counts[0]![0])).toBeGreaterThan(2);
  }, 120_000);
});
