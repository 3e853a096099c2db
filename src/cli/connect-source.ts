/**
 * `--connect HOST[:PORT]` as a source of certificates for `cert` and `chain` (CONTRACT §7.3, §8.3):
 * its options (`--servername`, `--save`, `--starttls`/`--start-tls`, `--identity`) and their help
 * text. The read itself is src/local/certificate-source.ts's, through the ServerCertificateSource
 * port (src/local/ports.ts).
 */
import type { CertificateBundleText } from "../local/certificate-files.ts";
import type { ConnectValues } from "../local/certificate-source.ts";
import { UsageError } from "./io.ts";

export type { ConnectValues } from "../local/certificate-source.ts";

/** The options, declared by their lines of help (src/cli/command.ts). */
export const CONNECT_OPTIONS = {
  "--connect HOST[:PORT]": `the list a TLS server sends (port 443 by default), exactly as sent: wire
                        order, extra and repeated certificates kept. Read from a TLS 1.2 handshake
                        at the record layer (no trust check, so broken chains are read too); a
                        server that only speaks TLS 1.3 is read with "openssl s_client -showcerts"
                        when openssl is installed. Failures (refused, closed, not TLS, timed out,
                        no certificate, too many) are one line, exit 3`,
  "--servername NAME": "with --connect: the SNI name to send (default HOST unless an IP address)",
  "--save FILE": "with --connect: write the list as sent, as PEM",
  "--starttls PROTO": `with --connect: upgrade a plain connection first (alias --start-tls);
                        PROTO and its default PORT (openssl's names): smtp 25, lmtp 24,
                        pop3 110, imap 143, ftp 21, postgres 5432 (or psql), mysql 3306,
                        ldap 389, xmpp 5222, xmpp-server 5269; a refusal is one line, exit 3`,
  "--start-tls PROTO": null,
  "--identity NAME": `with --starttls: the EHLO/LHLO name (default localhost) or the XMPP "to"
                        (default --servername, else HOST)`,
};

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
