/**
 * Minimal reproduction of what Bun's HTTP/1.1 parser does before any handler runs (issue 16),
 * against a bare `Bun.serve` on 127.0.0.1 with raw sockets. Prints one line per case: what was
 * sent, and what came back (status lines, or how the connection ended).
 *
 *   node_modules/.bin/bun scripts/bun-parser-repro.ts          # the report
 *   node_modules/.bin/bun scripts/bun-parser-repro.ts --json   # the same as JSON (tests read it)
 *   node_modules/.bin/bun scripts/bun-parser-repro.ts --nginx  # the same cases through nginx
 *     (needs `nginx` on the PATH or in /usr/sbin; started on 127.0.0.1 with a temporary config
 *     proxying to the bare server, stopped at the end)
 *
 * Cases:
 * 1. lower-case, mixed-case and unknown methods (`get`, `Get`, `FOO`): RFC 9110 §9.1 makes methods
 *    case-sensitive; an unknown one deserves 501 (or 405/400), not silence.
 * 2. a chunked body followed by a trailer field (RFC 9112 §7.1.2), then a second pipelined
 *    request on the same connection: both should be answered.
 * 3. a request whose lines end in a bare LF (RFC 9112 §2.2: accept it, or answer 400), and a NUL
 *    in the path (not a request-target character: 400): Bun answers `505 HTTP Version Not
 *    Supported`, a status that names the wrong fault, with none of our headers (issue 30).
 * 4. a request whose handler answers on a later turn of the event loop (`/later`: after a
 *    `setImmediate`, as any WebCrypto call or queued work does), with a second request pipelined
 *    behind it: Bun 1.4.5 closes the connection without sending either answer (ADR 66, ADR 68;
 *    upstream oven-sh/bun pull request 38128, open). Alone, the same request is answered.
 * Bounded: every case gives up after 2 s; the server stops itself at the end.
 */

export interface CaseResult {
  name: string;
  /** Status codes of the responses received, in order. */
  statuses: number[];
  /** How the connection ended within the wait: "open", "closed" (FIN) or "reset". */
  ending: "open" | "closed" | "reset";
  /** Requests the handler saw, as "METHOD path". */
  seen: string[];
}

export const CASES: { name: string; request: string }[] = [
  { name: "GET (control)", request: "GET /a HTTP/1.1\r\nHost: a\r\n\r\n" },
  { name: "lower-case get", request: "get /a HTTP/1.1\r\nHost: a\r\n\r\n" },
  { name: "mixed-case Get", request: "Get /a HTTP/1.1\r\nHost: a\r\n\r\n" },
  { name: "unknown method FOO", request: "FOO /a HTTP/1.1\r\nHost: a\r\n\r\n" },
  {
    name: "chunked body without trailer, then a pipelined GET (control)",
    request:
      "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n" +
      "GET /b HTTP/1.1\r\nHost: a\r\n\r\n",
  },
  {
    name: "chunked body with a trailer, then a pipelined GET",
    request:
      "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nX-Trailer: 1\r\n\r\n" +
      "GET /b HTTP/1.1\r\nHost: a\r\n\r\n",
  },
  // RFC 9112 §2.2: a recipient MAY accept a bare LF as a line terminator; if not, 400.
  { name: "bare LF line ends", request: "GET /a HTTP/1.1\nHost: a\n\n" },
  // RFC 9112 §3.2 / RFC 3986: a NUL is no request-target character: 400.
  { name: "NUL in the path", request: "GET /a\u0000b HTTP/1.1\r\nHost: a\r\n\r\n" },
  { name: "GET answered on a later turn (control)", request: "GET /later HTTP/1.1\r\nHost: a\r\n\r\n" },
  {
    name: "GET answered on a later turn, then a pipelined GET",
    request: "GET /later HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n",
  },
];

/** A reverse proxy started in front of the bare server: where to send the cases, and how to stop it. */
export interface Front {
  port: number;
  stop(): Promise<void>;
}

/** Runs every case against a fresh bare Bun.serve (through `front`, if given) and returns what happened. */
export async function reproduce(front?: (serverPort: number) => Promise<Front>): Promise<CaseResult[]> {
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      seen.push(`${request.method} ${path}`);
      if (path === "/later") await new Promise<void>((resume) => setImmediate(resume));
      const body = request.body === null ? "" : await request.text();
      return new Response(`${request.method} ${body.length}\n`);
    },
  });
  const results: CaseResult[] = [];
  const proxy = front === undefined ? null : await front(server.port ?? 0);
  const port = proxy?.port ?? server.port ?? 0;
  try {
    for (const { name, request } of CASES) {
      seen.length = 0;
      let received = "";
      let ending: CaseResult["ending"] = "open";
      const socket = await Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          data(_socket, data) {
            received += new TextDecoder().decode(data);
          },
          close() {
            if (ending === "open") ending = "closed";
          },
          error() {
            ending = "reset";
          },
        },
      });
      socket.write(request);
      const expected = (request.match(/ HTTP\/1\.1\r\n/g) ?? []).length;
      const until = performance.now() + 2_000;
      while (performance.now() < until && ending === "open") {
        if ((received.match(/^HTTP\/1\.1 \d{3}/gm) ?? []).length >= expected) break;
        await Bun.sleep(10);
      }
      await Bun.sleep(50);
      const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
      results.push({ name, statuses, ending, seen: [...seen] });
      socket.end();
    }
  } finally {
    await proxy?.stop();
    server.stop(true);
  }
  return results;
}

/** nginx on a free loopback port, proxying to `serverPort` with its default buffering. */
async function nginxFront(serverPort: number): Promise<Front> {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "nginx-front-"));
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  writeFileSync(
    join(dir, "nginx.conf"),
    `pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir};
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://127.0.0.1:${serverPort}; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`,
  );
  const binary = Bun.which("nginx") ?? "/usr/sbin/nginx";
  const child = Bun.spawn([binary, "-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stderr: "inherit",
  });
  for (let i = 0; i < 100; i++) {
    try {
      (await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } })).end();
      break;
    } catch {
      await Bun.sleep(20);
    }
  }
  return {
    port,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) {
  const results = await reproduce(process.argv.includes("--nginx") ? nginxFront : undefined);
  if (process.argv.includes("--json")) console.log(JSON.stringify(results));
  else {
    const via = process.argv.includes("--nginx") ? ", through nginx" : "";
    console.log(`Bun ${Bun.version} (${Bun.revision.slice(0, 9)}), bare Bun.serve on 127.0.0.1${via}`);
    for (const result of results) {
      console.log(
        `${result.name.padEnd(62)} responses: ${JSON.stringify(result.statuses).padEnd(10)} connection: ${result.ending.padEnd(6)} handler saw: ${JSON.stringify(result.seen)}`,
      );
    }
  }
}
