/**
 * The real NetworkFacts (CONTRACT §8.10): the `.mmdb` files GEOIP_ASN_DB and GEOIP_COUNTRY_DB name,
 * read whole into memory and searched with `mmdb-lib` (MaxMind DB format, GeoLite2 schema: DB-IP
 * Lite, IPinfo's and MaxMind's own files). The reader is the library's; this module only decides
 * when a file is usable, maps the GeoLite2 fields, keeps recent answers and swaps databases on
 * reload.
 *
 * - Opening checks what a lookup relies on: the metadata (`database_type`, `build_epoch`,
 *   `ip_version` 4 or 6, a search tree inside the file) and one walk of the tree. A file that fails
 *   is refused with a reason that names the variable and the path, never the file's bytes.
 * - One file named by both variables is read and checked once, and its reader shared.
 * - An IPv4 address is looked up in an IPv6 database's IPv4 subtree (`::a.b.c.d`, which the
 *   library finds by itself); an IPv6 address in an IPv4-only database finds nothing (the library
 *   would walk the address's first 32 bits, so it is never asked).
 * - Speed (issue 26: at most 5 % on public-ip; docs/performance.md): decoded records are kept
 *   (a GeoLite2 country record, with names in eight languages, costs about ten tree walks to
 *   decode), and so is the answer for a whole /24 (IPv4) or /48 (IPv6) when the database's network
 *   covers that block, so a client seen before, or a neighbour, costs a map look-up.
 * - `reload()` reads the files again (SIGHUP). Each variable keeps its old database when its file
 *   is now missing or unusable. The swap is one assignment between two requests, and the kept
 *   answers belong to the database they came from: a lookup is synchronous, so no request sees
 *   half of a reload, and none after it sees the old data.
 * - `watch(seconds)` (GEOIP_RELOAD_INTERVAL_SECONDS; CONTRACT §11) checks at that interval whether
 *   a file's modification time, size or inode has changed (geoipupdate replaces a file by a
 *   rename: a new inode) and then reloads as SIGHUP does; a file that stays unusable is not read
 *   again until it changes again.
 * - A lookup that throws (a tree that points outside the file, which only a walk to that record
 *   reveals) answers nothing rather than failing the request.
 */
import { readFile, stat } from "node:fs/promises";
import { Reader } from "mmdb-lib";
import type { IpAddr } from "../../domain/ip/addr.ts";
import type {
  AddressDatabase,
  AddressDatabaseVariable,
  AsnFacts,
  CountryFacts,
  NetworkFacts,
} from "../../domain/ports.ts";

/** The files the two variables name; null for an unset (or empty) variable. */
export interface GeoipFiles {
  readonly asn: string | null;
  readonly country: string | null;
}

/** A file a variable names that cannot be used: the message names the variable and the path. */
export class GeoipFileError extends Error {
  override name = "GeoipFileError";
  constructor(
    readonly variable: AddressDatabaseVariable,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${variable} names ${JSON.stringify(path)}, which ${reason}.`);
  }
}

/** What a reload did: the variables whose database was replaced, and each file refused. */
export interface ReloadReport {
  reloaded: readonly AddressDatabaseVariable[];
  failures: readonly GeoipFileError[];
}

/** A log line, shaped as the process logger's records. */
interface ReloadLogLine {
  level: "info" | "error";
  msg: string;
}

/**
 * The log lines of a reload: one error line per refused file, saying the database in use is kept,
 * and one info line naming what was read again.
 */
export function reloadLogLines(report: ReloadReport): ReloadLogLine[] {
  const lines = report.failures.map(
    (failure): ReloadLogLine => ({
      level: "error",
      msg: `GeoIP reload: ${failure.message} The database loaded before is kept.`,
    }),
  );
  if (report.reloaded.length > 0)
    lines.push({ level: "info", msg: `GeoIP reload: ${report.reloaded.join(" and ")} read again.` });
  return lines;
}

/**
 * How many decoded records, and how many blocks' answers per address family, a database keeps once
 * it has seen that many: between this and twice this (see Kept). A few megabytes per database.
 */
const KEPT_PER_DATABASE = 16_384;
/** The blocks whose answer is kept: an IPv4 /24, an IPv6 /48 (the longest prefixes BGP carries). */
const IPV4_BLOCK_BITS = 24;
const IPV6_BLOCK_BITS = 48;

/**
 * A map of the entries used recently, in two generations: new entries go to the young one; when it
 * is full it becomes the old one and the previous old one is dropped; an old entry used again moves
 * back to the young one. (Evicting one oldest entry at a time from a Map costs more and more as
 * the deleted slots pile up.) Also mmdb-lib's `Cache`.
 */
class Kept<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }
  set(key: K, value: V): void {
    if (this.young.size >= KEPT_PER_DATABASE) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}

/** A GeoLite2-schema record, as far as this module reads it: anything else is ignored. */
type GeoLiteRecord = Record<string, unknown>;

/** One checked database file. */
interface Database {
  readonly reader: Reader<GeoLiteRecord>;
  readonly databaseType: string;
  readonly builtAt: Date;
  readonly ipVersion: 4 | 6;
}

/** The largest build_epoch RFC 3339 can write with a four-digit year (9999-12-31T23:59:59Z). */
const LAST_RFC3339_SECOND = 253_402_300_799;
/** The MaxMind DB format's data section separator: the search tree ends this far before the data. */
const DATA_SECTION_SEPARATOR_BYTES = 16;

/** The database in `bytes`, or why they are not a usable MaxMind DB. */
function databaseOf(bytes: Buffer): Database | string {
  let reader: Reader<GeoLiteRecord>;
  try {
    reader = new Reader<GeoLiteRecord>(bytes, { cache: new Kept<string | number, unknown>() });
  } catch {
    return "is not a MaxMind DB file (its metadata section cannot be read)";
  }
  const metadata = reader.metadata as Partial<Reader<GeoLiteRecord>["metadata"]> | undefined;
  if (metadata?.binaryFormatMajorVersion !== 2) return "is not a MaxMind DB file of format version 2";
  const { databaseType, buildEpoch, ipVersion, nodeCount, searchTreeSize } = metadata;
  if (typeof databaseType !== "string" || databaseType === "") return "has no database_type in its metadata";
  const seconds = (buildEpoch?.getTime() ?? Number.NaN) / 1000;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > LAST_RFC3339_SECOND)
    return "has no usable build_epoch in its metadata";
  if (ipVersion !== 4 && ipVersion !== 6) return "has an ip_version other than 4 or 6 in its metadata";
  if (
    typeof nodeCount !== "number" ||
    !Number.isInteger(nodeCount) ||
    nodeCount <= 0 ||
    typeof searchTreeSize !== "number" ||
    searchTreeSize + DATA_SECTION_SEPARATOR_BYTES > bytes.length
  )
    return "is damaged (its search tree does not fit in the file)";
  try {
    reader.get(ipVersion === 4 ? "0.0.0.0" : "::");
    reader.get("255.255.255.255");
  } catch {
    return "is damaged (its search tree cannot be walked)";
  }
  return { reader, databaseType, builtAt: new Date(seconds * 1000), ipVersion };
}

/** Why a file could not be read, in words (no stack, no bytes). */
function unreadable(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "does not exist";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  if (code === "EISDIR") return "is a directory, not a file";
  return `cannot be read (${typeof code === "string" ? code : "read error"})`;
}

/** The non-empty string at `record[key]`, or undefined. */
function text(record: GeoLiteRecord | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The ASN fields of a GeoLite2-ASN record (a field of the wrong type counts as absent). */
function asnFacts(record: GeoLiteRecord, databaseType: string): AsnFacts {
  const facts: AsnFacts = { databaseType };
  const number = record.autonomous_system_number;
  if (typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 0xffff_ffff)
    facts.asn = number;
  const organization = text(record, "autonomous_system_organization");
  if (organization !== undefined) facts.asnOrg = organization;
  return facts;
}

/** The country field of a GeoLite2-Country (or -City) record. */
function countryFacts(record: GeoLiteRecord, databaseType: string): CountryFacts {
  const country = record.country;
  const isoCode =
    typeof country === "object" && country !== null ? text(country as GeoLiteRecord, "iso_code") : undefined;
  return isoCode === undefined ? { databaseType } : { country: isoCode, databaseType };
}

/** One variable's database, with the answers it gave for recent blocks. */
class Source<Facts> {
  private readonly ipv4Blocks = new Kept<number, Facts | null>();
  private readonly ipv6Blocks = new Kept<number, Facts | null>();

  constructor(
    readonly info: AddressDatabase,
    private readonly database: Database,
    private readonly factsOf: (record: GeoLiteRecord, databaseType: string) => Facts,
  ) {}

  /** The facts the database holds for `address`, or null (not in it, or not searchable for its family). */
  lookUp(address: IpAddr): Facts | null {
    const v4 = address.family === 4;
    if (!v4 && this.database.ipVersion === 4) return null;
    // The block's number: the /24 of an IPv4 address, the /48 of an IPv6 one (48 bits: exact).
    const block = v4 ? address.w3 >>> 8 : address.w0 * 0x1_0000 + (address.w1 >>> 16);
    const blocks = v4 ? this.ipv4Blocks : this.ipv6Blocks;
    const kept = blocks.get(block);
    if (kept !== undefined) return kept;
    let found: [GeoLiteRecord | null, number];
    try {
      found = this.database.reader.getWithPrefixLength(address.toString());
    } catch {
      return null;
    }
    const [record, prefixLength] = found;
    const facts =
      typeof record === "object" && record !== null ? this.factsOf(record, this.database.databaseType) : null;
    // Kept for the block only when the database's network (or empty range) covers all of it.
    if (prefixLength <= (v4 ? IPV4_BLOCK_BITS : IPV6_BLOCK_BITS)) blocks.set(block, facts);
    return facts;
  }
}

const VARIABLES = [
  ["asn", "GEOIP_ASN_DB"],
  ["country", "GEOIP_COUNTRY_DB"],
] as const;

/** The GeoIP databases of the service: a NetworkFacts whose data a reload replaces. */
export class MaxMindNetworkFacts implements NetworkFacts {
  private asn: Source<AsnFacts> | null = null;
  private country: Source<CountryFacts> | null = null;
  /** The reload under way (or the last one): the next waits for it, so reads happen in signal order. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly files: GeoipFiles) {}

  /**
   * Reads and checks both files at start-up, before anything is served.
   * @throws GeoipFileError for the first variable whose file is missing, unreadable or not a
   *   usable MaxMind DB
   */
  static async open(files: GeoipFiles): Promise<MaxMindNetworkFacts> {
    const facts = new MaxMindNetworkFacts(files);
    const { failures } = await facts.readAgain();
    if (failures[0] !== undefined) throw failures[0];
    return facts;
  }

  asnOf(address: IpAddr): AsnFacts | null {
    return this.asn === null ? null : this.asn.lookUp(address);
  }

  countryOf(address: IpAddr): CountryFacts | null {
    return this.country === null ? null : this.country.lookUp(address);
  }

  databases(): readonly AddressDatabase[] {
    const list: AddressDatabase[] = [];
    if (this.asn !== null) list.push(this.asn.info);
    if (this.country !== null) list.push(this.country.info);
    return list;
  }

  /** What each file looks like on disk now: modification time, size and inode, or why not. */
  private async signatures(): Promise<string> {
    const paths = [...new Set([this.files.asn, this.files.country].filter((path) => path !== null))];
    const parts = await Promise.all(
      paths.map((path) =>
        stat(path).then(
          (found) => `${path}\0${found.mtimeMs}\0${found.size}\0${found.ino}`,
          (error: NodeJS.ErrnoException) => `${path}\0${error.code ?? "unreadable"}`,
        ),
      ),
    );
    return parts.join("\n");
  }

  /**
   * Checks the files every `intervalSeconds` and reloads ({@link reload}) when one has changed
   * since the last check, telling `onReload` what the reload did. The timer does not keep the
   * process alive. Returns the function that stops watching.
   */
  async watch(intervalSeconds: number, onReload: (report: ReloadReport) => void): Promise<() => void> {
    let seen = await this.signatures();
    let checking = false;
    const timer = setInterval(() => {
      if (checking) return;
      checking = true;
      void this.signatures()
        .then(async (now) => {
          if (now === seen) return;
          seen = now;
          onReload(await this.reload());
        })
        .finally(() => {
          checking = false;
        });
    }, intervalSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Reads both files again (SIGHUP). A variable whose file is now missing or unusable keeps the
   * database it had; the other is replaced. A reload asked for during another runs after it, so
   * the files are always read again after the last signal.
   */
  reload(): Promise<ReloadReport> {
    const next = this.queue.then(() => this.readAgain());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readAgain(): Promise<ReloadReport> {
    const failures: GeoipFileError[] = [];
    const read = new Map<string, Database | string>();
    const found: { asn?: Source<AsnFacts>; country?: Source<CountryFacts> } = {};
    for (const [role, variable] of VARIABLES) {
      const path = this.files[role];
      if (path === null) continue;
      let database = read.get(path);
      if (database === undefined) {
        try {
          database = databaseOf(await readFile(path));
        } catch (error) {
          database = unreadable(error);
        }
        read.set(path, database);
      }
      if (typeof database === "string") failures.push(new GeoipFileError(variable, path, database));
      else if (role === "asn") found.asn = new Source(infoOf(variable, database), database, asnFacts);
      else found.country = new Source(infoOf(variable, database), database, countryFacts);
    }
    // Both swaps happen in the same turn, after every read: no request sees one without the other.
    if (found.asn !== undefined) this.asn = found.asn;
    if (found.country !== undefined) this.country = found.country;
    const reloaded = VARIABLES.flatMap(([role, variable]) => (found[role] === undefined ? [] : [variable]));
    return { reloaded, failures };
  }
}

/** The port's description of a database. */
function infoOf(variable: AddressDatabaseVariable, database: Database): AddressDatabase {
  return {
    variable,
    databaseType: database.databaseType,
    builtAt: database.builtAt,
    ipVersion: database.ipVersion,
  };
}
