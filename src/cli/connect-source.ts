/**
 * `--connect HOST[:PORT]` as a source of certificates for `cert` and `chain` (CONTRACT §7.3, §8.3):
 * its options (`--servername`, `--save`, `--starttls`/`--start-tls`, `--identity`), their help
 * text, and the read itself through the ServerCertificateSource port (src/local/ports.ts). A failure is one line on stderr,
 * `error: HOST:PORT: <the observed cause>`, and exit 3; after a read, one line says how many
 * certificates came and how they were read.
 */
import { pemBlock } from "../domain/certificates/chain.ts";
import type { CertificateBundleText } from "../local/certificate-files.ts";
import type { Run } from "./args.ts";
import { EXIT, UsageError } from "./io.ts";

/** The longest quote of a user's word in a usage error, in characters after escaping (as a server's). */
const MAX_QUOTE_CHARACTERS = 80;
const quote = (said: Uint8Array) => quoteBytes(said, MAX_QUOTE_CHARACTERS);

import {
  parseStartTlsProtocol,
  STARTTLS_DEFAULT_PORTS,
  type StartTls,
  type StartTlsProtocol,
} from "../local/starttls-protocols.ts";
import { quoteBytes } from "../local/terminal-text.ts";

const PROTOCOLS = Object.keys(STARTTLS_DEFAULT_PORTS).join(", ");

export const CONNECT_HELP = `  --connect HOST[:PORT] the list a TLS server sends (port 443 by default), exactly as sent: wire
                        order, extra and repeated certificates kept. Read from a TLS 1.2 handshake
                        at the record layer (no trust check, so broken chains are read too); a
                        server that only speaks TLS 1.3 is read with "openssl s_client -showcerts"
                        when openssl is installed. Failures (refused, closed, not TLS, timed out,
                        no certificate, too many) are one line, exit 3
  --servername NAME     with --connect: the SNI name to send (default HOST unless an IP address)
  --save FILE           with --connect: write the list as sent, as PEM
  --starttls PROTO      with --connect: upgrade a plain connection first (alias --start-tls);
                        PROTO and its default PORT (openssl's names): smtp 25, lmtp 24,
                        pop3 110, imap 143, ftp 21, postgres 5432 (or psql), mysql 3306,
                        ldap 389, xmpp 5222, xmpp-server 5269; a refusal is one line, exit 3
  --identity NAME       with --starttls: the EHLO/LHLO name (default localhost) or the XMPP "to"
                        (default --servername, else HOST)`;

export const CONNECT_OPTIONS = {
  connect: { type: "string" },
  servername: { type: "string" },
  save: { type: "string" },
  starttls: { type: "string" },
  "start-tls": { type: "string" },
  identity: { type: "string" },
} as const;

export interface ConnectValues {
  connect?: string | undefined;
  servername?: string | undefined;
  save?: string | undefined;
  starttls?: string | undefined;
  "start-tls"?: string | undefined;
  identity?: string | undefined;
}

/** Certificates to inspect: from FILE arguments (certificate-source.ts) or from `--connect`. */
export interface CertificateSource {
  pem: string;
  /** The files the PEM was read from, to name them in messages; null for `--connect`. */
  text: CertificateBundleText | null;
  /** The hostname to check when none was given: `--servername`, else the `--connect` HOST. */
  defaultHostname: string | null;
}

/** Without `--connect`: the options that only go with it are a usage error. */
export function refuseConnectOnlyOptions(values: ConnectValues): void {
  const given = (["servername", "save", "starttls", "start-tls", "identity"] as const).filter(
    (name) => values[name] !== undefined,
  );
  if (given.length > 0)
    throw new UsageError(`${given.map((name) => `--${name}`).join(", ")} go with --connect`);
}

/** A name that is safe in an SMTP command and an XML attribute: printable ASCII, no space or quote. */
const SAFE_NAME = /^[!#-%(-;=?-~]+$/;

function startTlsFrom(values: ConnectValues, host: string): StartTls | null {
  if (values.starttls !== undefined && values["start-tls"] !== undefined)
    throw new UsageError("give --starttls or --start-tls, not both");
  const name = values.starttls ?? values["start-tls"];
  if (name === undefined) {
    if (values.identity !== undefined) throw new UsageError("--identity goes with --starttls");
    return null;
  }
  const protocol = parseStartTlsProtocol(name);
  if (protocol === null) {
    throw new UsageError(`--starttls: ${quote(Buffer.from(name))} is not one of ${PROTOCOLS} (or psql)`);
  }
  const identity = values.identity ?? defaultIdentity(protocol, values.servername?.trim() || host);
  if (!SAFE_NAME.test(identity)) {
    const origin = values.identity !== undefined ? "--identity" : "the XMPP name (--servername or HOST)";
    throw new UsageError(
      `${origin} must be a name without spaces, quotes or <>&, not ${quote(Buffer.from(identity))}`,
    );
  }
  return { protocol, identity };
}

function defaultIdentity(protocol: StartTlsProtocol, serverName: string): string {
  return protocol === "xmpp" || protocol === "xmpp-server" ? serverName : "localhost";
}

/**
 * Reads the certificates a server sends (`--connect`, with `--starttls` when given) and writes
 * `--save`. `deadline` (an absolute time on `Date.now()`'s clock) ends the whole read; by default
 * it is 10 s away. A connection failure is one line on stderr and exit 3.
 */
export async function readServerCertificates(
  run: Run,
  values: ConnectValues & { connect: string },
  deadline?: number,
): Promise<CertificateSource | { exit: number }> {
  const { parseTarget, describeTarget, fetchCertificates } = run.io.ports.serverCertificates;
  const parsedHost = parseTarget(values.connect, values.servername);
  if (!parsedHost.ok) throw new UsageError(parsedHost.message);
  const startTls = startTlsFrom(values, parsedHost.target.host);
  const parsed =
    startTls === null
      ? parsedHost
      : parseTarget(values.connect, values.servername, STARTTLS_DEFAULT_PORTS[startTls.protocol]);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const target = parsed.target;
  const fetched = await fetchCertificates(target, {
    ...(deadline === undefined ? {} : { deadline }),
    ...(startTls === null ? {} : { startTls }),
  });
  if (!fetched.ok) {
    // The line CONTRACT §7.3 and §8.3 write: `HOST:PORT: what was observed` (no prefix).
    run.io.stderr(`${describeTarget(target)}: ${fetched.message}\n`);
    return { exit: EXIT.failure };
  }
  const pem = fetched.value.ders.map(pemBlock).join("");
  if (values.save !== undefined) {
    try {
      await run.io.ports.files.replace(values.save, pem);
    } catch (error) {
      run.io.stderr(`${run.err.red("error")}: cannot write ${values.save}: ${(error as Error).message}\n`);
      return { exit: EXIT.failure };
    }
  }
  const sent = fetched.value.ders.length;
  const how =
    fetched.value.via === "openssl-s_client"
      ? `with openssl s_client${startTls === null ? "" : ` -starttls ${startTls.protocol}`}`
      : `from its TLS 1.2 handshake${startTls === null ? "" : ` after STARTTLS (${startTls.protocol})`}`;
  run.io.stderr(
    `${describeTarget(target)} sent ${sent === 1 ? "1 certificate" : `${sent} certificates`} (read ${how})\n`,
  );
  return { pem, text: null, defaultHostname: values.servername?.trim() || target.host };
}
