/**
 * A Kubernetes Secret volume as the kubelet lays it out, on disk, for the certificate watch's
 * tests (CONTRACT §10.1): the files live in a timestamped directory, `..data` links to it, and each
 * key of the Secret is a link through `..data` (`tls.crt -> ..data/tls.crt`). An update writes a
 * new timestamped directory and swaps `..data` with one rename, as the kubelet's AtomicWriter does.
 *
 * Also the certificates such Secrets hold, made with WebCrypto against the real clock (expiry is
 * relative to now), and a private key whose every byte a test can look for.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rootAndLeaf } from "./crafted-certificates.ts";

const DAY_MS = 86_400_000;

/** The Secret's keys and their contents. */
export type SecretFiles = Record<string, string | Uint8Array>;

let generation = 0;

/** Writes `files` as a Secret volume at `dir` (created), or swaps its `..data` to them (an update). */
export function writeSecretMount(dir: string, files: SecretFiles): void {
  mkdirSync(dir, { recursive: true });
  generation += 1;
  const data = `..2026_11_28_20_00_00.${process.pid}${generation}`;
  mkdirSync(join(dir, data));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, data, name), content);
  const next = join(dir, `..data_tmp${generation}`);
  symlinkSync(data, next);
  renameSync(next, join(dir, "..data")); // atomic: readers see the old files or the new, never none
  for (const name of Object.keys(files)) {
    try {
      symlinkSync(join("..data", name), join(dir, name));
    } catch {
      // already linked by an earlier generation: the link goes through ..data
    }
  }
}

/** Removes a Secret volume's older data directories (what the kubelet does after a swap). */
export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** A private key as PEM and DER, and every form of its bytes a leak could take. */
export interface KeyMaterial {
  pem: string;
  der: Uint8Array;
  /** Strings that must never appear in a metric, a log line or an error. */
  leaks: string[];
}

export async function privateKey(): Promise<KeyMaterial> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const base64 = Buffer.from(der).toString("base64");
  const lines = base64.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\n`;
  // The key's secret scalar sits past the PKCS#8 header: look for runs of it in every encoding.
  const tail = der.subarray(der.length - 48);
  const hex = Buffer.from(tail).toString("hex");
  const spaced = Array.from(tail.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join(" ");
  return {
    pem,
    der,
    leaks: [...lines.map((line) => line.slice(0, 40)), hex.slice(0, 32), spaced, "PRIVATE KEY-----\nMI"],
  };
}

/** A leaf (valid `daysBefore` days ago to `daysAfter` days from now) and the root that issued it, as PEM. */
export async function leafAndRoot(
  daysBefore: number,
  daysAfter: number,
): Promise<{ leaf: string; root: string }> {
  const now = Date.now();
  const made = await rootAndLeaf({
    notBefore: new Date(now - daysBefore * DAY_MS),
    notAfter: new Date(now + daysAfter * DAY_MS),
    sans: ["www.example.test"],
  });
  return { leaf: made.leafPem, root: made.rootPem };
}
