/**
 * The page's certificate panels agree with each other and with `nettools chain --fix` (CONTRACT
 * §9.6), checked on real answers of both operations (`buildApp` with the real decoder and
 * verifier): the findings are read with the roots the chain used, and the corrected chain is
 * offered exactly when `--fix` would exit 0 for it (the CLI process is the oracle).
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import {
  deployableByFix,
  errorsLeftAfterFix,
  missingIntermediates,
  withChainRoots,
} from "../../src/client/certificate-answers.ts";
import type { CertificateBundleResultType, CertificateChainResultType } from "../../src/client/index.ts";
import { expiredIntermediateBundle } from "../browser/expired-intermediate.ts";
import { scratchRunner } from "../cli/run.ts";
import { certPem, chainPem } from "../fixtures/fixtures.ts";
import { call, jsonOf, testApp } from "../http/helpers.ts";

const { app } = testApp({ decoder: new DerCertificateDecoder(), verifier: new NodeSignatureVerifier() });
const { nettools, file } = scratchRunner("chain-panel-");
const TIMEOUT_MS = 60_000;

async function answers(pem: string, roots?: string) {
  const bundle = (await jsonOf(
    await call(app, "POST", "/v1/certificate-bundle", { json: { pem } }),
  )) as CertificateBundleResultType;
  const chain = (await jsonOf(
    await call(app, "POST", "/v1/certificate-chain", {
      json: roots === undefined ? { pem } : { pem, roots },
    }),
  )) as CertificateChainResultType;
  return { bundle, chain };
}

describe("findings read with the chain's roots", () => {
  test("anchored at your own root: no 'intermediate most likely missing' beside 'complete'", async () => {
    const pem = certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1");
    const { bundle, chain } = await answers(pem, certPem("chain-root"));
    expect(chain.status).toBe("complete");
    expect(chain.anchor?.kind).toBe("supplied-root");
    // The bundle operation alone cannot know the root: this is what the page used to show.
    expect(missingIntermediates(bundle.findings)).toHaveLength(1);
    const read = withChainRoots(bundle.findings, chain);
    expect(missingIntermediates(read)).toEqual([]);
    const issuer = read.find((finding) => finding.code === "ISSUER_NOT_IN_BUNDLE")!;
    expect(issuer.observed).toContain(`was issued by ${chain.anchor?.subject}, one of your own roots`);
    expect(issuer.observed).not.toContain("most likely missing");
    expect(read.filter((finding) => finding !== issuer)).toEqual(
      bundle.findings.filter((finding) => finding.code !== "ISSUER_NOT_IN_BUNDLE"),
    );
  });

  test("without your root, or with a chain that stays incomplete, the findings are unchanged", async () => {
    const pem = certPem("chain-leaf") + certPem("chain-int2") + certPem("chain-int1");
    const alone = await answers(pem);
    expect(withChainRoots(alone.bundle.findings, alone.chain)).toEqual(alone.bundle.findings);
    expect(withChainRoots(alone.bundle.findings, null)).toEqual(alone.bundle.findings);
  });
});

describe("the corrected chain is offered exactly when nettools chain --fix exits 0", () => {
  const cases: [string, () => string, string | undefined][] = [
    [
      "misordered, your own root (WRONG_ORDER is repaired by writing)",
      () => chainPem("chain-misordered"),
      "chain-root",
    ],
    ["an expired intermediate (EXPIRED stays)", expiredIntermediateBundle, undefined],
    ["incomplete", () => certPem("chain-leaf") + certPem("chain-int2"), undefined],
  ];
  for (const [name, bundle, root] of cases) {
    test(
      name,
      async () => {
        const pem = bundle();
        const { chain } = await answers(pem, root === undefined ? undefined : certPem(root));
        const args = ["chain", "--fix", "-o", "fixed.pem", file("bundle.pem", pem)];
        if (root !== undefined) args.push("--roots", file("root.pem", certPem(root)));
        const fix = await nettools(args);
        expect(deployableByFix(chain)).toBe(fix.code === 0);
        expect([0, 1]).toContain(fix.code);
        if (chain.status === "complete") expect(errorsLeftAfterFix(chain).length === 0).toBe(fix.code === 0);
      },
      TIMEOUT_MS,
    );
  }

  test("each case is what it says: one offered, two not", async () => {
    const offered = await answers(chainPem("chain-misordered"), certPem("chain-root"));
    const expired = await answers(expiredIntermediateBundle());
    expect(deployableByFix(offered.chain)).toBe(true);
    expect(expired.chain.status).toBe("complete");
    expect(errorsLeftAfterFix(expired.chain).map((problem) => problem.code)).toContain("EXPIRED");
    expect(deployableByFix(expired.chain)).toBe(false);
  });
});
