/**
 * The MaxMind DB adapter (src/adapters/geoip/maxmind-databases.ts, CONTRACT §8.10) on the test
 * databases of tests/fixtures/geoip/, with libmaxminddb's `mmdblookup` (Debian's mmdb-bin) as the
 * oracle: for every network of every fixture, its first and last address, a neighbour outside it
 * and seeded random addresses around it, the adapter's asn, asnOrg and country equal what
 * mmdblookup reads, and are absent exactly when it finds nothing. Then: IPv6 in an IPv4-only
 * database, files that are refused (and the one line that says why), one file for both variables,
 * and reloads that swap the data or keep it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  GeoipFileError,
  MaxMindNetworkFacts,
  type ReloadReport,
  reloadLogLines,
} from "../../src/adapters/geoip/maxmind-databases.ts";
import { IpAddr, parseAddr } from "../../src/domain/ip/addr.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/geoip");
const fixture = (name: string) => join(FIXTURES, name);

interface FixtureDatabase {
  file: string;
  ipVersion: 4 | 6;
  databaseType: string;
  buildEpoch: number;
  networks: { network: string; record: Record<string, unknown> }[];
  absent: string[];
}
const SPEC = JSON.parse(readFileSync(fixture("databases.json"), "utf8")) as { databases: FixtureDatabase[] };

function addr(text: string): IpAddr {
  const parsed = parseAddr(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** mmdblookup's value at `path` for `ip`, or null when it finds no entry (or no such path). */
function mmdblookup(file: string, ip: string, ...path: string[]): number | string | null {
  const run = Bun.spawnSync(["mmdblookup", "--file", file, "--ip", ip, ...path]);
  const output = run.stdout.toString();
  if (run.exitCode !== 0 || output.trim() === "") return null;
  const number = /^\s*(\d+) <uint32>\s*$/.exec(output);
  if (number) return Number(number[1]);
  const text = /^\s*"(.*)" <utf8_string>\s*$/s.exec(output);
  if (text) return text[1] ?? null;
  throw new Error(`unexpected mmdblookup output for ${ip} ${path.join(" ")}: ${output}`);
}

/** The address `offset` away from `address` (same family), or null past either end. */
function step(address: IpAddr, offset: bigint): IpAddr | null {
  const value = address.toBigInt() + offset;
  const max = address.family === 4 ? 0xffff_ffffn : (1n << 128n) - 1n;
  return value < 0n || value > max ? null : IpAddr.fromBigInt(address.family, value);
}

/** First, last, the neighbours outside, and seeded random addresses of each network and around it. */
function probesOf(database: FixtureDatabase): IpAddr[] {
  let seed = 26;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return BigInt(seed);
  };
  const probes: IpAddr[] = [];
  for (const { network } of database.networks) {
    const [base, length] = network.split("/") as [string, string];
    const first = addr(base);
    const size = 1n << BigInt(first.bitLength - Number(length));
    const last = step(first, size - 1n) as IpAddr;
    for (const candidate of [first, last, step(first, -1n), step(last, 1n)])
      if (candidate) probes.push(candidate);
    // Random addresses in the network and in the same-sized ranges either side of it.
    for (let i = 0; i < 6; i++) {
      const offset = ((random() << 32n) | random()) % (3n * size);
      const probe = step(first, offset - size);
      if (probe) probes.push(probe);
    }
  }
  return [...probes, ...database.absent.map(addr)];
}

describe.each(SPEC.databases.map((database) => [database.file, database] as const))(
  "%s agrees with mmdblookup",
  (file, database) => {
    const path = fixture(file);
    const both = { asn: path, country: path };

    test("asn, asnOrg and country: equal where mmdblookup finds them, absent where it does not", async () => {
      const facts = await MaxMindNetworkFacts.open(both);
      const probes = probesOf(database);
      expect(probes.length).toBeGreaterThan(database.networks.length * 6);
      let found = 0;
      for (const probe of probes) {
        const ip = probe.toString();
        // An IPv6 address in an IPv4-only database: mmdblookup refuses the lookup; nothing is found.
        const asn =
          probe.family === 6 && database.ipVersion === 4
            ? null
            : mmdblookup(path, ip, "autonomous_system_number");
        const asnOrg =
          probe.family === 6 && database.ipVersion === 4
            ? null
            : mmdblookup(path, ip, "autonomous_system_organization");
        const country =
          probe.family === 6 && database.ipVersion === 4 ? null : mmdblookup(path, ip, "country", "iso_code");
        const { databaseType: _asnType, ...asnFacts } = facts.asnOf(probe) ?? { databaseType: "" };
        const { databaseType: _countryType, ...countryFacts } = facts.countryOf(probe) ?? {
          databaseType: "",
        };
        const adapter: Record<string, unknown> = { ip, ...asnFacts, ...countryFacts };
        expect(adapter).toEqual({
          ip,
          ...(asn === null ? {} : { asn }),
          ...(asnOrg === null ? {} : { asnOrg }),
          ...(country === null ? {} : { country }),
        });
        if (asn !== null || country !== null) found++;
      }
      expect(found).toBeGreaterThanOrEqual(database.networks.length * 2);
    });

    test("the metadata as mmdblookup prints it", async () => {
      const facts = await MaxMindNetworkFacts.open(both);
      const verbose = Bun.spawnSync([
        "mmdblookup",
        "--verbose",
        "--file",
        path,
        "--ip",
        "0.0.0.0",
      ]).stdout.toString();
      const type = /Type:\s+(.*)\n/.exec(verbose)?.[1];
      const builtAt = new Date(Number(/Build epoch:\s+(\d+)/.exec(verbose)?.[1]) * 1000);
      const ipVersion = Number(/IP version:\s+IPv(\d)/.exec(verbose)?.[1]);
      const listed: unknown[] = [...facts.databases()];
      expect(listed).toEqual([
        { variable: "GEOIP_ASN_DB", databaseType: type, builtAt, ipVersion },
        { variable: "GEOIP_COUNTRY_DB", databaseType: type, builtAt, ipVersion },
      ]);
      expect(type).toBe(database.databaseType);
    });
  },
);

describe("address families", () => {
  test("an IPv4 address is found in an IPv6 database's IPv4 subtree (::a.b.c.d)", async () => {
    const facts = await MaxMindNetworkFacts.open({ asn: fixture("dbip-asn.mmdb"), country: null });
    expect(facts.asnOf(addr("198.51.100.7"))?.asn).toBe(64500);
    expect(mmdblookup(fixture("dbip-asn.mmdb"), "::198.51.100.7", "autonomous_system_number")).toBe(64500);
  });

  test("an IPv6 address in an IPv4-only database finds nothing, even where its first 32 bits would", async () => {
    const path = fixture("geolite2-country-ipv4.mmdb");
    const facts = await MaxMindNetworkFacts.open({ asn: null, country: path });
    expect(facts.countryOf(addr("198.51.100.7"))).toEqual({
      country: "BE",
      databaseType: "GeoLite2-Country",
    });
    // c633:6407:: begins with the bits of 198.51.100.7: a walk of the IPv4 tree would answer BE.
    expect(facts.countryOf(addr("c633:6407::1"))).toBeNull();
    expect(mmdblookup(path, "c633:6407::1", "country", "iso_code")).toBeNull();
  });

  test("no database configured: nothing is looked up, no database listed", async () => {
    const facts = await MaxMindNetworkFacts.open({ asn: null, country: null });
    expect(facts.asnOf(addr("198.51.100.7"))).toBeNull();
    expect(facts.countryOf(addr("198.51.100.7"))).toBeNull();
    expect(facts.databases()).toEqual([]);
  });
});

const scratch = mkdtempSync(join(tmpdir(), "geoip-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("files that cannot be used are refused, naming the variable and the path", () => {
  const damagedTree = join(scratch, "damaged-tree.mmdb");
  const bytes = readFileSync(fixture("dbip-asn.mmdb"));
  // The search tree (nodes × 6 bytes) filled with pointers far past the file.
  const damaged = Buffer.from(bytes);
  const verbose = Bun.spawnSync([
    "mmdblookup",
    "--verbose",
    "--file",
    fixture("dbip-asn.mmdb"),
    "--ip",
    "::",
  ]);
  const nodes = Number(/Node count:\s+(\d+)/.exec(verbose.stdout.toString())?.[1]);
  damaged.fill(0xff, 0, nodes * 6);
  writeFileSync(damagedTree, damaged);

  test.each([
    ["GEOIP_ASN_DB", join(scratch, "absent.mmdb"), "does not exist"],
    ["GEOIP_ASN_DB", scratch, "is a directory, not a file"],
    [
      "GEOIP_COUNTRY_DB",
      fixture("not-a-database.mmdb"),
      "is not a MaxMind DB file (its metadata section cannot be read)",
    ],
    [
      "GEOIP_COUNTRY_DB",
      fixture("truncated.mmdb"),
      "is not a MaxMind DB file (its metadata section cannot be read)",
    ],
    ["GEOIP_ASN_DB", damagedTree, "is damaged (its search tree cannot be walked)"],
  ] as const)("%s=%s: %s", async (variable, path, reason) => {
    const files =
      variable === "GEOIP_ASN_DB"
        ? { asn: path, country: fixture("dbip-country.mmdb") }
        : { asn: fixture("dbip-asn.mmdb"), country: path };
    const refusal = await MaxMindNetworkFacts.open(files).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(GeoipFileError);
    expect((refusal as GeoipFileError).message).toBe(
      `${variable} names ${JSON.stringify(path)}, which ${reason}.`,
    );
    expect((refusal as GeoipFileError).message).not.toContain("\n");
  });

  test("mmdblookup refuses the same files", () => {
    for (const path of [fixture("not-a-database.mmdb"), fixture("truncated.mmdb"), damagedTree]) {
      const run = Bun.spawnSync(["mmdblookup", "--file", path, "--ip", "198.51.100.7"]);
      expect(run.exitCode).not.toBe(0);
    }
  });
});

describe("one file named by both variables", () => {
  test("ASN and country from the same records; both variables listed", async () => {
    const path = fixture("asn-and-country.mmdb");
    const facts = await MaxMindNetworkFacts.open({ asn: path, country: path });
    expect(facts.asnOf(addr("198.51.100.7"))).toEqual({
      asn: 64520,
      asnOrg: "Both Fields Ltd",
      databaseType: "Example-ASN-Country",
    });
    expect(facts.countryOf(addr("2001:db8:b::1"))).toEqual({
      country: "IT",
      databaseType: "Example-ASN-Country",
    });
    expect(facts.databases().map((database) => database.variable)).toEqual([
      "GEOIP_ASN_DB",
      "GEOIP_COUNTRY_DB",
    ]);
  });
});

describe("reload", () => {
  const live = join(scratch, "asn.mmdb");
  /** Replaces the live file in one rename, as geoipupdate does. */
  const replaceWith = (source: string) => {
    copyFileSync(source, `${live}.new`);
    renameSync(`${live}.new`, live);
  };

  test("new data after a reload, old data kept when the file is now unusable or gone", async () => {
    replaceWith(fixture("dbip-asn.mmdb"));
    const facts = await MaxMindNetworkFacts.open({ asn: live, country: fixture("dbip-country.mmdb") });
    const client = addr("198.51.100.7");
    const neighbour = addr("198.51.100.200"); // same /24: its answer is kept for the block
    expect(facts.asnOf(client)?.asn).toBe(64500);

    replaceWith(fixture("dbip-asn-next.mmdb"));
    expect(facts.asnOf(client)?.asn).toBe(64500); // files are not watched: only a reload reads them
    const swapped = await facts.reload();
    expect(swapped).toEqual({ reloaded: ["GEOIP_ASN_DB", "GEOIP_COUNTRY_DB"], failures: [] });
    expect(facts.asnOf(client)).toEqual({
      asn: 64510,
      asnOrg: "Renamed Transit B.V.",
      databaseType: "DBIP-ASN-Lite (compat=GeoLite2-ASN)",
    });
    expect(facts.asnOf(neighbour)?.asn).toBe(64510);
    expect(facts.asnOf(addr("192.0.2.200"))).toBeNull(); // not in the new file
    expect(facts.databases()[0]?.builtAt).toEqual(new Date(1_788_220_800_000));

    replaceWith(fixture("truncated.mmdb"));
    const corrupt = await facts.reload();
    expect(corrupt.reloaded).toEqual(["GEOIP_COUNTRY_DB"]);
    expect(corrupt.failures.map((failure) => failure.message)).toEqual([
      `GEOIP_ASN_DB names ${JSON.stringify(live)}, which is not a MaxMind DB file (its metadata section cannot be read).`,
    ]);
    expect(reloadLogLines(corrupt)).toEqual([
      {
        level: "error",
        msg: `GeoIP reload: GEOIP_ASN_DB names ${JSON.stringify(live)}, which is not a MaxMind DB file (its metadata section cannot be read). The database loaded before is kept.`,
      },
      { level: "info", msg: "GeoIP reload: GEOIP_COUNTRY_DB read again." },
    ]);
    expect(facts.asnOf(client)?.asn).toBe(64510);

    unlinkSync(live);
    const gone = await facts.reload();
    expect(gone.failures[0]?.reason).toBe("does not exist");
    expect(facts.asnOf(client)?.asn).toBe(64510);
    expect(facts.databases()[0]?.builtAt).toEqual(new Date(1_788_220_800_000));
  });
});

describe("watching the files (GEOIP_RELOAD_INTERVAL_SECONDS; CONTRACT §11)", () => {
  const watched = join(scratch, "watched-asn.mmdb");
  const replaceWith = (source: string) => {
    copyFileSync(source, `${watched}.new`);
    renameSync(`${watched}.new`, watched);
  };
  /** Waits until `condition` holds, checking every 10 ms, at most `ms`. */
  const until = async (condition: () => boolean, ms = 3_000) => {
    const end = performance.now() + ms;
    while (!condition() && performance.now() < end) await Bun.sleep(10);
    return condition();
  };

  test("a file replaced by a rename is read within one interval; a corrupt one keeps the old data; unchanged files are not read again", async () => {
    replaceWith(fixture("dbip-asn.mmdb"));
    const facts = await MaxMindNetworkFacts.open({ asn: watched, country: null });
    const client = addr("198.51.100.7");
    const reports: ReloadReport[] = [];
    const stop = await facts.watch(0.05, (report) => reports.push(report));
    try {
      await Bun.sleep(200); // four intervals, nothing changed: nothing read
      expect(reports).toEqual([]);
      replaceWith(fixture("dbip-asn-next.mmdb"));
      expect(await until(() => facts.asnOf(client)?.asn === 64510)).toBe(true);
      expect(reports).toEqual([{ reloaded: ["GEOIP_ASN_DB"], failures: [] }]);

      replaceWith(fixture("truncated.mmdb"));
      expect(await until(() => reports.length === 2)).toBe(true);
      expect(reports[1]?.reloaded).toEqual([]);
      expect(reports[1]?.failures.map((failure) => failure.variable)).toEqual(["GEOIP_ASN_DB"]);
      expect(facts.asnOf(client)?.asn).toBe(64510);
      await Bun.sleep(200); // the corrupt file is not read again until it changes again
      expect(reports.length).toBe(2);

      replaceWith(fixture("dbip-asn.mmdb"));
      expect(await until(() => facts.asnOf(client)?.asn === 64500)).toBe(true);
    } finally {
      stop();
    }
  });
});
