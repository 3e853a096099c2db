/**
 * `--roots FILE` as people have them (CONTRACT §9.6), through the CLI process: a system-sized
 * bundle (more certificates than the 500 blocks of a local `pem`), `#` headers and titles around
 * the blocks, a block of another label skipped with one notice.
 */
import { describe, expect, test } from "bun:test";
import { certPem } from "../fixtures/fixtures.ts";
import { scratchRunner } from "./run.ts";

const { nettools, file } = scratchRunner("trust-store-roots-");
const TIMEOUT_MS = 60_000;

describe("nettools chain --roots with a trust-store file", () => {
  test(
    "600 certificates under titles, and a CRL: the chain is anchored, one notice names the CRL",
    async () => {
      const crl = "-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n";
      const titled = Array.from({ length: 600 }, (_, k) => `Root ${k}\n=======\n${certPem("chain-root")}`);
      const roots = file("system-bundle.pem", `## a system bundle\n\n${crl}${titled.join("\n")}`);
      const chain = file("chain.pem", certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1"));
      const ran = await nettools(["chain", "--json", "--roots", roots, chain]);
      const answer = JSON.parse(ran.stdout) as { status: string; anchor: { kind: string } };
      expect(answer.status).toBe("complete");
      expect(answer.anchor.kind).toBe("supplied-root");
      expect(ran.stderr).toBe(
        "notice: --roots: blocks that are not certificates were skipped (X509 CRL), as openssl skips them in a CA file\n",
      );
    },
    TIMEOUT_MS,
  );
});

describe("--reference-roots replaces the built-in store for cert and chain", () => {
  test(
    "a private root given as the reference store is a known root, and a chain under it is webpki",
    async () => {
      const store = file("corp-store.pem", `# corp\n${certPem("chain-root")}`);
      const bundle = file(
        "served.pem",
        certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1"),
      );
      const cert = await nettools(["cert", "--json", "--reference-roots", store, bundle]);
      const findings = (
        JSON.parse(cert.stdout) as { findings: { code: string; evidence: Record<string, unknown> }[] }
      ).findings;
      expect(
        findings.find((finding) => finding.code === "ISSUER_NOT_IN_BUNDLE")?.evidence.issuerIsKnownRoot,
      ).toBe(true);
      const builtIn = await nettools(["cert", "--json", bundle]);
      const before = (
        JSON.parse(builtIn.stdout) as { findings: { code: string; evidence: Record<string, unknown> }[] }
      ).findings;
      expect(
        before.find((finding) => finding.code === "ISSUER_NOT_IN_BUNDLE")?.evidence.issuerIsKnownRoot,
      ).toBe(false);
      const chain = await nettools(["chain", "--json", "--reference-roots", store, bundle]);
      expect(JSON.parse(chain.stdout)).toMatchObject({
        status: "complete",
        profile: "webpki",
        anchor: { kind: "known-root" },
      });
    },
    TIMEOUT_MS,
  );

  test(
    "with --server the server's store applies: the flag is a usage error",
    async () => {
      const ran = await nettools(["roots", "--server", "http://127.0.0.1:9", "--reference-roots", "x.pem"]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain("--reference-roots works in this process only");
    },
    TIMEOUT_MS,
  );
});
