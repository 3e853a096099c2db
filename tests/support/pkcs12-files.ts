/**
 * PKCS#12 files as `openssl pkcs12 -export` writes them (default: PBES2, PBKDF2-SHA256, AES-256,
 * an SHA-256 MAC; `-legacy`: RC2/3DES, an SHA-1 MAC), for a leaf of a throwaway CA with the CA
 * as its chain; and a copy whose MAC asks for 20,000,000 iterations (re-encoded, not computed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeCa, openssl } from "./openssl-ca.ts";

/** A password no output may ever hold. */
export const P12_PASSWORD = "Pkcs12-Secret-7f3a";

export interface Pkcs12Files {
  dir: string;
  modern: string;
  legacy: string;
  /** Exported with the empty password (`-passout pass:`). */
  unprotected: string;
  /** The modern file with its MAC iteration count raised to 20,000,000. */
  tooManyIterations: string;
  /** The leaf then the CA, in file order, PEM. */
  certificatesPem: string;
  /** The leaf's private key, PEM (to prove it is never printed). */
  keyPem: string;
}

export function makePkcs12Files(): Pkcs12Files {
  const ca = makeCa("PKCS12 Test CA");
  const leaf = ca.issue("p12.example", "3001");
  const key = join(ca.dir, "p12.example.key");
  const env = { P12PASS: P12_PASSWORD };
  const exportTo = (out: string, extra: string[], passout = "env:P12PASS") => {
    const ran = Bun.spawnSync(
      [
        "openssl",
        "pkcs12",
        "-export",
        "-in",
        leaf,
        "-inkey",
        key,
        "-certfile",
        ca.caPath,
        "-passout",
        passout,
        "-out",
        out,
        ...extra,
      ],
      { cwd: ca.dir, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" },
    );
    if (ran.exitCode !== 0) throw new Error(`openssl pkcs12 -export failed: ${ran.stderr.toString()}`);
    return join(ca.dir, out);
  };
  const modern = exportTo("modern.p12", []);
  const legacy = exportTo("legacy.p12", ["-legacy"]);
  const unprotected = exportTo("unprotected.p12", [], "pass:");
  const tooManyIterations = join(ca.dir, "iterations.p12");
  Bun.write(tooManyIterations, withMacIterations(readFileSync(modern), 20_000_000));
  openssl(["version"]);
  return {
    dir: ca.dir,
    modern,
    legacy,
    unprotected,
    tooManyIterations,
    certificatesPem: readFileSync(leaf, "utf8") + ca.caPem,
    keyPem: readFileSync(key, "utf8"),
  };
}

/** DER length octets. */
function length(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

/** One TLV's header size and end, at `at`. */
function tlv(buf: Uint8Array, at: number): { body: number; end: number } {
  let p = at + 1;
  let len = buf[p++]!;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let k = 0; k < n; k++) len = len * 256 + buf[p++]!;
  }
  return { body: p, end: p + len };
}

/** The PFX with macData's iterations INTEGER replaced by `iterations` (lengths re-encoded). */
export function withMacIterations(pfx: Uint8Array, iterations: number): Uint8Array {
  const top = tlv(pfx, 0);
  const version = tlv(pfx, top.body);
  const authSafe = tlv(pfx, version.end);
  const mac = tlv(pfx, authSafe.end);
  const digestInfo = tlv(pfx, mac.body);
  const salt = tlv(pfx, digestInfo.end);
  const value: number[] = [];
  for (let v = iterations; v > 0; v = Math.floor(v / 256)) value.unshift(v & 0xff);
  if (value[0]! & 0x80) value.unshift(0);
  const macBody = [...pfx.subarray(mac.body, salt.end), 0x02, ...length(value.length), ...value];
  const body = [...pfx.subarray(top.body, authSafe.end), 0x30, ...length(macBody.length), ...macBody];
  return Uint8Array.from([0x30, ...length(body.length), ...body]);
}
