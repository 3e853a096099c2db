/**
 * Where the certificates of `cert` and `chain` come from: a file (PEM, DER, PKCS#7, leaf+key), stdin,
 * or a live server with `--connect` (CONTRACT §7.3, §8.3; connect-source.ts); and the caller's own
 * roots from `--roots FILE|DIR` or NETTOOLS_ROOTS (§7.2). Notices go to stderr, one line each,
 * never key text.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import type { Run } from "./args.ts";
import { prepareCertificateFile, prepareCertificateText } from "./certificate-files.ts";
import {
  CONNECT_HELP,
  CONNECT_OPTIONS,
  type ConnectValues,
  readServerCertificates,
  refuseConnectOnlyOptions,
} from "./connect-source.ts";
import { UsageError } from "./io.ts";

export const SOURCE_HELP = `Where the certificates come from:
  FILE | -              PEM text (stdin for "-"); a DER certificate or a DER/PEM PKCS#7 (.p7b)
                        file is read directly; a private key in the file (a leaf+key file) is set
                        aside with a one-line notice giving its position, never its text
${CONNECT_HELP}
  --roots FILE|DIR      your own trust anchors (CA certificates, PEM or DER; a DIR's *.pem, *.crt
                        and *.cer files), used like shipped roots for this run (default
                        $NETTOOLS_ROOTS)`;

export const SOURCE_OPTIONS = {
  ...CONNECT_OPTIONS,
  roots: { type: "string" },
} as const;

export interface SourceValues extends ConnectValues {
  roots?: string | undefined;
}

export interface CertificateSource {
  pem: string;
  /** The hostname to check when none was given: `--servername`, else the `--connect` HOST. */
  defaultHostname: string | null;
}

/** Reads the certificates from the positional FILE/- or from `--connect`; exits 3 on a connection failure. */
export async function readCertificateSource(
  run: Run,
  positionals: readonly string[],
  values: SourceValues,
  command: string,
): Promise<CertificateSource | { exit: number }> {
  if (values.connect !== undefined) {
    if (positionals.length > 0) throw new UsageError(`${command} takes either FILE or --connect, not both`);
    return readServerCertificates(run, { ...values, connect: values.connect });
  }
  refuseConnectOnlyOptions(values);
  if (positionals.length !== 1)
    throw new UsageError(`${command} needs exactly one file, "-" for stdin, or --connect`);
  const name = positionals[0]!;
  let prepared: { pem: string; notices: string[] };
  if (name === "-") prepared = prepareCertificateText(await run.io.readStdin(), "stdin");
  else {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(name));
    } catch (error) {
      throw new UsageError(`cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    prepared = prepareCertificateFile(bytes, name);
  }
  for (const notice of prepared.notices) run.io.stderr(`${run.err.dim("notice")}: ${notice}\n`);
  return { pem: prepared.pem, defaultHostname: null };
}

/** PEM text of the caller's roots (`--roots FILE|DIR`, else NETTOOLS_ROOTS), or undefined. */
export async function readRoots(run: Run, values: SourceValues): Promise<string | undefined> {
  const spec = values.roots ?? run.io.env.NETTOOLS_ROOTS;
  if (spec === undefined || spec === "") return undefined;
  const origin = values.roots === undefined ? "NETTOOLS_ROOTS" : "--roots";
  let files: string[];
  try {
    const info = await stat(spec);
    files = info.isDirectory()
      ? (await readdir(spec))
          .filter((file) => /\.(pem|crt|cer)$/i.test(file))
          .sort()
          .map((file) => join(spec, file))
      : [spec];
  } catch (error) {
    throw new UsageError(
      `${origin}: cannot read ${spec}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let pem = "";
  for (const file of files) {
    const prepared = prepareCertificateFile(new Uint8Array(await readFile(file)), file);
    pem += prepared.pem.endsWith("\n") || prepared.pem === "" ? prepared.pem : `${prepared.pem}\n`;
  }
  if (pem.trim() === "") throw new UsageError(`${origin}: ${spec} holds no certificate`);
  return pem;
}

/** The hostname to check: the option, else the connection's default; `cert` skips an IP address. */
export function hostnameFor(
  given: string | undefined,
  source: CertificateSource,
  addressAllowed: boolean,
): string | undefined {
  const name = given ?? source.defaultHostname ?? undefined;
  if (name === undefined) return undefined;
  if (!addressAllowed && isIP(name) !== 0) return undefined;
  return name;
}
