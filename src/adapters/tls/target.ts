/**
 * The target of one read (`--connect HOST[:PORT]`, `--servername`) as the network stack sees it
 * (node:net's `isIP` decides what is an address literal), and what one read carries through the
 * connection, the record reader and the openssl fallback.
 */
import { isIP } from "node:net";
import type { ServerTarget } from "../../local/ports.ts";
import type { StartTls } from "../../local/starttls-protocols.ts";

/** Default port of `--connect HOST`. */
export const DEFAULT_TLS_PORT = 443;

/** One read: where, how, until when, and how much it may bring. */
export interface Read {
  target: ServerTarget;
  startTls: StartTls | null;
  deadline: number;
  startedAt: number;
  limits: { maxCertificates: number; maxPemLength: number };
}

/**
 * Parses `HOST[:PORT]` (`[v6]:PORT` for IPv6 with a port; `defaultPort` when none is given, 443
 * or the STARTTLS protocol's). SNI defaults to HOST unless HOST is an IP literal; `servername`
 * overrides it.
 */
export function parseTarget(
  text: string,
  servername: string | undefined,
  defaultPort: number = DEFAULT_TLS_PORT,
): { ok: true; target: ServerTarget } | { ok: false; message: string } {
  let host = text.trim();
  let port = defaultPort;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2] !== undefined) port = Number(bracket[2]);
  } else if (isIP(host) !== 6) {
    const colon = host.lastIndexOf(":");
    if (colon !== -1) {
      const portText = host.slice(colon + 1);
      if (!/^\d{1,5}$/.test(portText))
        return { ok: false, message: `--connect: "${portText}" is not a port number` };
      port = Number(portText);
      host = host.slice(0, colon);
    }
  }
  if (host === "") return { ok: false, message: "--connect needs a host name or address" };
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { ok: false, message: "--connect: the port must be from 1 to 65535" };
  }
  const sni = servername?.trim() || (isIP(host) === 0 ? host : null);
  return { ok: true, target: { host, port, servername: sni } };
}

/** `HOST:PORT` as the failure lines name it (`[v6]:PORT`). */
export function describeTarget(target: ServerTarget): string {
  return `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;
}
