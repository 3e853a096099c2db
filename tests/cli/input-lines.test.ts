/**
 * List files (issue 18): trailing `# comments` end an entry; line numbers stay the editor's; a
 * notation a list does not take (a netmask, a range) is named with the accepted form and the
 * converter, through the real process.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  emptySourced,
  linesOf,
  type Places,
  PlacesJoined,
  PlacesPicked,
} from "../../src/local/list-lines.ts";
import { scratchRunner } from "./run.ts";

/** Every place of `places` as text, in order. */
function placeTexts(places: Places): (string | undefined)[] {
  return Array.from({ length: places.length }, (_, i) => places.at(i));
}

/** The reader as it was first written (split, trim, a string per place): the slow obvious model. */
function linesModel(text: string, name: string, into = { entries: [] as string[], origins: [] as string[] }) {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const comment = line.indexOf("#");
    if (comment >= 0) line = line.slice(0, comment);
    if (line.trim() === "") continue;
    into.entries.push(line);
    into.origins.push(`${name}:${i + 1}`);
  }
  return into;
}

const { nettools, file } = scratchRunner("nettools-lines-");

test("a # ends the entry; comment-only and blank lines are skipped but counted", () => {
  const text =
    "# blocklist\n10.0.0.0/8  # office\n\n192.0.2.1#no space\r\n   # indented comment\n2001:db8::/32\t# lab";
  const read = linesOf(text, "list.txt");
  expect({ entries: read.entries, origins: placeTexts(read.origins) }).toEqual({
    entries: ["10.0.0.0/8  ", "192.0.2.1", "2001:db8::/32\t"],
    origins: ["list.txt:2", "list.txt:4", "list.txt:6"],
  });
});

describe("the scanning reader against the split-and-trim model (issue 30: no string per place)", () => {
  const piece = fc.constantFrom(
    "10.0.0.0/8",
    "2001:db8::/32",
    " ",
    "\t",
    "\v",
    "\f",
    "\u00a0",
    "\u2028",
    "\u3000",
    "#",
    "# c",
    "\n",
    "\r",
    "\r\n",
    "\ufeff",
    "x",
    "é",
  );
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

  test("the same entries at the same places, for any text of lines, comments and whitespace", () => {
    fc.assert(
      fc.property(text, fc.constantFrom("list.txt", "stdin", ""), (body, name) => {
        const read = linesOf(body, name);
        const model = linesModel(body, name);
        expect({ entries: read.entries, origins: placeTexts(read.origins) }).toEqual(model);
      }),
      { numRuns: 2000 },
    );
  });

  test("arguments and several sources read into one list keep each entry's place", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.tuple(fc.constant("arg"), fc.nat(9)), fc.tuple(fc.constantFrom("a", "b"), text)),
        ),
        (sources) => {
          const read = emptySourced();
          const model = { entries: [] as string[], origins: [] as string[] };
          for (const [kind, value] of sources) {
            if (kind === "arg") {
              read.entries.push(`192.0.2.${value}`);
              read.origins.addText(`arg ${value}`);
              model.entries.push(`192.0.2.${value}`);
              model.origins.push(`arg ${value}`);
            } else {
              linesOf(value as string, kind, read);
              linesModel(value as string, kind, model);
            }
          }
          expect({ entries: read.entries, origins: placeTexts(read.origins) }).toEqual(model);
          expect(read.origins.at(-1)).toBeUndefined();
          expect(read.origins.at(model.origins.length)).toBeUndefined();
        },
      ),
    );
  });

  test("picked and joined places are the places of the picked and joined entries", () => {
    const a = linesOf("10.0.0.1\n# c\n10.0.0.2\n10.0.0.3\n", "a.txt");
    const b = linesOf("\n10.0.0.4\n", "b.txt");
    expect(placeTexts(new PlacesPicked(a.origins, [0, 2]))).toEqual(["a.txt:1", "a.txt:4"]);
    expect(placeTexts(new PlacesPicked(["arg 1"], [0, 1]))).toEqual(["arg 1", "entry 2"]);
    expect(placeTexts(new PlacesJoined([a.origins, b.origins]))).toEqual([
      "a.txt:1",
      "a.txt:3",
      "a.txt:4",
      "b.txt:2",
    ]);
  });
});

describe("list files and the messages for other notations", () => {
  test("netmask notation and a range in a list name the accepted form and the converter", async () => {
    const ran = await nettools([
      "merge",
      "-f",
      file("mixed.txt", "10.0.0.0/255.255.255.0\n10.0.1.0-10.0.1.255\n"),
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("mixed.txt:1");
    expect(ran.stderr).toContain("write the prefix length instead: 10.0.0.0/24");
    expect(ran.stderr).toContain("mixed.txt:2");
    expect(ran.stderr).toContain("nettools range");
  });
});
