/**
 * The openssl CLI as a test oracle: what `openssl x509` prints for a certificate, parsed.
 * The decoder must produce exactly these values (CONTRACT §4.2).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface OpensslExtension {
  critical: boolean;
  lines: string[];
}

export interface OpensslFacts {
  subject: string;
  issuer: string;
  serial: string;
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
  /** Keyed by the header OpenSSL prints, e.g. `X509v3 Subject Alternative Name`. */
  extensions: Map<string, OpensslExtension>;
  /** The first `Signature Algorithm:` line of `-text`. */
  signatureAlgorithm: string;
  /** Every CN value in encoding order (from `-nameopt utf8,sep_multiline,sname`). */
  commonNames: string[];
  /** DER of the SubjectPublicKeyInfo (`-pubkey`), lowercase hex. */
  publicKeyHex: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const utf8 = new TextDecoder("utf-8");

async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).arrayBuffer(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${err}`);
  return utf8.decode(out);
}

function parseDate(text: string): Date {
  const m = /^(\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (\d+) GMT$/.exec(text.trim());
  if (!m) throw new Error(`unexpected openssl date ${text}`);
  const date = new Date(0);
  date.setUTCFullYear(Number(m[6]), MONTHS.indexOf(m[1]!), Number(m[2]));
  date.setUTCHours(Number(m[3]), Number(m[4]), Number(m[5]), 0);
  return date;
}

/**
 * Runs openssl on a PEM or DER certificate file and parses what it prints. With `brief`, one
 * openssl run instead of three: `signatureAlgorithm` is "" and `commonNames` is empty.
 */
export async function opensslFacts(
  path: string,
  inform: "PEM" | "DER" = "PEM",
  brief = false,
): Promise<OpensslFacts> {
  const common = ["x509", "-inform", inform, "-in", path, "-noout"];
  const skip = Promise.resolve("");
  const [fields, text, names] = await Promise.all([
    run([
      ...common,
      "-pubkey",
      "-subject",
      "-issuer",
      "-serial",
      "-fingerprint",
      "-sha256",
      "-dates",
      "-ext",
      "subjectAltName,basicConstraints,keyUsage,subjectKeyIdentifier,authorityKeyIdentifier",
      "-nameopt",
      "RFC2253,-esc_msb",
    ]),
    brief ? skip : run([...common, "-text", "-certopt", "no_pubkey,no_sigdump,no_extensions"]),
    brief ? skip : run([...common, "-subject", "-nameopt", "utf8,sep_multiline,sname"]),
  ]);
  const facts: Partial<OpensslFacts> = { extensions: new Map() };
  let current: OpensslExtension | null = null;
  for (const line of fields
    .replace(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/, "")
    .split("\n")) {
    if (line.startsWith("    ") && current !== null) {
      current.lines.push(line.trim());
      continue;
    }
    current = null;
    const eq = line.indexOf("=");
    const key = eq < 0 ? line : line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === "subject") facts.subject = value;
    else if (key === "issuer") facts.issuer = value;
    else if (key === "serial") facts.serial = value;
    else if (key === "sha256 Fingerprint") facts.fingerprint = value;
    else if (key === "notBefore") facts.notBefore = parseDate(value);
    else if (key === "notAfter") facts.notAfter = parseDate(value);
    else if (line.startsWith("X509v3 ") || /^[0-9.]+: /.test(line)) {
      const colon = line.indexOf(":");
      current = { critical: line.slice(colon + 1).trim() === "critical", lines: [] };
      facts.extensions!.set(line.slice(0, colon), current);
    }
  }
  const sig = /Signature Algorithm: *(.*)/.exec(text);
  facts.signatureAlgorithm = sig?.[1]?.trim() ?? "";
  facts.commonNames = [];
  for (const line of names.split("\n").slice(1)) {
    for (const part of line.trim().split(" + ")) {
      if (part.startsWith("CN=")) facts.commonNames.push(part.slice(3));
    }
  }
  const pem = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(fields);
  const b64 = (pem?.[1] ?? "").replace(/\s/g, "");
  facts.publicKeyHex = Buffer.from(b64, "base64").toString("hex");
  for (const k of ["subject", "issuer", "serial", "fingerprint", "notBefore", "notAfter"] as const) {
    if (facts[k] === undefined) throw new Error(`openssl printed no ${k} for ${path}`);
  }
  return facts as OpensslFacts;
}

/** Writes DER bytes to a temporary file, runs openssl on it, removes it. */
export async function opensslFactsForDer(der: Uint8Array): Promise<OpensslFacts> {
  const dir = mkdtempSync(join(tmpdir(), "oracle-"));
  try {
    const path = join(dir, "cert.der");
    writeFileSync(path, der);
    return await opensslFacts(path, "DER");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether `openssl x509` can load these DER bytes at all. */
export async function opensslLoads(der: Uint8Array): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "oracle-"));
  try {
    const path = join(dir, "cert.der");
    writeFileSync(path, der);
    const proc = Bun.spawn(["openssl", "x509", "-inform", "DER", "-in", path, "-noout"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    return (await proc.exited) === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs at most `limit` tasks at once: `schedule(task)` resolves with the task's result when it has run. */
export function limiter(limit: number): <R>(task: () => Promise<R>) => Promise<R> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <R>(task: () => Promise<R>): Promise<R> => {
    if (running >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

/** Generous per-test timeout for tests that wait on openssl processes (a loaded CI machine is slow). */
export const ORACLE_TIMEOUT_MS = 60_000;
