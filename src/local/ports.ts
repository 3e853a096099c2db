/**
 * The ports of the user's machine (ADR 0050): what the CLI and the page ask of the world around
 * them, besides the domain's own ports (src/domain/ports.ts), which the server's use cases use.
 * The domain never calls these; the commands and the page do, and each has an adapter per runtime,
 * bound in a composition root (src/cli/composition-root.ts for the CLI, src/web/app.ts for the page).
 */
import type { StartTls } from "./starttls-protocols.ts";

/** A TLS server to read, as `--connect HOST[:PORT]` and `--servername` name it. */
export interface ServerTarget {
  host: string;
  port: number;
  /** The SNI name to send, or null for none (an IP literal host without `--servername`). */
  servername: string | null;
}

/** The certificates a server sent. */
export interface ServerCertificates {
  /** The certificates as sent, DER, in wire order (extra, repeated and unrelated ones kept). */
  ders: Uint8Array[];
  /** How the list was read: `tls1.2-record-layer` or `openssl-s_client`. */
  via: "tls1.2-record-layer" | "openssl-s_client";
}

/** A read's outcome: the list, or one message naming the observed cause. */
export type FetchResult = { ok: true; value: ServerCertificates } | { ok: false; message: string };

/** How one read goes; everything is optional. */
export interface ConnectOptions {
  /**
   * When the whole read must be over, an absolute time on `Date.now()`'s clock: the connection,
   * the STARTTLS upgrade, the handshake and any fallback all stop there. Default: the adapter's
   * own timeout (10 s).
   */
  deadline?: number;
  /** Upgrade the plain connection with this protocol's STARTTLS first. */
  startTls?: StartTls;
  /** Most certificates accepted (default: the CLI's local limit, 500). */
  maxCertificates?: number;
  /** Most characters of the list as PEM (default: the CLI's local limit, 4 MiB). */
  maxPemLength?: number;
}

/**
 * The certificate list a live TLS server sends, in wire order (CONTRACT §7.3, §8.3, ADR 0023).
 * What counts as an IP literal (no SNI, brackets in a name) is the network stack's, so the target's
 * text is parsed and written back by the adapter too.
 */
export interface ServerCertificateSource {
  /**
   * `HOST[:PORT]` (`[v6]:PORT` for IPv6 with a port; `defaultPort` when none is given, 443 by
   * default). SNI defaults to HOST unless HOST is an IP literal; `servername` overrides it.
   */
  parseTarget(
    text: string,
    servername: string | undefined,
    defaultPort?: number,
  ): { ok: true; target: ServerTarget } | { ok: false; message: string };
  /** `HOST:PORT` as failure lines name it (`[v6]:PORT`). */
  describeTarget(target: ServerTarget): string;
  /** Connects (upgrading with STARTTLS when asked) and returns the list as sent; never throws. */
  fetchCertificates(target: ServerTarget, options?: ConnectOptions): Promise<FetchResult>;
}

/** The ports a program on the user's machine is given by its composition root. */
export interface LocalPorts {
  readonly serverCertificates: ServerCertificateSource;
}
