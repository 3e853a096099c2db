/**
 * The protocols of `--starttls` (CONTRACT §8.3), by openssl's `-starttls` names, with their
 * default ports: words the user types, shared by the CLI's options and the outbound TLS adapter
 * (src/adapters/tls/starttls.ts) that speaks them.
 */

/** The protocols of `--starttls`, by openssl's `-starttls` names, with their default ports. */
export const STARTTLS_DEFAULT_PORTS = {
  smtp: 25,
  lmtp: 24,
  pop3: 110,
  imap: 143,
  ftp: 21,
  postgres: 5432,
  mysql: 3306,
  ldap: 389,
  xmpp: 5222,
  "xmpp-server": 5269,
} as const;

export type StartTlsProtocol = keyof typeof STARTTLS_DEFAULT_PORTS;

/** Other names accepted for a protocol. */
const ALIASES: Readonly<Record<string, StartTlsProtocol>> = { psql: "postgres" };

/** `--starttls PROTO`'s protocol (openssl's names, `psql` for postgres; any letter case), or null. */
export function parseStartTlsProtocol(name: string): StartTlsProtocol | null {
  const lower = name.trim().toLowerCase();
  if (Object.hasOwn(STARTTLS_DEFAULT_PORTS, lower)) return lower as StartTlsProtocol;
  return ALIASES[lower] ?? null;
}

export interface StartTls {
  protocol: StartTlsProtocol;
  /** The EHLO/LHLO argument (smtp, lmtp) or the stream's `to` (xmpp); other protocols ignore it. */
  identity: string;
}
