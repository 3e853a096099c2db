/**
 * The built-in reference store's snapshot (CONTRACT §9.2, docs/decisions/0009): its distrust
 * dates read back by a second path, and the build script checked on files written in the
 * sources' own syntax.
 *
 * The second path is a small reader of this file's own, sharing no code with
 * scripts/reference-roots/: it reads a `CKA_NSS_SERVER_DISTRUST_AFTER` attribute's octal escapes
 * as the UTCTime text they spell, and the comment Mozilla's tooling writes above it
 * (`# For Server Distrust After: Sat Nov 30 23:59:59 2024`) as a date in words. Both must give the
 * snapshot's date, for every root of the snapshot (the attribute lines are recorded in it as
 * certdata.txt wrote them) and for the excerpt in tests/fixtures/reference-roots/.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSnapshot } from "../../scripts/build-reference-roots.ts";
import { mozillaRootStore } from "../../src/adapters/crypto/root-store.ts";
import snapshot from "../../src/adapters/reference-roots.json";

const FIXTURES = join(import.meta.dir, "../fixtures/reference-roots");
const excerpt = readFileSync(join(FIXTURES, "certdata-excerpt.txt"), "utf8");
const chromeExcerpt = readFileSync(join(FIXTURES, "root_store-excerpt.textproto"), "utf8");

/** The date an attribute's octal lines spell (`\062\064…\132` = "241130235959Z"), as RFC 3339. */
function octalUtcTime(lines: readonly string[]): string {
  const text = lines
    .filter((line) => line.startsWith("\\"))
    .join("")
    .split("\\")
    .slice(1)
    .map((code) => String.fromCharCode(Number.parseInt(code, 8)))
    .join("");
  const [yy, mm, dd, hh, mi, ss] = [0, 2, 4, 6, 8, 10].map((at) => text.slice(at, at + 2));
  expect(text).toMatch(/^\d{12}Z$/);
  const year = Number(yy) < 50 ? `20${yy}` : `19${yy}`;
  return `${year}-${mm}-${dd}T${hh}:${mi}:${ss}Z`;
}

/** `# For Server Distrust After: Sat Nov 30 23:59:59 2024` as RFC 3339 (the words are UTC). */
function wordsDate(comment: string): string {
  const words = comment.replace("# For Server Distrust After: ", "");
  return new Date(`${words} GMT`).toISOString().replace(".000Z", "Z");
}

describe("the committed snapshot", () => {
  const dated = snapshot.roots.filter((root) => "serverDistrustAfter" in root);

  test("names its sources and their versions", () => {
    expect(snapshot.version).toMatch(/^Mozilla NSS [\d.]+ certdata\.txt, Chrome Root Store \d+$/);
    expect(snapshot.sources.map((source) => source.file)).toEqual(["certdata.txt", "root_store.textproto"]);
    for (const source of snapshot.sources) {
      expect(source.from).not.toBe("");
      expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test("every Firefox distrust date reads back from its recorded certdata.txt lines, twice", () => {
    expect(dated.length).toBeGreaterThan(0);
    for (const root of dated) {
      const date = "serverDistrustAfter" in root ? root.serverDistrustAfter : undefined;
      const lines = "serverDistrustAfterSource" in root ? (root.serverDistrustAfterSource ?? []) : [];
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(lines[1]).toBe("CKA_NSS_SERVER_DISTRUST_AFTER MULTILINE_OCTAL");
      expect(lines.at(-1)).toBe("END");
      expect(octalUtcTime(lines)).toBe(date!);
      expect(wordsDate(lines[0]!)).toBe(date!);
    }
  });

  test("each root's sha256 is its DER's, and the store gives every root's dates back", () => {
    const store = mozillaRootStore();
    expect(store.size).toBe(snapshot.roots.length);
    for (const root of snapshot.roots) {
      const der = Buffer.from(root.der, "base64");
      expect(createHash("sha256").update(der).digest("hex")).toBe(root.sha256);
      const dates = root as { serverDistrustAfter?: string; sctNotAfter?: string };
      const parsed = (text: string | undefined) => (text === undefined ? null : Date.parse(text));
      const expected =
        dates.serverDistrustAfter === undefined && dates.sctNotAfter === undefined
          ? null
          : {
              serverDistrustAfter: parsed(dates.serverDistrustAfter),
              sctNotAfter: parsed(dates.sctNotAfter),
            };
      expect(store.distrustOf(der)).toEqual(expected);
    }
  });

  test("the Entrust root distrusted by Firefox for certificates after 2024-11-30 is in it, dated", () => {
    const entrust = snapshot.roots.find((root) => root.label === "Entrust Root Certification Authority");
    expect(entrust && "serverDistrustAfter" in entrust ? entrust.serverDistrustAfter : null).toBe(
      "2024-11-30T23:59:59Z",
    );
  });
});

describe("scripts/build-reference-roots.ts on files in the sources' syntax", () => {
  const built = buildSnapshot({
    certdata: excerpt,
    chrome: chromeExcerpt,
    nssVersion: "NSS test",
    nssFrom: "tests/fixtures/reference-roots/certdata-excerpt.txt",
    chromeFrom: "tests/fixtures/reference-roots/root_store-excerpt.textproto",
  });

  test("keeps the roots trusted for servers, in file order, and leaves out the e-mail-only one", () => {
    expect(built.roots.map((root) => root.label)).toEqual([
      "Entrust Root Certification Authority",
      "ISRG Root X1",
    ]);
    expect(built.version).toBe("Mozilla NSS test certdata.txt, Chrome Root Store 7");
  });

  test("the Firefox date agrees with the second reader, and the certificate is the snapshot's", () => {
    const [entrust, isrg] = built.roots;
    const second = excerpt.split("\n");
    const at = second.indexOf("CKA_NSS_SERVER_DISTRUST_AFTER MULTILINE_OCTAL");
    const lines = second.slice(at - 1, second.indexOf("END", at) + 1);
    expect(entrust?.serverDistrustAfter).toBe(octalUtcTime(lines));
    expect(entrust?.serverDistrustAfter).toBe(wordsDate(lines[0]!));
    expect(entrust?.serverDistrustAfterSource).toEqual(lines);
    expect(isrg?.serverDistrustAfter).toBeUndefined();
    for (const root of built.roots) {
      expect(root.der).toBe(snapshot.roots.find((committed) => committed.label === root.label)!.der);
    }
  });

  test("Chrome's date: the current Chrome's alternative binds; an alternative without one means none", () => {
    const [entrust, isrg] = built.roots;
    expect(isrg?.sctNotAfter).toBe(new Date(1767225599 * 1000).toISOString().replace(".000Z", "Z"));
    expect(entrust?.sctNotAfter).toBeUndefined();
  });
});
