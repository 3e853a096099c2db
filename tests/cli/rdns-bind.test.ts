/**
 * `nettools rdns --bind` (CONTRACT §12) with BIND's own checker as the oracle: each zone statement
 * names a zone and a file; that file, given the SOA and NS every zone needs, passes
 * `named-checkzone`; for RFC 2317 the parent's NS and `$GENERATE` lines load into the parent /24
 * zone and make the CNAMEs of RFC 2317 section 4, and the child zone starts at our `$ORIGIN`.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { scratchRunner } from "./run.ts";

const scratch = scratchRunner("nettools-rdns-bind-");
const { nettools } = scratch;
const path = (name: string, text: string): string => join(scratch.dir, scratch.file(name, text));

const SKELETON =
  "$TTL 3600\n@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 3600\n@ IN NS ns1.example.net.\n";

/** named-checkzone ZONE FILE (with -D: the zone as BIND reads it, on stdout). */
function checkZone(zone: string, file: string, dump = false): { code: number; stdout: string } {
  const ran = Bun.spawnSync(["named-checkzone", ...(dump ? ["-D"] : []), zone, file], {
    env: { PATH: `${process.env.PATH ?? ""}:/usr/sbin:/sbin` },
  });
  return { code: ran.exitCode, stdout: ran.stdout.toString() + ran.stderr.toString() };
}

/** The zone statements of an output: each zone's name and file. */
function statements(text: string): { zone: string; file: string }[] {
  return [...text.matchAll(/^zone "([^"]+)" \{ type master; file "([^"]+)"; \};$/gm)].map((m) => ({
    zone: m[1]!,
    file: m[2]!,
  }));
}

describe("rdns --bind, checked by named-checkzone", () => {
  test("IPv4 octet zones: one statement per zone, each zone loads", async () => {
    const ran = await nettools(["rdns", "--bind", "192.0.2.0/23", "10.0.0.0/8"]);
    expect(ran.code).toBe(0);
    const found = statements(ran.stdout);
    const plain = (await nettools(["rdns", "192.0.2.0/23", "10.0.0.0/8"])).stdout.trim().split("\n");
    expect(found.map(({ zone }) => `${zone}.`)).toEqual(plain);
    expect(found.map(({ file }) => file)).toEqual([
      "db.2.0.192.in-addr.arpa",
      "db.3.0.192.in-addr.arpa",
      "db.10.in-addr.arpa",
    ]);
    const conf = path(
      "named.conf",
      ran.stdout
        .split("\n")
        .filter((line) => line.startsWith("zone "))
        .join("\n"),
    );
    const confChecked = Bun.spawnSync(["named-checkconf", conf], {
      env: { PATH: `${process.env.PATH ?? ""}:/usr/sbin` },
    });
    expect({
      code: confChecked.exitCode,
      out: confChecked.stdout.toString() + confChecked.stderr.toString(),
    }).toEqual({ code: 0, out: "" });
    for (const { zone, file } of found) {
      const checked = checkZone(zone, path(file, `${SKELETON}1 IN PTR host.example.net.\n`));
      expect({ zone, ...checked }).toEqual({ zone, code: 0, stdout: expect.stringContaining("OK") });
    }
  });

  test("ip6.arpa nibble zones load", async () => {
    const ran = await nettools(["rdns", "--bind", "2001:db8::/31"]);
    const found = statements(ran.stdout);
    expect(found.map(({ zone }) => zone)).toEqual(["8.b.d.0.1.0.0.2.ip6.arpa", "9.b.d.0.1.0.0.2.ip6.arpa"]);
    for (const { zone, file } of found) {
      expect(checkZone(zone, path(file, SKELETON)).code).toBe(0);
    }
  });

  test("RFC 2317: the parent's NS and $GENERATE lines load and make the CNAMEs; the child zone loads", async () => {
    const ran = await nettools(["rdns", "--bind", "--ns", "ns2.example.org", "192.0.2.64/26"]);
    expect(ran.code).toBe(0);
    const lines = ran.stdout.split("\n");
    const parentLines = lines.filter((line) => line.includes("\tIN\tNS\t") || line.startsWith("$GENERATE "));
    expect(parentLines).toEqual([
      "64/26.2.0.192.in-addr.arpa.\tIN\tNS\tns2.example.org.",
      "$GENERATE 64-127 $ CNAME $.64/26.2.0.192.in-addr.arpa.",
    ]);
    const parent = path("db.2.0.192.in-addr.arpa", `${SKELETON}${parentLines.join("\n")}\n`);
    const loaded = checkZone("2.0.192.in-addr.arpa", parent, true);
    expect(loaded.code).toBe(0);
    const cnames = loaded.stdout.split("\n").filter((line) => /\sCNAME\s/.test(line));
    expect(cnames).toHaveLength(64);
    expect(loaded.stdout).toMatch(
      /^65\.2\.0\.192\.in-addr\.arpa\.\s+\d+\s+IN\s+CNAME\s+65\.64\/26\.2\.0\.192\.in-addr\.arpa\.$/m,
    );
    expect(loaded.stdout).toMatch(
      /^64\/26\.2\.0\.192\.in-addr\.arpa\.\s+\d+\s+IN\s+NS\s+ns2\.example\.org\.$/m,
    );

    const [child] = statements(ran.stdout);
    expect(child).toEqual({ zone: "64/26.2.0.192.in-addr.arpa", file: "db.64-26.2.0.192.in-addr.arpa" });
    const origin = lines.find((line) => line.startsWith("$ORIGIN "));
    expect(origin).toBe("$ORIGIN 64/26.2.0.192.in-addr.arpa.");
    const childFile = path(child!.file, `${origin}\n${SKELETON}65 IN PTR host.example.net.\n`);
    const childLoaded = checkZone(child!.zone, childFile, true);
    expect(childLoaded.code).toBe(0);
    expect(childLoaded.stdout).toMatch(
      /^65\.64\/26\.2\.0\.192\.in-addr\.arpa\.\s+\d+\s+IN\s+PTR\s+host\.example\.net\.$/m,
    );
  });

  test("--bind with --json, or --ns without --bind, is a usage error", async () => {
    expect((await nettools(["rdns", "--bind", "--json", "192.0.2.0/24"])).code).toBe(2);
    expect((await nettools(["rdns", "--ns", "ns.example.net", "192.0.2.0/24"])).code).toBe(2);
  });
});
