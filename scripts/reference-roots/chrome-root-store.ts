/**
 * Reads the Chrome Root Store's `root_store.textproto` (chromium/src
 * net/data/ssl/chrome_root_store/): `version_major`, and for each `trust_anchors` entry its
 * SHA-256 and the `sct_not_after_sec` that applies to a current Chrome.
 *
 * An anchor's `constraints` blocks are alternatives (Chromium `trust_store_chrome.cc`: the anchor
 * is trusted when any one set holds). A set with `max_version_exclusive` applies only to Chrome
 * versions before it, which are gone, so it is left out. Of the sets left, one without
 * `sct_not_after_sec` means no SCT date binds (null); otherwise the latest date is the one that
 * binds (the most permissive alternative). Only the subset of the text format the file uses is
 * read: `name { … }` blocks and `name: value` fields, `#` comments.
 */

/** An anchor's SHA-256 (lowercase hex) and its binding `sct_not_after_sec`, in ms since the epoch. */
export interface ChromeAnchor {
  sha256: string;
  sctNotAfter: number | null;
}

/** The store's version and its anchors, in file order. */
export interface ChromeRootStore {
  versionMajor: number;
  anchors: ChromeAnchor[];
}

interface Block {
  name: string;
  fields: [string, string][];
  children: Block[];
}

/** Parses the text. Throws on unbalanced braces or a missing `version_major`. */
export function readChromeRootStore(text: string): ChromeRootStore {
  const top: Block = { name: "", fields: [], children: [] };
  const stack: Block[] = [top];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$|^\s*#.*$/, "").trim();
    if (line === "") continue;
    const open = /^([A-Za-z0-9_]+)\s*:?\s*\{$/.exec(line);
    const field = /^([A-Za-z0-9_]+)\s*:\s*(.+)$/.exec(line);
    const block = stack[stack.length - 1]!;
    if (open) {
      const child: Block = { name: open[1]!, fields: [], children: [] };
      block.children.push(child);
      stack.push(child);
    } else if (line === "}") {
      if (stack.length === 1) throw new Error("root_store.textproto: unbalanced }");
      stack.pop();
    } else if (field) {
      block.fields.push([field[1]!, field[2]!.replace(/^"(.*)"$/, "$1")]);
    }
  }
  if (stack.length !== 1) throw new Error("root_store.textproto: a block is not closed");
  const version = top.fields.find(([name]) => name === "version_major")?.[1];
  if (version === undefined || !/^\d+$/.test(version))
    throw new Error("root_store.textproto: no version_major");
  const anchors = top.children
    .filter((block) => block.name === "trust_anchors")
    .map((block) => ({
      sha256: (block.fields.find(([name]) => name === "sha256_hex")?.[1] ?? "").toLowerCase(),
      sctNotAfter: bindingSctNotAfter(block.children.filter((child) => child.name === "constraints")),
    }))
    .filter((anchor) => /^[0-9a-f]{64}$/.test(anchor.sha256));
  return { versionMajor: Number(version), anchors };
}

function bindingSctNotAfter(sets: Block[]): number | null {
  const current = sets.filter((set) => !set.fields.some(([name]) => name === "max_version_exclusive"));
  if (current.length === 0) return null;
  let latest = -Infinity;
  for (const set of current) {
    const value = set.fields.find(([name]) => name === "sct_not_after_sec")?.[1];
    if (value === undefined) return null;
    latest = Math.max(latest, Number(value) * 1000);
  }
  return latest;
}
