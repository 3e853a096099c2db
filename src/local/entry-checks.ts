/**
 * What every list-reading command does with entries before it runs its operation (CONTRACT §12):
 * `--skip-invalid` drops an unreadable entry with one line at its place (`FILE:LINE: …`, the words
 * its error would have had) and a final `skipped N invalid entries`, the exit status then being
 * what it would be without those entries; and an entry whose host bits are set (`192.0.2.0/22`) is
 * said once (`192.0.2.0/22 has host bits set: using 192.0.0.0/22`), `--strict` making that a stop.
 * The API keeps CONTRACT §2: it normalises in silence. The lines go to a `say` the caller gives
 * (the CLI's stderr); the CLI keeps the options, their help and the exit codes (src/cli/entry-checks.ts).
 */
import { entryBoundsProblem } from "../domain/cidr/entries.ts";
import { trimAsciiWhitespace } from "../domain/ip/addr.ts";
import { hostBitsNetwork } from "../domain/ip/host-bits.ts";
import { parsePrefix } from "../domain/ip/prefix.ts";
import { collectGarbageEvery } from "./heap.ts";
import { type Places, PlacesPicked, type Sourced } from "./list-lines.ts";

/** Why `entry` is not an address or CIDR (the words the operation's error would use), or null. */
export function prefixEntryProblem(entry: string): string | null {
  const bounds = entryBoundsProblem(entry, "entry");
  if (bounds !== null) return bounds;
  const parsed = parsePrefix(entry);
  return parsed.ok ? null : parsed.message;
}

/** The place prefix of a line: `FILE:LINE: ` for a line of a file or stdin, nothing for an argument. */
function placeOf(origin: string | undefined): string {
  return origin === undefined || origin.startsWith("arg ") ? "" : `${origin}: `;
}

/** The entry checks of one command run: what was skipped and what host bits were said. */
export class ListEntryChecks {
  private skipped = 0;
  private hostBitEntries = 0;
  readonly skipInvalid: boolean;
  readonly strict: boolean;

  /**
   * `say` receives each line (newline included); `errorLabel` is the word that starts an error
   * line (`error`, styled by the caller).
   */
  constructor(
    private readonly say: (line: string) => void,
    private readonly errorLabel: string,
    values: { "skip-invalid"?: boolean | undefined; strict?: boolean | undefined },
  ) {
    this.skipInvalid = values["skip-invalid"] === true;
    this.strict = values.strict === true;
  }

  /**
   * `list` without the entries `--skip-invalid` drops (each said at its place), host bits said for
   * every CIDR entry. `problemOf` says why an entry cannot be read (an address or CIDR by default);
   * `cidrOf` gives the CIDR text an entry holds, for the host-bits check (the entry by default;
   * null for entries that hold none, such as ranges).
   */
  list(
    list: Sourced,
    problemOf: (entry: string) => string | null = prefixEntryProblem,
    cidrOf: ((entry: string) => string | null) | null = (entry) => entry,
  ): Sourced {
    const { entries, origins } = list;
    const placed = origins.length >= entries.length;
    // Nothing to drop: the list itself, not a copy (a million entries are read once, issue 30).
    if (!this.skipInvalid && placed) {
      if (cidrOf !== null) {
        for (let i = 0; i < entries.length; i++) {
          collectGarbageEvery(i);
          const cidr = cidrOf(entries[i]!);
          if (cidr !== null) this.hostBits(cidr, origins, i);
        }
      }
      return list;
    }
    const kept: string[] = [];
    const keptAt: number[] = [];
    for (let i = 0; i < entries.length; i++) {
      collectGarbageEvery(i);
      const entry = entries[i]!;
      if (this.skipInvalid) {
        const problem = problemOf(entry);
        if (problem !== null) {
          this.skip(origins.at(i), problem);
          continue;
        }
      }
      const cidr = cidrOf === null ? null : cidrOf(entry);
      if (cidr !== null) this.hostBits(cidr, origins, i);
      kept.push(entry);
      keptAt.push(i);
    }
    if (kept.length === entries.length && placed) return list;
    return { entries: kept, origins: new PlacesPicked(origins, keptAt) };
  }

  /** Says that the entry at `origin` was skipped, for `problem`. */
  skip(origin: string | undefined, problem: string): void {
    this.skipped++;
    this.say(`${placeOf(origin)}${problem}\n`);
  }

  /**
   * Says once that `cidr` has host bits set, naming the network used; it is at `origin`, or at
   * place `index` of `origins` (written only when said).
   */
  hostBits(cidr: string, origin?: string | Places, index = 0): void {
    const network = hostBitsNetwork(cidr);
    if (network === null) return;
    this.hostBitEntries++;
    const label = this.strict ? `${this.errorLabel}: ` : "";
    const place = typeof origin === "object" ? origin.at(index) : origin;
    this.say(`${placeOf(place)}${label}${trimAsciiWhitespace(cidr)} has host bits set: using ${network}\n`);
  }

  /**
   * Once every list is read: says the summary line of skipped entries, and whether the run must
   * stop as invalid input (under `--strict` with host bits said, or when a `required` list was
   * emptied by skipping).
   */
  mustStop(required: readonly { readonly entries: { readonly length: number } }[] = []): boolean {
    if (this.skipped > 0) {
      this.say(`skipped ${this.skipped} invalid ${this.skipped === 1 ? "entry" : "entries"}\n`);
    }
    if (this.strict && this.hostBitEntries > 0) return true;
    if (this.skipped > 0 && required.some((list) => list.entries.length === 0)) {
      this.say(`${this.errorLabel}: no valid entry left\n`);
      return true;
    }
    return false;
  }
}
