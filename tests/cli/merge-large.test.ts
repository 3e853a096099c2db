/**
 * Real-world size (issue 13): `nettools merge` on 100,000 entries read from a file, in-process,
 * against Python's `ipaddress.collapse_addresses` on the same file. No timing here: the wall
 * times are measured by bench/merge-vs-python.sh and recorded in docs/performance.md.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNettools } from "./run.ts";

const ENTRIES = 100_000;

/** Seeded entries: scattered IPv4 blocks /20–/32, a third of them adjacent to or inside an earlier one. */
function entries(): string[] {
  // mulberry32: a small seeded generator with exact 32-bit arithmetic.
  let seed = 1303;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const word = (t ^ (t >>> 14)) >>> 0;
    return word / 2 ** 32;
  };
  const out: string[] = [];
  const blocks: [number, number][] = [];
  const lengths = [20, 22, 24, 24, 26, 28, 29, 30, 31, 32, 32, 32];
  for (let i = 0; i < ENTRIES; i++) {
    let network: number;
    let bits: number;
    if (blocks.length > 0 && random() < 0.35) {
      [network, bits] = blocks[Math.floor(random() * blocks.length)]!;
      if (random() < 0.5) network = (network + 2 ** (32 - bits)) % 2 ** 32;
      else if (bits < 32) bits += 1 + Math.floor(random() * (32 - bits));
    } else {
      bits = lengths[Math.floor(random() * lengths.length)]!;
      const size = 2 ** (32 - bits);
      network = Math.floor((2 ** 24 + random() * (223 * 2 ** 24)) / size) * size;
    }
    blocks.push([network, bits]);
    const host = bits < 32 && random() < 0.2 ? network + Math.floor(random() * 2 ** (32 - bits)) : network;
    const text = [host >>> 24, (host >>> 16) & 255, (host >>> 8) & 255, host & 255].join(".");
    out.push(bits === 32 ? text : `${text}/${bits}`);
  }
  return out;
}

test("merge of 100,000 entries equals Python's collapse_addresses", async () => {
  const dir = mkdtempSync(join(tmpdir(), "nettools-merge-"));
  const path = join(dir, "entries.txt");
  writeFileSync(path, `${entries().join("\n")}\n`);

  const ours = runNettools(["merge", "--plain", "-f", path]);
  const python = Bun.spawn(
    [
      "python3",
      "-c",
      `import ipaddress, sys
nets = [ipaddress.ip_network(l.strip(), strict=False) for l in open(sys.argv[1]) if l.strip()]
sys.stdout.write("".join(f"{n}\\n" for n in ipaddress.collapse_addresses(nets)))`,
      path,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [{ stdout: merged, stderr, code }, theirs, pythonCode] = await Promise.all([
    ours,
    new Response(python.stdout).text(),
    python.exited,
  ]);
  // The only words on stderr are the host-bit notices (CONTRACT §12), one per entry that has them.
  const notices = stderr.split("\n").filter((line) => line !== "");
  expect(notices.filter((line) => !/^\S+:\d+: \S+ has host bits set: using \S+$/.test(line))).toEqual([]);
  expect(code).toBe(0);
  expect(pythonCode).toBe(0);
  const lines = merged.trimEnd().split("\n");
  // Enough merging and enough left over to make the comparison meaningful.
  expect(lines.length).toBeGreaterThan(ENTRIES / 2);
  expect(lines.length).toBeLessThan(ENTRIES);
  expect(merged).toBe(theirs);
}, 120_000);
