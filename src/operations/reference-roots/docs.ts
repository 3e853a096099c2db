/**
 * The prose of `GET /v1/reference-roots` (CONTRACT §9.2). Its example describes the committed
 * snapshot (src/adapters/reference-roots.json) the way the store does: tests/docs/openapi.test.ts
 * replays it against a server started without REFERENCE_ROOTS_FILE, so a description that went
 * wrong here, or in the store, fails there.
 */
import { createHash } from "node:crypto";
import type { OperationDoc } from "../../adapters/http/openapi-document.ts";
import snapshot from "../../adapters/reference-roots.json" with { type: "json" };

/** The built-in store's description, from the snapshot itself. */
function builtInDescription() {
  const hash = createHash("sha256");
  for (const root of snapshot.roots) hash.update(Buffer.from(root.der, "base64"));
  return {
    source: "built-in",
    version: snapshot.version,
    certificates: snapshot.roots.length,
    distrustDates: snapshot.roots.filter((root) => "serverDistrustAfter" in root || "sctNotAfter" in root)
      .length,
    sha256: hash.digest("hex"),
  };
}

export const docs: OperationDoc = {
  summary: "The reference root store behind the webpki profile",
  description: [
    "A chain is `webpki` when it is anchored in the reference store: by default a committed, dated snapshot of Mozilla's roots trusted for TLS server authentication (NSS `certdata.txt`), each with Firefox's server distrust-after date where set and the Chrome Root Store's SCT not-after date for the roots it constrains.",
    "The operator may replace it with a PEM file (`REFERENCE_ROOTS_FILE`, read as a trust-store file: no distrust dates then).",
    "`sha256` is taken over the roots' DER in store order, so two servers, or a server and `nettools roots`, judge against the same roots exactly when it is equal.",
    "Describes this process's configuration: never cached.",
  ].join(" "),
  tag: "Diagnostics",
  resultDescription:
    "Where the store came from (`built-in` or `file`), its version text (the snapshot's sources, or the file's base name), how many roots it holds, how many carry a distrust date, and its digest.",
  examples: {
    builtIn: { summary: "The built-in snapshot", status: 200, response: builtInDescription() },
  },
};
