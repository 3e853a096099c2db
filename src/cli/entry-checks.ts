/**
 * What every list-reading command does with entries before it runs its operation (CONTRACT §12):
 * `--skip-invalid` drops an unreadable entry with one stderr line at its place (`FILE:LINE: …`,
 * the words its error would have had) and a final `skipped N invalid entries`, the exit status
 * then being what it would be without those entries; and an entry whose host bits are set
 * (`192.0.2.0/22`) is said once on stderr (`192.0.2.0/22 has host bits set: using 192.0.0.0/22`),
 * `--strict` making that exit 2. The API keeps CONTRACT §2: it normalises in silence.
 */
import { entryBoundsProblem } from "../domain/cidr/entries.ts";
import { trimAsciiWhitespace } from "../domain/ip/addr.ts";
import { hostBitsNetwork } from "../domain/ip/host-bits.ts";
import { parsePrefix } from "../domain/ip/prefix.ts";
import { collectGarbageEvery } from "../local/heap.ts";
import { type Places, PlacesPicked, type Sourced } from "../local/list-lines.ts";
import { EXIT, type Io } from "./io.ts";
import { chooseStyle, type Style } from "./style.ts";

/** The options, for `parse`. */
export const ENTRY_CHECK_OPTIONS = {
  "skip-invalid": { type: "boolean" },
  strict: { type: "boolean" },
} as const;

export const ENTRY_CHECK_HELP = `
Entry checks:
  --skip-invalid  skip an entry that cannot be read, with one line on stderr at its place
                  ("FILE:LINE: why", the words of the error it would be) and a last line
                  "skipped N invalid entries"; the exit code is the one without those entries
                  (2 when no valid entry is left)
  --strict        an entry with host bits set is an error (exit 2); without it, such an entry
                  is used as its network and said once on stderr:
                  "192.0.2.0/22 has host bits set: using 192.0.0.0/22" (an address alone never is)`;

/** `--strict` alone, for the commands that read one CIDR (split, subnets, info). */
export const STRICT_OPTION = { strict: { type: "boolean" } } as const;

export const STRICT_HELP = `  --strict        a CIDR with host bits set (192.0.2.0/22) is an error (exit 2); without it,
                  it is used as its network and said once on stderr:
                  "192.0.2.0/22 has host bits set: using 192.0.0.0/22"`;

/** Why `entry` is not an address or CIDR (the words the operation's error would use), or null. */
export function prefixEntryProblem(entry: string): string | null {
  const bounds = entryBoundsProblem(entry, "entry");
  if (bounds !== null) return bounds;
  const parsed = parsePrefix(entry);
  return parsed.ok ? null : parsed.message;
}

/** The place prefix of a stderr line: `FILE:LINE: ` for a line of a file or stdin, nothing for an argument. */
function placeOf(origin: string | undefined): string {
  return origin === undefined || origin.startsWith("arg ") ? "" : `${origin}: `;
}

/** The entry checks of one command run: what was skipped and what host bits were said. */
export class EntryChecks {
  private skipped = 0;
  private hostBitEntries = 0;
  private readonly err: Style;
  readonly skipInvalid: boolean;
  readonly strict: boolean;

  constructor(
    private readonly io: Io,
    values: { "skip-invalid"?: boolean | undefined; strict?: boolean | undefined },
  ) {
    this.skipInvalid = values["skip-invalid"] === true;
    this.strict = values.strict === true;
    this.err = chooseStyle(io.stderrIsTty, io.env);
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
    this.io.stderr(`${placeOf(origin)}${problem}\n`);
  }

  /**
   * Says once that `cidr` has host bits set, naming the network used; it is at `origin`, or at
   * place `index` of `origins` (written only when said).
   */
  hostBits(cidr: string, origin?: string | Places, index = 0): void {
    const network = hostBitsNetwork(cidr);
    if (network === null) return;
    this.hostBitEntries++;
    const label = this.strict ? `${this.err.red("error")}: ` : "";
    const place = typeof origin === "object" ? origin.at(index) : origin;
    this.io.stderr(
      `${placeOf(place)}${label}${trimAsciiWhitespace(cidr)} has host bits set: using ${network}\n`,
    );
  }

  /**
   * Once every list is read: the summary line of skipped entries, and the exit code to stop with
   * (2 under `--strict` with host bits said, or when a `required` list was emptied by skipping),
   * or null to go on.
   */
  verdict(required: readonly { readonly entries: { readonly length: number } }[] = []): number | null {
    if (this.skipped > 0) {
      this.io.stderr(`skipped ${this.skipped} invalid ${this.skipped === 1 ? "entry" : "entries"}\n`);
    }
    if (this.strict && this.hostBitEntries > 0) return EXIT.invalidInput;
    if (this.skipped > 0 && required.some((list) => list.entries.length === 0)) {
      this.io.stderr(`${this.err.red("error")}: no valid entry left\n`);
      return EXIT.invalidInput;
    }
    return null;
  }
}
