/**
 * Certificate files judged once and written as the watch's series (src/certificate-watch/
 * chain-files.ts, `nettools chain --format prom`): what becomes of each file, in order, the read
 * errors the exposition counts, and that no byte of a file outlives its reading.
 */
import { describe, expect, test } from "bun:test";
import { DerCertificateDecoder } from "../../src/adapters/crypto/decoder.ts";
import type { ChainJudge } from "../../src/certificate-watch/certificate-file.ts";
import { type ChainFileOutcome, exposeChainFiles } from "../../src/certificate-watch/chain-files.ts";
import type { CertificateChainResult } from "../../src/domain/certificates/chain.ts";
import { certPem } from "../fixtures/fixtures.ts";
import { privateKey } from "../support/secret-mount.ts";

const encoder = new TextEncoder();

/** A verdict with nothing but a status: enough for the exported facts. */
const verdict = { status: "complete", problems: [], certificates: [] } as unknown as CertificateChainResult;

describe("exposeChainFiles", () => {
  test("each file is told in order; the exposition counts a read error for all but the judged and the key-only", async () => {
    const key = await privateKey();
    const contents: Record<string, Uint8Array> = {
      "good.pem": encoder.encode(certPem("chain-leaf")),
      "refused.pem": encoder.encode(certPem("chain-int1")),
      "key.pem": encoder.encode(key.pem),
      "binary.bin": new Uint8Array([0x00, 0xff, 0x10, 0x80, 0x00]),
    };
    const read: Uint8Array[] = [];
    const judged: string[] = [];
    const judge: ChainJudge = async (pem) => {
      judged.push(pem);
      return pem.includes(certPem("chain-int1").split("\n")[1]!)
        ? { ok: false, reason: "judging stopped at the time limit (1 s)" }
        : { ok: true, result: verdict };
    };
    const told: [string, ChainFileOutcome["kind"], string][] = [];
    const text = await exposeChainFiles({
      files: ["good.pem", "missing.pem", "refused.pem", "key.pem", "binary.bin"],
      read: async (file) => {
        const bytes = contents[file];
        if (bytes === undefined) return { reason: "cannot read: ENOENT" };
        read.push(bytes);
        return bytes;
      },
      judge,
      decoder: new DerCertificateDecoder(),
      now: () => 1_700_000_000,
      tell: (file, outcome) => told.push([file, outcome.kind, "reason" in outcome ? outcome.reason : ""]),
    });
    expect(told).toEqual([
      ["good.pem", "judged", ""],
      ["missing.pem", "unreadable", "cannot read: ENOENT"],
      ["refused.pem", "unjudged", "judging stopped at the time limit (1 s)"],
      ["key.pem", "key-only", ""],
      ["binary.bin", "unreadable", "binary data from byte 0, not a certificate (PEM, DER or PKCS#7)"],
    ]);
    // Only the certificate files reach the judge.
    expect(judged.length).toBe(2);
    const errors = text.split("\n").filter((line) => line.startsWith("x509_read_errors{"));
    // The exposition lists its files by path.
    expect(errors).toEqual([
      'x509_read_errors{filepath="binary.bin"} 1',
      'x509_read_errors{filepath="good.pem"} 0',
      'x509_read_errors{filepath="missing.pem"} 1',
      'x509_read_errors{filepath="refused.pem"} 1',
    ]);
    expect(text).toContain('network_tools_chain_status{filepath="good.pem",status="complete"} 1');
    expect(text).not.toContain("key.pem");
    for (const leak of key.leaks) expect(text).not.toContain(leak);
    // The bytes read are zeroed once read.
    for (const bytes of read) expect(bytes.every((byte) => byte === 0)).toBe(true);
  });

  test("the judged file's verdict is told, and the time is read once every file is judged", async () => {
    const order: string[] = [];
    const outcomes: ChainFileOutcome[] = [];
    await exposeChainFiles({
      files: ["a.pem"],
      read: async () => {
        order.push("read");
        return encoder.encode(certPem("chain-leaf"));
      },
      judge: async () => {
        order.push("judge");
        return { ok: true, result: verdict };
      },
      decoder: new DerCertificateDecoder(),
      now: () => {
        order.push("now");
        return 0;
      },
      tell: (_file, outcome) => outcomes.push(outcome),
    });
    expect(order).toEqual(["read", "judge", "now"]);
    expect(outcomes).toEqual([{ kind: "judged", result: verdict }]);
  });
});
