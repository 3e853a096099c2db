/**
 * A local TLS server for `--connect` tests: `openssl s_server` on 127.0.0.1, an ephemeral port,
 * serving a chosen certificate list. The first certificate is the one the server presents as its
 * own (its key is given), the others follow in the order given, as a misconfigured server sends
 * them. Bounded: it accepts a fixed number of connections and is killed by `stop()` (or after 60 s).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TlsServer {
  port: number;
  stop(): Promise<void>;
}

export interface TlsServerOptions {
  /** PEM of the presented certificate and its private key. */
  certPem: string;
  keyPath: string;
  /** PEM blocks sent after it, in this order. */
  extraPem?: string;
  /** A second certificate for this SNI name (`-servername` / `-cert2`). */
  sni?: { name: string; certPem: string; keyPath: string; extraPem?: string };
  /** Extra s_server options, e.g. ["-tls1_3"]. */
  args?: string[];
  /** Connections accepted before it exits (default 20). */
  accepts?: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Starts the server and resolves once it accepts connections. */
export async function startTlsServer(options: TlsServerOptions): Promise<TlsServer> {
  const dir = mkdtempSync(join(tmpdir(), "tls-server-"));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const port = await freePort();
  const args = [
    "openssl",
    "s_server",
    "-accept",
    `127.0.0.1:${port}`,
    "-cert",
    file("cert.pem", options.certPem),
    "-key",
    options.keyPath,
    "-naccept",
    String(options.accepts ?? 20),
    "-quiet",
    ...(options.args ?? []),
  ];
  if (options.extraPem) args.push("-cert_chain", file("chain.pem", options.extraPem));
  if (options.sni) {
    args.push(
      "-servername",
      options.sni.name,
      "-cert2",
      file("cert2.pem", options.sni.certPem),
      "-key2",
      options.sni.keyPath,
    );
    if (options.sni.extraPem) args.push("-chainCAfile", file("chain2.pem", options.sni.extraPem));
  }
  const child = Bun.spawn(args, { stdin: "pipe", stdout: "ignore", stderr: "pipe" });
  const killer = setTimeout(() => child.kill(), 60_000);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          open: (s) => {
            s.end();
            resolve(true);
          },
          error: () => resolve(false),
          data: () => {},
        },
      }).catch(() => resolve(false));
      void socket;
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`openssl s_server did not start: ${await new Response(child.stderr).text()}`);
    }
    await Bun.sleep(50);
  }
  return {
    port,
    async stop() {
      clearTimeout(killer);
      child.kill();
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
