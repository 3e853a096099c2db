/**
 * The real NetworkFacts (CONTRACT §8.10): the `.mmdb` files GEOIP_ASN_DB and GEOIP_COUNTRY_DB name,
 * read whole into memory and searched with `mmdb-lib` (MaxMind DB format, GeoLite2 schema: DB-IP
 * Lite, IPinfo's and MaxMind's own files). The reader is the library's; this module only decides
 * when a file is usable, maps the GeoLite2 fields and swaps databases on reload.
 *
 * - Opening checks what a lookup relies on: the metadata (`database_type`, `build_epoch`,
 *   `ip_version` 4 or 6, a search tree inside the file) and one walk of the tree. A file that fails
 *   is refused with a reason that names the variable and the path, never the file's bytes.
 * - One file named by both variables is read and checked once, and its reader shared.
 * - An IPv4 address is looked up in an IPv6 database's IPv4 subtree (`::a.b.c.d`, which the
 *   library finds by itself); an IPv6 address in an IPv4-only database finds nothing (the library
 *   would walk the address's first 32 bits, so it is never asked).
 * - `reload()` reads the files again (SIGHUP). Each variable keeps its old database when its file
 *   is now missing or unusable. The swap is one assignment between two requests: a lookup is
 *   synchronous, so no request sees half of a reload.
 * - A lookup that throws (a tree that points outside the file, which only a walk to that record
 *   reveals) answers nothing rather than failing the request.
 */
import { readFile } from "node:fs/promises";
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

/** No database configured. */
export const NO_GEOIP_FILES: GeoipFiles = { asn: null, country: null };

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

/**
 * The log lines of a reload (shaped as the process logger's records): one error line per refused
 * file, saying the database in use is kept, and one info line naming what was read again.
 */
export function reloadLogLines(report: ReloadReport): { level: "info" | "error"; msg: string }[] {
  const lines = report.failures.map((failure): { level: "info" | "error"; msg: string } => ({
    level: "error",
    msg: `GeoIP reload: ${failure.message} The database loaded before is kept.`,
  }));
  if (report.reloaded.length > 0)
    lines.push({ level: "info", msg: `GeoIP reload: ${report.reloaded.join(" and ")} read again.` });
  return lines;
}

/** A GeoLite2-schema record, as far as this module reads it: anything else is ignored. */
type GeoLiteRecord = Record<string, unknown>;

interface Loaded {
  readonly info: AddressDatabase;
  readonly reader: Reader<GeoLiteRecord>;
}

/** The largest build_epoch RFC 3339 can write with a four-digit year (9999-12-31T23:59:59Z). */
const LAST_RFC3339_SECOND = 253_402_300_799;
/** The MaxMind DB format's data section separator: the search tree ends this far before the data. */
const DATA_SECTION_SEPARATOR_BYTES = 16;

/** Why `bytes` is not a usable MaxMind DB, or the reader over it. */
function readerOf(bytes: Buffer): Reader<GeoLiteRecord> | string {
  let reader: Reader<GeoLiteRecord>;
  try {
    reader = new Reader<GeoLiteRecord>(bytes);
  } catch {
    return "is not a MaxMind DB file (its metadata section cannot be read)";
  }
  const metadata = reader.metadata as Partial<Reader<GeoLiteRecord>["metadata"]> | undefined;
  if (metadata?.binaryFormatMajorVersion !== 2) return "is not a MaxMind DB file of format version 2";
  if (typeof metadata.databaseType !== "string" || metadata.databaseType === "")
    return "has no database_type in its metadata";
  const epoch = metadata.buildEpoch?.getTime() ?? Number.NaN;
  if (!Number.isInteger(epoch / 1000) || epoch < 0 || epoch / 1000 > LAST_RFC3339_SECOND)
    return "has no usable build_epoch in its metadata";
  if (metadata.ipVersion !== 4 && metadata.ipVersion !== 6)
    return "has an ip_version other than 4 or 6 in its metadata";
  const { nodeCount, searchTreeSize } = metadata;
  if (
    typeof nodeCount !== "number" ||
    !Number.isInteger(nodeCount) ||
    nodeCount <= 0 ||
    typeof searchTreeSize !== "number" ||
    searchTreeSize + DATA_SECTION_SEPARATOR_BYTES > bytes.length
  )
    return "is damaged (its search tree does not fit in the file)";
  try {
    reader.get(metadata.ipVersion === 4 ? "0.0.0.0" : "::");
    reader.get("255.255.255.255");
  } catch {
    return "is damaged (its search tree cannot be walked)";
  }
  return reader;
}

/** One variable's database over a checked reader. */
function loadedOf(variable: AddressDatabaseVariable, reader: Reader<GeoLiteRecord>): Loaded {
  const { databaseType, buildEpoch, ipVersion } = reader.metadata;
  return { reader, info: { variable, databaseType, builtAt: buildEpoch, ipVersion: ipVersion as 4 | 6 } };
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

const VARIABLES = [
  ["asn", "GEOIP_ASN_DB"],
  ["country", "GEOIP_COUNTRY_DB"],
] as const;

/** The GeoIP databases of the service: a NetworkFacts whose data a reload replaces. */
export class MaxMindNetworkFacts implements NetworkFacts {
  private asn: Loaded | null = null;
  private country: Loaded | null = null;
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
    const loaded = this.asn;
    const record = loaded === null ? null : recordOf(loaded, address);
    if (loaded === null || record === null) return null;
    const number = record.autonomous_system_number;
    const facts: AsnFacts = { databaseType: loaded.info.databaseType };
    if (typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 0xffff_ffff)
      facts.asn = number;
    const organization = text(record, "autonomous_system_organization");
    if (organization !== undefined) facts.asnOrg = organization;
    return facts;
  }

  countryOf(address: IpAddr): CountryFacts | null {
    const loaded = this.country;
    const record = loaded === null ? null : recordOf(loaded, address);
    if (loaded === null || record === null) return null;
    const country = record.country;
    const isoCode =
      typeof country === "object" && country !== null
        ? text(country as GeoLiteRecord, "iso_code")
        : undefined;
    return isoCode === undefined
      ? { databaseType: loaded.info.databaseType }
      : { country: isoCode, databaseType: loaded.info.databaseType };
  }

  databases(): readonly AddressDatabase[] {
    const list: AddressDatabase[] = [];
    if (this.asn !== null) list.push(this.asn.info);
    if (this.country !== null) list.push(this.country.info);
    return list;
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
    const readers = new Map<string, Reader<GeoLiteRecord> | string>();
    const replacements: Partial<Record<"asn" | "country", Loaded>> = {};
    for (const [role, variable] of VARIABLES) {
      const path = this.files[role];
      if (path === null) continue;
      let reader = readers.get(path);
      if (reader === undefined) {
        try {
          reader = readerOf(await readFile(path));
        } catch (error) {
          reader = unreadable(error);
        }
        readers.set(path, reader);
      }
      if (typeof reader === "string") failures.push(new GeoipFileError(variable, path, reader));
      else replacements[role] = loadedOf(variable, reader);
    }
    // Both swaps happen in the same turn, after every read: no request sees one without the other.
    if (replacements.asn !== undefined) this.asn = replacements.asn;
    if (replacements.country !== undefined) this.country = replacements.country;
    const reloaded = VARIABLES.flatMap(([role, variable]) =>
      replacements[role] === undefined ? [] : [variable],
    );
    return { reloaded, failures };
  }
}

/** The record `loaded` holds for `address`, or null (not in it, or not searchable for its family). */
function recordOf(loaded: Loaded, address: IpAddr): GeoLiteRecord | null {
  if (address.family === 6 && loaded.info.ipVersion === 4) return null;
  try {
    const record = loaded.reader.get(address.toString());
    return typeof record === "object" && record !== null ? record : null;
  } catch {
    return null;
  }
}
