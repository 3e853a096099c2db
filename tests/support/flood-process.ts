/**
 * A flood and a health probe, each run as a process of its own so that neither shares an event
 * loop with the test (or with each other): `bun tests/support/flood-process.ts flood|probe JSON`.
 *
 * - `flood {url, path, body, connections, seconds}`: `connections` loops, each POSTing `body` to
 *   `path` (a GET without `body`) again as soon as it is answered, until `seconds` pass; prints
 *   `{"statuses":{"200":n,"503":n},"badRefusals":n}` (a 503 whose body is not OVERLOADED with
 *   Retry-After counts as bad).
 * - `probe {port, seconds, everyMs}`: every `everyMs`, a fresh TCP connection sends
 *   `GET /v1/health` with `Connection: close`; prints `{"ms":[…],"failures":n}`, each figure
 *   from connecting to the whole answer.
 * Loopback only, bounded in time: each stops by itself.
 */
export {};

const [mode, json = "{}"] = process.argv.slice(2);
const options = JSON.parse(json) as Record<string, unknown>;

async function flood(
  url: string,
  path: string,
  body: string | undefined,
  connections: number,
  seconds: number,
) {
  const statuses: Record<string, number> = {};
  let badRefusals = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        let status = -1;
        try {
          const response = await fetch(
            `${url}${path}`,
            body === undefined
              ? {}
              : { method: "POST", headers: { "content-type": "application/json" }, body },
          );
          status = response.status;
          const text = await response.text();
          if (
            status === 503 &&
            (!text.includes('"OVERLOADED"') || response.headers.get("retry-after") !== "1")
          )
            badRefusals++;
        } catch {
          status = -1;
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { statuses, badRefusals };
}

function probeOnce(port: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    let received = "";
    const timer = setTimeout(() => reject(new Error("probe timed out")), 5_000);
    void Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write("GET /v1/health HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n");
        },
        data(socket, chunk) {
          received += chunk.toString("latin1");
          if (received.includes('{"status":"ok"}')) {
            clearTimeout(timer);
            resolve(performance.now() - start);
            socket.end();
          }
        },
        close() {
          clearTimeout(timer);
          if (!received.includes('{"status":"ok"}')) reject(new Error("closed without an answer"));
        },
        error(_socket, error) {
          clearTimeout(timer);
          reject(error);
        },
      },
    }).catch(reject);
  });
}

async function probe(port: number, seconds: number, everyMs: number) {
  const ms: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    try {
      ms.push(await probeOnce(port));
    } catch {
      failures++;
    }
    await Bun.sleep(everyMs);
  }
  return { ms, failures };
}

const seconds = Math.min(60, Number(options.seconds ?? 3));
if (mode === "flood") {
  console.log(
    JSON.stringify(
      await flood(
        String(options.url),
        String(options.path),
        typeof options.body === "string" ? options.body : undefined,
        Number(options.connections ?? 50),
        seconds,
      ),
    ),
  );
} else if (mode === "probe") {
  console.log(JSON.stringify(await probe(Number(options.port), seconds, Number(options.everyMs ?? 20))));
} else {
  console.error("usage: flood-process.ts flood|probe JSON");
  process.exit(2);
}
