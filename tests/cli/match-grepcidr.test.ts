/**
 * `nettools match` against Debian's grepcidr 2.0 (CONTRACT §7.4, issue 24): the same stdout, byte
 * for byte, and the same exit status —
 * - on a committed log mixing nginx, Apache, HAProxy, iptables, sshd, JSON and key=value lines of
 *   both families with the edge cases of grepcidr's scanner (tests/fixtures/match/, written by
 *   make-fixtures.py), with pattern files holding CIDRs, single addresses, ranges, comments, CRLF
 *   and patterns grepcidr refuses, under `-v`, `-c` and `-v -c`;
 * - with patterns on the command line, several files, stdin, and inputs only C reads strangely
 *   (NUL bytes, lines around its 512-byte buffer, a last line without newline);
 * - on random lines and patterns built from the pieces logs and blocklists are made of (seeded).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { firstDifference, grepcidr, matchBytes } from "./match-harness.ts";

const FIXTURES = resolve(import.meta.dir, "../fixtures/match");
const dir = mkdtempSync(join(tmpdir(), "nettools-grepcidr-"));
cpSync(FIXTURES, dir, { recursive: true });

const FLAGS = [[], ["-v"], ["-c"], ["-v", "-c"]];

/** Runs both on `args` (and `stdin`) in the scratch directory and expects the same answer. */
async function expectSame(args: string[], stdin?: Uint8Array): Promise<{ code: number; stdout: Buffer }> {
  const theirs = grepcidr(args, dir, stdin);
  const ours = await matchBytes(args, dir, stdin);
  const where = `${args.join(" ")}: ${firstDifference(ours.stdout, theirs.stdout)}`;
  expect(where).toBe(`${args.join(" ")}: same`);
  expect(ours.stdout.equals(theirs.stdout)).toBe(true);
  expect(ours.code).toBe(theirs.code);
  return ours;
}

describe("the mixed log, every pattern file, every flag", () => {
  const files = ["patterns-mixed.txt", "patterns-v4.txt", "patterns-v6.txt", "patterns-none.txt"];
  for (const patterns of files) {
    for (const flags of FLAGS) {
      test(`${patterns} ${flags.join(" ")}`, async () => {
        const ran = await expectSame([...flags, "-f", patterns, "mixed.log"]);
        // Not vacuous: each real pattern file selects lines both ways.
        if (patterns !== "patterns-none.txt" && flags.length === 0) {
          expect(ran.stdout.toString().split("\n").length).toBeGreaterThan(10);
        }
      });
    }
  }

  test("every log format of the mixed log is selected (one line each)", async () => {
    const ran = await matchBytes(["-f", "patterns-mixed.txt", "mixed.log"], dir);
    const out = ran.stdout.toString();
    for (const piece of [
      "haproxy[1234]: 203.0.113.5:51234",
      "haproxy[1234]: [2001:db8:1::5]:443",
      "SRC=203.0.113.8",
      '"remote_addr":"203.0.113.6"',
      "client=203.0.113.5",
      "[client 192.0.2.44:52100]",
      "Failed password for root from 198.51.100.23",
      "Accepted publickey for deploy from 2001:db8:2::17",
      "SRC=2001:0db8:0000:0000:0000:0000:0000:0008",
    ]) {
      expect(out).toContain(piece);
    }
  });
});

describe("patterns on the command line, several inputs, stdin", () => {
  const cases: string[][] = [
    ["-e", "203.0.113.0/24,2001:db8::/32", "mixed.log"],
    ["-e", "192.0.2.40-192.0.2.50 10.0.0.0/8", "mixed.log"],
    ["203.0.113.0/25", "mixed.log"],
    ["-v", "2001:db8:1::/48\t::1", "mixed.log"],
    ["-e", "0.0.0.0/0", "mixed.log"],
    ["-e", "::/0", "-v", "mixed.log"],
    ["-e", "8.8.4.4", "-f", "patterns-v6.txt", "mixed.log"],
    ["-f", "patterns-mixed.txt", "mixed.log", "patterns-mixed.txt", "mixed.log"],
    ["-c", "-f", "patterns-mixed.txt", "mixed.log", "mixed.log"],
    ["-e", "not-a-pattern", "mixed.log"],
  ];
  for (const args of cases) {
    test(args.join(" "), async () => {
      await expectSame(args);
    });
  }

  test("the log on stdin", async () => {
    const log = new Uint8Array(Bun.file(join(dir, "mixed.log")).size);
    log.set(new Uint8Array(await Bun.file(join(dir, "mixed.log")).arrayBuffer()));
    for (const flags of FLAGS) await expectSame([...flags, "-f", "patterns-mixed.txt"], log);
  });

  test("a file that cannot be read: exit 2 after the lines of the files before it", async () => {
    const ran = await expectSame(["-f", "patterns-v4.txt", "mixed.log", "missing.log"]);
    expect(ran.code).toBe(2);
    expect(ran.stdout.length).toBeGreaterThan(0);
  });
});

describe("inputs C reads in its own way", () => {
  const write = (name: string, bytes: Uint8Array | string) => {
    writeFileSync(join(dir, name), bytes);
    return name;
  };
  const line = (pad: number, text: string) => `${"L".repeat(pad)} ${text}`;

  test("addresses around the end of the 512-, 1024- and 2048-byte buffers", async () => {
    const lines: string[] = [];
    for (const base of [480, 1000, 2030]) {
      for (let pad = base; pad < base + 40; pad++) lines.push(line(pad, `203.0.113.${pad % 250}`));
    }
    // A long line first grows the buffer: the same lines then read differently.
    const name = write("buffers.log", `${lines.join("\n")}\n${line(3000, "x")}\n${lines.join("\n")}\n`);
    for (const flags of FLAGS) await expectSame([...flags, "-e", "203.0.113.0/24", name]);
  });

  test("a last line without newline, of every length around the buffer's size", async () => {
    for (const length of [509, 510, 511, 512, 513, 1022, 1023, 1024, 2047]) {
      const last = `203.0.113.1 ${"x".repeat(length - 12)}`;
      expect(last.length).toBe(length);
      const name = write(`last-${length}.log`, `192.0.2.1 first\n${last}`);
      await expectSame(["-e", "203.0.113.0/24", name]);
      await expectSame(["-v", "-e", "192.0.2.1", name]);
    }
  });

  test("NUL bytes: a line is cut there and joined to the next read", async () => {
    const bytes = Buffer.from(
      [
        "203.0.113.1 before\x00after 192.0.2.1",
        "192.0.2.2 \x00 203.0.113.2",
        "\x00203.0.113.3 after a NUL at the start",
        "no\x00\x00address\x00",
        `${"L".repeat(600)}\x00 203.0.113.4`,
        "203.0.113.5 last\x00",
      ].join("\n"),
      "latin1",
    );
    const name = write("nul.log", bytes);
    for (const flags of FLAGS) {
      await expectSame([...flags, "-e", "203.0.113.0/24", name]);
      await expectSame([...flags, "-e", "192.0.2.0/24,2001:db8::/32", name]);
    }
  });

  test("bytes that are not UTF-8, and pattern lines longer than 511 bytes", async () => {
    const log = write("latin1.log", Buffer.from("caf\xe9 203.0.113.9\n\xff\xfe192.0.2.9\xff\n", "latin1"));
    const patterns = write(
      "long-patterns.txt",
      `# ${"c".repeat(509)}10.0.0.0/8\n${" ".repeat(511)}192.0.2.0/24\n203.0.113.0/24\n`,
    );
    for (const flags of FLAGS) await expectSame([...flags, "-f", patterns, log, "mixed.log"]);
  });

  test("patterns as sscanf reads them: signs, leading zeros, 32-bit wrap-around, garbage after", async () => {
    const patterns = write(
      "sscanf.txt",
      [
        "+203.0.113.0/+25",
        "010.000.000.000/8",
        "4294967488.0.2.0/24", // 2^32 + 192: 192.0.2.0/24
        "-0.-0.-0.-0",
        "198.51.100.0/4294967320", // 2^32 + 24
        "1. 2. 3. 4/ 32",
        "100.64.0.0/10 and then words",
        "2001:db8::/ 33",
        "2001:db8:1::/ -1",
        "203.0.113.200 - 203.0.113.100",
        "1.2.3.4.5",
        "::ffff:203.0.113.0/120",
        "",
      ].join("\n"),
    );
    for (const flags of FLAGS) await expectSame([...flags, "-f", patterns, "mixed.log"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Random logs and patterns

const octet = fc.integer({ min: 0, max: 255 });
const quad = fc.tuple(octet, octet, octet, octet).map((q) => q.join("."));
/** Addresses near the patterns below, so that lines match often. */
const nearV4 = fc.oneof(
  octet.map((d) => `203.0.113.${d}`),
  octet.map((d) => `203.0.113.0${d}`),
  fc.tuple(quad, octet).map(([q, d]) => `${q}.${d}`),
  fc.tuple(octet, octet).map(([c, d]) => `10.${c}.${d}.1`),
  octet.map((d) => `192.0.2.${d}`),
  quad,
);
const hexGroup = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
const v6Text = fc.oneof(
  fc.tuple(hexGroup, hexGroup).map(([a, b]) => `2001:db8:${a}::${b}`),
  fc.tuple(hexGroup, hexGroup).map(([a, b]) => `2001:DB8:${a.toUpperCase()}:0:0:0:0:${b}`),
  fc.array(hexGroup, { minLength: 8, maxLength: 8 }).map((g) => g.join(":")),
  fc.array(hexGroup, { minLength: 1, maxLength: 14 }).map((g) => g.join(":")),
  fc.tuple(hexGroup, hexGroup).map(([a, b]) => `0000:0000:0000:0000:0000:${a.padStart(4, "0")}:${b}.0.0.1`),
  quad.map((q) => `::ffff:${q}`),
  fc.tuple(hexGroup, quad).map(([a, q]) => `2001:db8::${a}:${q}`),
  hexGroup.map((a) => `fe80::${a}%eth0`),
  fc.constantFrom("::", "::1", "1::", ":::", "::ffff", "2001:db8::12345", "1:2", "abc:def::1"),
);
/** Pieces that are not addresses but touch them in real logs. */
const junk = fc.oneof(
  fc.constantFrom(
    "GET",
    "SRC=",
    "client=",
    '"',
    "[",
    "]:",
    ":",
    "::",
    "/24",
    ".",
    "..",
    "x",
    "abc",
    "ffff",
    "-",
    ",",
    "=",
    "\t",
    "\r",
    "é",
    "0",
    "00",
    "1.",
    ".5",
    "12:34:56",
  ),
  fc.integer({ min: 0, max: 99999 }).map(String),
  fc.integer({ min: 0, max: 0xfffff }).map((n) => n.toString(16)),
);
const piece = fc.oneof(
  { weight: 3, arbitrary: nearV4 },
  { weight: 2, arbitrary: v6Text },
  { weight: 4, arbitrary: junk },
  { weight: 1, arbitrary: fc.constantFrom("\x00", "\xff") },
);
const separator = fc.constantFrom("", " ", " ", ",", ":", "=", '"', "[", "]", "/", "-", "x");
const randomLine = fc
  .tuple(
    fc.array(fc.tuple(piece, separator), { maxLength: 10 }),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 470, max: 1040 }) },
    ),
  )
  .map(([parts, pad]) => (pad > 0 ? "P".repeat(pad) : "") + parts.map(([p, s]) => p + s).join(""));

const cidrV4 = fc.tuple(nearV4, fc.integer({ min: 0, max: 32 })).map(([a, n]) => `${a}/${n}`);
const cidrV6 = fc.tuple(v6Text, fc.integer({ min: 0, max: 128 })).map(([a, n]) => `${a}/${n}`);
const pattern = fc.oneof(
  { weight: 4, arbitrary: cidrV4 },
  { weight: 3, arbitrary: cidrV6 },
  { weight: 2, arbitrary: nearV4 },
  { weight: 2, arbitrary: v6Text },
  {
    weight: 2,
    arbitrary: fc.tuple(nearV4, nearV4, fc.constantFrom("-", " - ", "- ")).map(([a, b, d]) => a + d + b),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "# comment",
      "",
      "\r",
      "  # indented",
      " 10.0.0.0/8",
      "+10.0.0.0/8",
      "010.0.0.0/8",
      "10.0.0.0/8junk",
      "4294967306.0.0.0/8",
      "-0.-0.-0.-0",
      "2001:db8::/-1",
      "2001:db8::/129",
      "2001:db8::1-2001:db8::5",
      "192.0.2.1/33",
      "not a pattern",
    ),
  },
);

const scenario = fc.record({
  lines: fc.array(randomLine, { minLength: 1, maxLength: 40 }),
  finalNewline: fc.boolean(),
  patterns: fc.array(pattern, { minLength: 1, maxLength: 8 }),
  inline: fc.boolean(),
  flags: fc.constantFrom(...FLAGS),
});

describe("random logs and patterns (seeded)", () => {
  test("grepcidr's output and exit status, every time", async () => {
    const codes = [0, 0, 0];
    await fc.assert(
      fc.asyncProperty(scenario, async ({ lines, finalNewline, patterns, inline, flags }) => {
        writeFileSync(
          join(dir, "random.log"),
          Buffer.from(lines.join("\n") + (finalNewline ? "\n" : ""), "latin1"),
        );
        const patternArgs = inline
          ? [`-e${patterns.filter((p) => !/[\s,#]/.test(p) && p !== "").join(",") || "192.0.2.1"}`]
          : ["-f", "random-patterns.txt"];
        writeFileSync(join(dir, "random-patterns.txt"), Buffer.from(`${patterns.join("\n")}\n`, "latin1"));
        const ran = await expectSame([...flags, ...patternArgs, "random.log"]);
        codes[ran.code] = (codes[ran.code] ?? 0) + 1;
      }),
      { seed: 24, numRuns: 1500 },
    );
    // Not vacuous: many scenarios select lines, many select none.
    expect(codes[0]).toBeGreaterThan(300);
    expect(codes[1]).toBeGreaterThan(300);
  }, 120_000);
});
