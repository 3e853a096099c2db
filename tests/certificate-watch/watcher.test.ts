/**
 * The certificate watcher (CONTRACT §10.1) over real files, the real chain use case and a clock the
 * test moves: a file that disappears keeps its last answer one pass, then its series go, and
 * `x509_read_errors` counts every failed read; a Secret's `..data` swap is read through the new
 * link; key files give nothing and leak nothing; and skipping unchanged files never changes an
 * answer (fast-check: a watcher that reuses its answers against one that judges everything anew,
 * at instants around each certificate's dates).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { realCertificateDeps } from "../../src/adapters/real-deps.ts";
import type { ChainJudge } from "../../src/certificate-watch/certificate-file.ts";
import { localChainJudge } from "../../src/certificate-watch/local-chain-judge.ts";
import { MAX_WATCHED_FILES } from "../../src/certificate-watch/watched-files.ts";
import { CertificateWatcher, EXPIRY_WINDOW_MS, MAX_REUSE_MS } from "../../src/certificate-watch/watcher.ts";
import { createMemoryLogger } from "../../src/process/logger.ts";
import { crossSigningRing, rootAndLeaf } from "../support/crafted-certificates.ts";
import { type KeyMaterial, privateKey, writeSecretMount } from "../support/secret-mount.ts";

const DAY = 86_400_000;
const T0 = Date.parse("2026-06-01T00:00:00Z");
const deps = realCertificateDeps();

/** A watcher over `paths` whose clock (and its judge's) is `clock.now`, counting the judge's runs. */
function watcherOver(paths: string[], clock: { now: number }) {
  const logger = createMemoryLogger();
  const judge = localChainJudge({ ...deps, clock: { now: () => new Date(clock.now) } });
  const counted = { runs: 0 };
  const countingJudge: ChainJudge = (pem) => {
    counted.runs += 1;
    return judge(pem);
  };
  const watcher = new CertificateWatcher({
    paths,
    intervalSeconds: 60,
    judge: countingJudge,
    decoder: deps.decoder,
    log: (record) => logger.log(record),
    now: () => clock.now,
  });
  return { watcher, logger, counted };
}

const seriesOf = (text: string, file: string) =>
  text
    .split("\n")
    .filter((line) => line.includes(`filepath="${file}"`) && !line.startsWith("x509_read_errors"));
const readErrors = (text: string, file: string) =>
  Number(
    / (\d+)$/.exec(
      text.split("\n").find((line) => line.startsWith(`x509_read_errors{filepath="${file}"}`)) ?? "",
    )?.[1] ?? "NaN",
  );

let chain: { leaf: string; root: string };
let expiringSoon: { leaf: string; root: string };
let key: KeyMaterial;

beforeAll(async () => {
  const made = await rootAndLeaf({
    notBefore: new Date(T0 - 30 * DAY),
    notAfter: new Date(T0 + 60 * DAY),
    sans: ["a.test"],
  });
  chain = { leaf: made.leafPem, root: made.rootPem };
  const soon = await rootAndLeaf({
    notBefore: new Date(T0 - 80 * DAY),
    notAfter: new Date(T0 + 10 * DAY),
    sans: ["a.test"],
  });
  expiringSoon = { leaf: soon.leafPem, root: soon.rootPem };
  key = await privateKey();
});

describe("a file that disappears or stops reading", () => {
  test("from a directory: last answer kept one pass, then the series go; each failed read counted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-gone-"));
    writeFileSync(join(dir, "tls.crt"), chain.leaf + chain.root);
    writeFileSync(join(dir, "other.pem"), chain.leaf + chain.root);
    const clock = { now: T0 };
    const { watcher, logger } = watcherOver([dir], clock);
    const file = join(dir, "tls.crt");
    await watcher.runPass();
    const first = watcher.exposition();
    expect(seriesOf(first, file).length).toBeGreaterThan(6);
    expect(readErrors(first, file)).toBe(0);
    unlinkSync(file);
    await watcher.runPass();
    const kept = watcher.exposition();
    expect(seriesOf(kept, file)).toEqual(seriesOf(first, file));
    expect(readErrors(kept, file)).toBe(1);
    await watcher.runPass();
    const gone = watcher.exposition();
    expect(seriesOf(gone, file)).toEqual([]);
    expect(readErrors(gone, file)).toBe(2);
    expect(seriesOf(gone, join(dir, "other.pem")).length).toBeGreaterThan(6);
    // Forgotten since: no further count; back when it is back.
    await watcher.runPass();
    expect(readErrors(watcher.exposition(), file)).toBe(2);
    writeFileSync(file, chain.leaf);
    await watcher.runPass();
    expect(watcher.exposition()).toContain(
      `network_tools_chain_status{filepath="${file}",status="incomplete"} 1`,
    );
    expect(
      logger.records
        .filter((record) => record.filepath === file)
        .map((record) => record.reason ?? record.msg),
    ).toEqual(["no longer found in its directory"]);
    rmSync(dir, { recursive: true });
  });

  test("a named file: counted on every failed read, its series gone after one interval, back when readable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-named-"));
    const file = join(dir, "site.cert");
    writeFileSync(file, chain.leaf + chain.root);
    const clock = { now: T0 };
    const { watcher, logger } = watcherOver([file], clock);
    await watcher.runPass();
    expect(seriesOf(watcher.exposition(), file).length).toBeGreaterThan(6);
    writeFileSync(file, "not a certificate\n");
    await watcher.runPass();
    expect(seriesOf(watcher.exposition(), file).length).toBeGreaterThan(6);
    unlinkSync(file);
    for (let pass = 0; pass < 3; pass++) await watcher.runPass();
    const text = watcher.exposition();
    expect(seriesOf(text, file)).toEqual([]);
    expect(readErrors(text, file)).toBe(4);
    writeFileSync(file, chain.leaf + chain.root);
    await watcher.runPass();
    expect(watcher.exposition()).toContain(
      `network_tools_chain_status{filepath="${file}",status="complete"} 1`,
    );
    expect(
      logger.records
        .filter((record) => record.filepath === file)
        .map((record) => record.reason ?? record.msg),
    ).toEqual(["no certificate in the file", "cannot read: ENOENT", "certificate file read again"]);
    rmSync(dir, { recursive: true });
  });
});

describe("§1.7's work bound per file", () => {
  test("a hostile bundle is stopped at the file's budget and counted; the other files are judged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-hostile-"));
    writeFileSync(join(dir, "ring.pem"), await crossSigningRing(21));
    writeFileSync(join(dir, "site.pem"), chain.leaf + chain.root);
    const logger = createMemoryLogger();
    const watcher = new CertificateWatcher({
      paths: [dir],
      intervalSeconds: 60,
      judge: localChainJudge(deps, 1),
      decoder: deps.decoder,
      log: (record) => logger.log(record),
    });
    const started = performance.now();
    await watcher.runPass();
    expect(performance.now() - started).toBeLessThan(5_000);
    const text = watcher.exposition();
    expect(readErrors(text, join(dir, "ring.pem"))).toBe(1);
    expect(text).toContain(
      `network_tools_chain_status{filepath="${join(dir, "site.pem")}",status="complete"} 1`,
    );
    expect(logger.records.find((record) => record.filepath === join(dir, "ring.pem"))?.reason).toBe(
      "judging stopped at the time limit (1 s)",
    );
    rmSync(dir, { recursive: true });
  }, 30_000);
});

describe("a directory that grows past 1,000 files while watched", () => {
  test("the first 1,000 in path order are watched, with one warning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-many-"));
    writeFileSync(join(dir, "a.pem"), chain.leaf + chain.root);
    const { watcher, logger } = watcherOver([dir], { now: T0 });
    await watcher.runPass();
    for (let index = 0; index < MAX_WATCHED_FILES; index++)
      writeFileSync(join(dir, `z${String(index).padStart(4, "0")}.pem`), "");
    await watcher.runPass();
    await watcher.runPass();
    const text = watcher.exposition();
    const counters = text.split("\n").filter((line) => line.startsWith("x509_read_errors{"));
    expect(counters).toHaveLength(MAX_WATCHED_FILES);
    expect(text).toContain(
      `network_tools_chain_status{filepath="${join(dir, "a.pem")}",status="complete"} 1`,
    );
    expect(text).not.toContain("z0999.pem");
    expect(logger.records.filter((record) => record.msg === "certificate watch: too many files")).toEqual([
      {
        level: "warn",
        msg: "certificate watch: too many files",
        reason: "1001 certificate files found; the first 1000 in path order are watched",
      },
    ]);
    rmSync(dir, { recursive: true });
  });
});

describe("Secret mounts and keys", () => {
  test("a ..data swap is read through the new link; key files give no series, no error, no byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-secret-"));
    const mount = join(dir, "tls");
    writeSecretMount(mount, {
      "tls.crt": chain.leaf,
      "tls.key": key.pem,
      "ca.crt": chain.root,
      "privkey.pem": key.pem,
      "key.der": key.der,
      "bundle.pem": chain.leaf + key.pem + chain.root,
      "garbage.der": new TextEncoder().encode("neither a certificate nor a key\n"),
    });
    const clock = { now: T0 };
    const { watcher, logger } = watcherOver([mount], clock);
    await watcher.runPass();
    const tls = join(mount, "tls.crt");
    let text = watcher.exposition();
    expect(text).toContain(`network_tools_chain_status{filepath="${tls}",status="incomplete"} 1`);
    expect(text).toContain(
      `network_tools_chain_status{filepath="${join(mount, "bundle.pem")}",status="complete"} 1`,
    );
    expect(text).toContain(
      `network_tools_chain_status{filepath="${join(mount, "ca.crt")}",status="no-leaf"} 1`,
    );
    expect(text).not.toContain("privkey.pem");
    expect(text).not.toContain("key.der");
    expect(readErrors(text, join(mount, "garbage.der"))).toBe(1);
    writeSecretMount(mount, { "tls.crt": chain.leaf + chain.root, "tls.key": key.pem, "ca.crt": chain.root });
    await watcher.runPass();
    text = watcher.exposition();
    expect(text).toContain(`network_tools_chain_status{filepath="${tls}",status="complete"} 1`);
    const logged = JSON.stringify(logger.records);
    expect(logged).toContain("garbage.der");
    for (const leak of key.leaks) {
      expect(text.includes(leak)).toBe(false);
      expect(logged.includes(leak)).toBe(false);
    }
    rmSync(dir, { recursive: true });
  });
});

describe("unchanged files are not judged again, and that never changes an answer", () => {
  test("judged once while unchanged; again when the content changes or the reuse time is over", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-reuse-"));
    writeFileSync(join(dir, "a.pem"), chain.leaf + chain.root);
    const clock = { now: T0 };
    const { watcher, counted } = watcherOver([dir], clock);
    await watcher.runPass();
    await watcher.runPass();
    clock.now += MAX_REUSE_MS - 1;
    await watcher.runPass();
    expect(counted.runs).toBe(1);
    writeFileSync(join(dir, "a.pem"), chain.leaf);
    await watcher.runPass();
    expect(counted.runs).toBe(2);
    clock.now += MAX_REUSE_MS;
    await watcher.runPass();
    expect(counted.runs).toBe(3);
    // Inside the last EXPIRY_WINDOW_MS of the leaf's life: judged on every pass.
    clock.now = T0 + 60 * DAY - EXPIRY_WINDOW_MS + 1;
    await watcher.runPass();
    await watcher.runPass();
    expect(counted.runs).toBe(5);
    // The rendered exposition is reused between passes, but never past a notAfter: expired turns 1.
    const expired = (text: string) =>
      text.split("\n").filter((line) => /^x509_cert_expired\{.*\} 1$/.test(line));
    expect(expired(watcher.exposition())).toEqual([]);
    clock.now = T0 + 60 * DAY + 1_000;
    expect(expired(watcher.exposition())).toHaveLength(1);
    rmSync(dir, { recursive: true });
  });

  test("fast-check: the reusing watcher's exposition equals a fresh one's at every instant", async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-model-"));
    writeFileSync(join(dir, "soon.pem"), expiringSoon.leaf + expiringSoon.root);
    writeFileSync(join(dir, "later.pem"), chain.leaf + chain.root);
    // Steps of a few hours to a few weeks, from before the certificates' notBefore to past expiry.
    const steps = fc.array(fc.integer({ min: 1, max: 24 * 21 }), { minLength: 3, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -100, max: 10 }), steps, async (startDay, hours) => {
        const clock = { now: T0 + startDay * DAY };
        const reusing = watcherOver([dir], clock).watcher;
        for (const step of hours) {
          clock.now += step * 3_600_000;
          await reusing.runPass();
          const fresh = watcherOver([dir], clock).watcher;
          await fresh.runPass();
          expect(reusing.exposition()).toBe(fresh.exposition());
        }
      }),
      { numRuns: 12 },
    );
    rmSync(dir, { recursive: true });
  }, 60_000);
});
