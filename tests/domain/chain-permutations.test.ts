/**
 * CONTRACT §7.1 over real certificates: every permutation of a leaf, two intermediates, a root, a
 * duplicate (a second copy of intermediate 1), an unrelated CA and an expired cross-sign of the root
 * (5040 bundles), each with the path and problems an obvious model expects, and the fullchainPem
 * accepted by `openssl verify -CAfile root -untrusted <rest> leaf`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import { NodeSignatureVerifier } from "../../src/adapters/crypto/verifier.ts";
import { buildCertificateChain, type ChainProblem } from "../../src/domain/certificates/chain.ts";
import type { CertificateData } from "../../src/domain/certificates/model.ts";
import type { CertificateDecoder, SignatureCheck, SignatureVerifier } from "../../src/domain/ports.ts";
import { fixedClock } from "../fakes/clock.ts";
import { noKnownRoots } from "../fakes/roots.ts";
import { certPath, certPem, pemToDers } from "../fixtures/fixtures.ts";

const NOW = "2026-11-24T00:00:00Z";
const LABELS = ["leaf", "int1", "int2", "root", "dup", "unrelated", "cross"] as const;
type Label = (typeof LABELS)[number];
const FILE_OF: Record<Label, string> = {
  leaf: "chain-leaf",
  int1: "chain-int1",
  int2: "chain-int2",
  root: "chain-root",
  dup: "chain-int1",
  unrelated: "chain-unrelated",
  cross: "chain-root-cross",
};

/** The common name of each label's certificate, as the wording names it. */
const CN_OF: Record<Label, string> = {
  leaf: "chain.example.com",
  int1: "Fixture Chain Intermediate 1",
  int2: "Fixture Chain Intermediate 2",
  root: "Fixture Chain Root",
  dup: "Fixture Chain Intermediate 1",
  unrelated: "Fixture Chain Unrelated CA",
  cross: "Fixture Chain Root",
};

/** Decodes each distinct DER once for the whole file (the decoder is pure). */
function memoDecoder(): CertificateDecoder {
  const real = new DerCertificateDecoder();
  const seen = new Map<string, ReturnType<CertificateDecoder["decode"]>>();
  return {
    decodeRequest: (der) => real.decodeRequest(der),
    decode(der) {
      const key = Buffer.from(der).toString("hex");
      let result = seen.get(key);
      if (result === undefined) {
        result = real.decode(der);
        seen.set(key, result);
      }
      return result;
    },
  };
}

/** The real verifier, each (child, issuer key) checked once for the whole file; counts calls per request. */
function memoVerifier(): SignatureVerifier & { calls: number } {
  const real = new NodeSignatureVerifier();
  const seen = new Map<string, Promise<SignatureCheck>>();
  const self = {
    calls: 0,
    verify(child: CertificateData, issuer: CertificateData) {
      self.calls++;
      const key = `${child.fingerprintSha256}|${issuer.publicKeyKey}`;
      let result = seen.get(key);
      if (result === undefined) {
        result = real.verify(child, issuer);
        seen.set(key, result);
      }
      return result;
    },
  };
  return self;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, k) =>
    permutations([...items.slice(0, k), ...items.slice(k + 1)]).map((rest) => [item, ...rest]),
  );
}

/** The obvious model: positions of first occurrences, and the problems the table raises. */
function expected(order: readonly Label[]) {
  const pos = (label: Label) => order.indexOf(label);
  const int1 = Math.min(pos("int1"), pos("dup"));
  const repeat = Math.max(pos("int1"), pos("dup"));
  const path = [pos("leaf"), pos("int2"), int1, pos("root")];
  const problems: Pick<ChainProblem, "code" | "severity" | "certificateIndexes">[] = [];
  if (order[0] !== "leaf")
    problems.push({ code: "WRONG_ORDER", severity: "error", certificateIndexes: path });
  else if (path.some((p, k) => k > 0 && p < path[k - 1]!)) {
    problems.push({ code: "WRONG_ORDER", severity: "warning", certificateIndexes: path });
  }
  problems.push({
    code: "UNNEEDED_CERTIFICATE",
    severity: "warning",
    certificateIndexes: [pos("unrelated")],
  });
  problems.push({ code: "UNNEEDED_CERTIFICATE", severity: "warning", certificateIndexes: [pos("cross")] });
  problems.push({ code: "DUPLICATE_CERTIFICATE", severity: "warning", certificateIndexes: [int1, repeat] });
  problems.push({ code: "ROOT_INCLUDED", severity: "info", certificateIndexes: [pos("root")] });
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const codeRank = ["WRONG_ORDER", "UNNEEDED_CERTIFICATE", "DUPLICATE_CERTIFICATE", "ROOT_INCLUDED"];
  problems.sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      a.certificateIndexes[0]! - b.certificateIndexes[0]! ||
      codeRank.indexOf(a.code) - codeRank.indexOf(b.code),
  );
  return { path, problems };
}

function openssl(args: string[]): { ok: boolean; output: string } {
  const run = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  return { ok: run.exitCode === 0, output: run.stdout.toString() + run.stderr.toString() };
}

/** `openssl verify -CAfile root -untrusted <rest> leaf` on a fullchainPem (leaf = its first block). */
function opensslAccepts(fullchain: string, rootPath: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "chain-verify-"));
  try {
    const blocks = fullchain.match(/-----BEGIN CERTIFICATE-----\n[\s\S]*?-----END CERTIFICATE-----\n/g) ?? [];
    const leafFile = join(dir, "leaf.pem");
    writeFileSync(leafFile, blocks[0] ?? "");
    const args = ["verify", "-CAfile", rootPath];
    if (blocks.length > 1) {
      const rest = join(dir, "rest.pem");
      writeFileSync(rest, blocks.slice(1).join(""));
      args.push("-untrusted", rest);
    }
    return openssl([...args, leafFile]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("every permutation of leaf, two intermediates, root, duplicate, unrelated CA and expired cross-sign", () => {
  test("path, problems and fullchainPem as the model says; one signature check per link", async () => {
    const decoder = memoDecoder();
    const fullchains = new Map<string, number>();
    let count = 0;
    for (const order of permutations(LABELS)) {
      const pem = order.map((label) => certPem(FILE_OF[label])).join("");
      const verifier = memoVerifier();
      const result = await buildCertificateChain(
        { pem },
        { clock: fixedClock(NOW), decoder, verifier, roots: noKnownRoots },
      );
      const model = expected(order);
      expect({ order, path: result.path }).toEqual({ order, path: model.path });
      expect(result.status).toBe("complete");
      expect(result.anchor).toEqual({
        kind: "in-bundle",
        subject: "CN=Fixture Chain Root,O=Network Tools Fixtures,C=US",
        caIssuersUrls: [],
      });
      expect(
        result.problems.map(({ code, severity, certificateIndexes }) => ({
          code,
          severity,
          certificateIndexes,
        })),
      ).toEqual(model.problems);
      // The order WRONG_ORDER suggests is exactly fullchainPem's: the path without its root (CONTRACT §7.6).
      const wrongOrder = result.problems.find((p) => p.code === "WRONG_ORDER");
      if (wrongOrder !== undefined) {
        const served = model.path.slice(0, 3).map((p) => `certificate ${p} (CN=${CN_OF[order[p]!]})`);
        expect(wrongOrder.nextAction).toBe(
          `Serve the certificates in this order: ${served.join(", then ")}, as the corrected chain (fullchainPem) does.`,
        );
      }
      // 7 positions, 6 distinct: each link's signature checked once, repeats sharing the check.
      expect(verifier.calls).toBeLessThanOrEqual(7 * 7);
      fullchains.set(result.fullchainPem, (fullchains.get(result.fullchainPem) ?? 0) + 1);
      count++;
    }
    expect(count).toBe(5040);
    // The file to deploy does not depend on the order it came in.
    expect([...fullchains.values()]).toEqual([5040]);
    const [fullchain] = [...fullchains.keys()];
    expect(fullchain).toBe(
      ["chain-leaf", "chain-int2", "chain-int1"].map((name) => reencoded(certPem(name))).join(""),
    );
    const verdict = opensslAccepts(fullchain!, certPath("chain-root"));
    expect(verdict.output).toContain("OK");
    expect(verdict.ok).toBe(true);
  }, 240_000);

  test("includeRoot appends the bundle's root; openssl still accepts it", async () => {
    const order: Label[] = ["cross", "int1", "root", "unrelated", "leaf", "dup", "int2"];
    const pem = order.map((label) => certPem(FILE_OF[label])).join("");
    const result = await buildCertificateChain(
      { pem, includeRoot: true },
      { clock: fixedClock(NOW), decoder: memoDecoder(), verifier: memoVerifier(), roots: noKnownRoots },
    );
    const ders = pemToDers(result.fullchainPem).map((der) => Buffer.from(der).toString("hex"));
    const names = ["chain-leaf", "chain-int2", "chain-int1", "chain-root"];
    expect(ders).toEqual(names.map((name) => Buffer.from(pemToDers(certPem(name))[0]!).toString("hex")));
    expect(opensslAccepts(result.fullchainPem, certPath("chain-root")).ok).toBe(true);
  });
});

/** The PEM of a certificate as the service writes it: 64-character lines, `\n`, final `\n`. */
function reencoded(pem: string): string {
  const base64 = Buffer.from(pemToDers(pem)[0]!).toString("base64");
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
}
