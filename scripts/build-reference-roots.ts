/**
 * Rebuilds the built-in reference root store (CONTRACT §9.2, docs/decisions/0009):
 * src/adapters/reference-roots.json, from NSS `certdata.txt` and the Chrome Root Store's
 * `root_store.textproto`. Neither input is committed; the snapshot names them (where from, which
 * commit or version, their SHA-256) so anyone can fetch the same files and rebuild it byte for byte.
 *
 *   bun scripts/build-reference-roots.ts \
 *     --certdata certdata.txt --nss "NSS 3.123" --nss-from "nss-dev/nss lib/ckfw/builtins/certdata.txt @ b646e2b…" \
 *     --chrome root_store.textproto --chrome-from "chromium/src net/data/ssl/chrome_root_store/root_store.textproto" \
 *     [--out src/adapters/reference-roots.json]
 *
 * Kept: every root whose trust object says `CKA_TRUST_SERVER_AUTH CKT_NSS_TRUSTED_DELEGATOR`, in
 * certdata.txt's order, with its `CKA_NSS_SERVER_DISTRUST_AFTER` (and that attribute's lines as the
 * file writes them, so a test can read the date back by another path), and Chrome's binding
 * `sct_not_after_sec` for the roots the Chrome Root Store lists by SHA-256.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readServerAuthRoots } from "./reference-roots/certdata.ts";
import { readChromeRootStore } from "./reference-roots/chrome-root-store.ts";

/** The snapshot's shape: what src/adapters/crypto/root-store.ts reads. */
export interface ReferenceRootsSnapshot {
  format: "nettools-reference-roots/1";
  /** The version text `GET /v1/reference-roots` and `nettools roots` answer. */
  version: string;
  sources: { file: string; from: string; version: string; sha256: string }[];
  roots: {
    label: string;
    sha256: string;
    /** The certificate's DER, base64. */
    der: string;
    /** Firefox: `CKA_NSS_SERVER_DISTRUST_AFTER`, RFC 3339 UTC. */
    serverDistrustAfter?: string;
    /** The certdata.txt lines the date was read from. */
    serverDistrustAfterSource?: string[];
    /** Chrome: the binding `sct_not_after_sec`, RFC 3339 UTC. */
    sctNotAfter?: string;
  }[];
}

const ROOT = resolve(import.meta.dir, "..");

/** The snapshot for two input texts and their provenance. */
export function buildSnapshot(input: {
  certdata: string;
  chrome: string;
  nssVersion: string;
  nssFrom: string;
  chromeFrom: string;
}): ReferenceRootsSnapshot {
  const roots = readServerAuthRoots(input.certdata);
  const chrome = readChromeRootStore(input.chrome);
  const sctNotAfter = new Map(chrome.anchors.map((anchor) => [anchor.sha256, anchor.sctNotAfter]));
  const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
  const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
  return {
    format: "nettools-reference-roots/1",
    version: `Mozilla ${input.nssVersion} certdata.txt, Chrome Root Store ${chrome.versionMajor}`,
    sources: [
      {
        file: "certdata.txt",
        from: input.nssFrom,
        version: input.nssVersion,
        sha256: sha256(input.certdata),
      },
      {
        file: "root_store.textproto",
        from: input.chromeFrom,
        version: `version_major ${chrome.versionMajor}`,
        sha256: sha256(input.chrome),
      },
    ],
    roots: roots.map((root) => {
      const hash = sha256(root.der);
      const chromeDate = sctNotAfter.get(hash) ?? null;
      return {
        label: root.label,
        sha256: hash,
        der: Buffer.from(root.der).toString("base64"),
        ...(root.serverDistrustAfter === null
          ? {}
          : {
              serverDistrustAfter: iso(root.serverDistrustAfter),
              serverDistrustAfterSource: root.distrustLines,
            }),
        ...(chromeDate === null ? {} : { sctNotAfter: iso(chromeDate) }),
      };
    }),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      certdata: { type: "string" },
      nss: { type: "string" },
      "nss-from": { type: "string" },
      chrome: { type: "string" },
      "chrome-from": { type: "string" },
      out: { type: "string", default: join(ROOT, "src/adapters/reference-roots.json") },
    },
  });
  const { certdata, nss, chrome, out } = values;
  if (!certdata || !nss || !values["nss-from"] || !chrome || !values["chrome-from"] || !out) {
    console.error(
      "usage: bun scripts/build-reference-roots.ts --certdata FILE --nss VERSION --nss-from TEXT --chrome FILE --chrome-from TEXT [--out FILE]",
    );
    process.exit(2);
  }
  const snapshot = buildSnapshot({
    certdata: readFileSync(certdata, "utf8"),
    chrome: readFileSync(chrome, "utf8"),
    nssVersion: nss,
    nssFrom: values["nss-from"],
    chromeFrom: values["chrome-from"],
  });
  writeFileSync(out, `${JSON.stringify(snapshot, null, 1)}\n`);
  const distrusted = snapshot.roots.filter((root) => root.serverDistrustAfter || root.sctNotAfter).length;
  console.log(
    `${out}: ${snapshot.roots.length} roots, ${distrusted} with a distrust date (${snapshot.version})`,
  );
}
