/**
 * The ports of the user's machine (ADR 0050): what the CLI and the page ask of the world around
 * them, besides the domain's own ports (src/domain/ports.ts), which the server's use cases use.
 * The domain never calls these; the commands and the page do, and each has an adapter per runtime,
 * bound in a composition root (src/cli/composition-root.ts for the CLI, src/web/app.ts for the page).
 */
import type { InputLimit } from "./input-limits.ts";
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

/** A private key's PEM block as found in a text: its label, the line of its BEGIN boundary (1-based), its whole text. */
export interface PrivateKeyBlock {
  label: string;
  line: number;
  text: string;
}

/**
 * The public half of a private key, or why it was not read: a sentence that names the input and
 * the block's line, never a byte of the key; or the budget spent while deriving a decryption key.
 * `keyType` is the runtime's name of the key when it has one (the page's WebCrypto algorithm).
 */
export type PublicHalf =
  | { ok: true; spki: Uint8Array; keyType?: string }
  | { ok: false; message: string }
  | { ok: false; stopped: string };

/**
 * Private key → SubjectPublicKeyInfo (CONTRACT §8.2), in the process that holds the key: the key
 * never leaves it. Each runtime reads what it can (node:crypto every key type and encrypted
 * PKCS#8; WebCrypto RSA, EC P-256/384/521 and Ed25519, no passphrase) and says so in its words.
 */
export interface PublicKeyReader {
  /**
   * The SPKI (DER) of the key in `block` (from input `origin`). `passphrase` opens an
   * `ENCRYPTED PRIVATE KEY`, its derivation abandoned after `timeoutMs`.
   */
  publicHalfOf(
    block: PrivateKeyBlock,
    origin: string,
    passphrase: string | undefined,
    timeoutMs: number,
  ): Promise<PublicHalf>;
  /** True once a derivation abandoned at its deadline still runs on a thread no API can stop. */
  derivationLeftRunning(): boolean;
}

/**
 * The user's files and stdin, each read with its cap (ADR 0036; src/local/input-limits.ts), and the
 * files the CLI writes. Errors opening a file are the runtime's own (its `code` and `message`):
 * the caller names the file in its words.
 */
export interface LocalFiles {
  /**
   * A file's bytes within `limit`: a regular file refused by its size before it is read, anything
   * else (a device, a FIFO) read up to the cap; past it, `InputTooLarge`. `mapped`: the runtime may
   * map the file rather than copy it (`match`'s logs); `capRegularFiles: false` skips the size
   * check (mapped searched files).
   */
  read(
    path: string,
    limit: InputLimit,
    how?: { mapped?: boolean; capRegularFiles?: boolean },
  ): Promise<Uint8Array>;
  /** A file's bytes, whole, without a cap (a file the CLI was told to watch, `chain --format prom`). */
  readWhole(path: string): Promise<Uint8Array>;
  /** stdin's bytes within `limit` (`InputTooLarge` past it). */
  readStdin(limit: InputLimit): Promise<Uint8Array>;
  /** A file's bytes, or one line: larger than `maxBytes` (by its size, unread), or unreadable (its error code). */
  readCapped(
    path: string,
    maxBytes: number,
  ): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; message: string }>;
  /**
   * A directory's entries, each as a path (the directory joined with the entry's name, as the
   * runtime writes paths), or null when `path` is not a directory (the runtime's error when it
   * cannot be read).
   */
  directoryEntries(path: string): Promise<string[] | null>;
  /**
   * Writes `text` to `path` atomically (CONTRACT §7.1): a reader sees the old file or the new one,
   * never half of one; the permission bits of the file it replaces are kept.
   */
  replace(path: string, text: string): Promise<void>;
}

/** A PKCS#12 file's certificates as PEM in file order, and its keys as PKCS#8 PEM when asked for; or one line saying why not. */
export type Pkcs12Input =
  | { ok: true; certificatesPem: string; keysPem: string[] }
  | { ok: false; message: string };

/**
 * PKCS#12 files encrypted the legacy way (RC2, 3DES: `openssl pkcs12 -legacy`, older Windows),
 * which src/local/pkcs12.ts does not decrypt (ADR 43): read by a tool of the machine, or refused
 * with the command that converts them. `source` names the file in messages; neither the password
 * nor a key byte is ever in one.
 */
export interface LegacyPkcs12Reader {
  read(bytes: Uint8Array, source: string, password: string, wantKeys: boolean): Pkcs12Input;
}

/** Where selected lines and addresses go: bytes appended, in order. */
export interface ByteSink {
  /** Appends `source[from, to)`. */
  copy(source: Uint8Array, from: number, to: number): void;
  /** Appends one byte. */
  byte(c: number): void;
}

/**
 * Output gathered in chunks that a writer fills in place: `bytes[used, …)` through `view`, after
 * asking for `room` (src/cli/byte-output.ts's ChunkedOutput).
 */
export interface ByteChunks {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  used: number;
  room(n: number): void;
}

/**
 * The memory this process holds (its resident set, in bytes): the second limit of a certificate
 * command's work budget (src/local/deadline.ts, CONTRACT §7.3), asked at the work's pauses.
 */
export interface ResidentMemory {
  residentBytes(): number;
}

/** The ports a program on the user's machine is given by its composition root. */
export interface LocalPorts {
  readonly serverCertificates: ServerCertificateSource;
  readonly publicKeys: PublicKeyReader;
  readonly files: LocalFiles;
  readonly legacyPkcs12: LegacyPkcs12Reader;
  readonly memory: ResidentMemory;
}
