/**
 * Floods of each operation (CONTRACT §1.7, issue 30), measured as the issue asks: for each
 * operation, `--clients` connections repeat its costliest valid body for `--seconds`, from a process
 * of their own, while another process asks for `GET /v1/health` on a fresh TCP connection every
 * 20 ms (`Connection: close`, time from connect to the whole answer; tests/support/flood-process.ts).
 * A third process measures how late an idle 10 ms timer fires meanwhile (the machine's own lag).
 * The first scenario floods health itself: the floor of this machine at this moment.
 *
 *   node_modules/.bin/bun bench/operation-floods.ts [--clients 150] [--seconds 10] [--rounds 1]
 *     [--only cidr-merge,cidr-compare,…] [--url http://127.0.0.1:PORT] [--root OTHER_CHECKOUT]
 *
 * Prints one line per flood: answers by status, answers per second, the server's CPU per answer,
 * health p50 / p99 / max, the timer lag p99. Without `--url` it starts the service on 127.0.0.1
 * (WORKERS=1) from this checkout, or from `--root` (another checkout, to compare), and stops it at
 * the end. Loopback only; bounded in time.
 */
import { spawn } from "bun";
import { costliestCidrBodies } from "../tests/support/flood-bodies.ts";
import { worstCaseBundlePem } from "../tests/support/worst-bundle.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const CLIENTS = Math.min(500, Math.max(1, Number(option("clients", "150"))));
const SECONDS = Math.min(30, Math.max(1, Number(option("seconds", "10"))));
const ROUNDS = Math.min(10, Math.max(1, Number(option("rounds", "1"))));
const ONLY = option("only", "")
  .split(",")
  .filter((name) => name !== "")
  .map((name) => `/v1/${name}`);

const root = new URL("..", import.meta.url).pathname;
const floodScript = `${root}tests/support/flood-process.ts`;

const serverRoot = option("root", root).replace(/\/?$/, "/");
let server: ReturnType<typeof spawn> | null = null;
let url = option("url", "");
if (url === "") {
  const child = spawn([process.execPath, `${serverRoot}src/main.ts`], {
    cwd: serverRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", WORKERS: "1" },
    stdout: "pipe",
    stderr: "inherit",
  });
  server = child;
  const reader = child.stdout.getReader();
  let startup = "";
  while (!/"msg":"listening".*"port":(\d+)/.test(startup)) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the server exited before listening");
    startup += new TextDecoder().decode(value);
  }
  void (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  url = `http://127.0.0.1:${/"port":(\d+)/.exec(startup)?.[1]}`;
}
const port = Number(new URL(url).port);

async function runJson<T>(command: string[]): Promise<T> {
  const child = spawn(command, { stdout: "pipe", stderr: "inherit" });
  return JSON.parse(await new Response(child.stdout).text()) as T;
}

async function serverCpuMs(): Promise<number> {
  if (server === null) return Number.NaN;
  try {
    const fields = (await Bun.file(`/proc/${server.pid}/stat`).text()).split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function floodOnce(path: string, body: string | undefined): Promise<void> {
  const lag = runJson<number>([
    process.execPath,
    "-e",
    `const l=[];let last=performance.now();const t=setInterval(()=>{const n=performance.now();l.push(n-last-10);last=n},10);setTimeout(()=>{clearInterval(t);l.sort((a,b)=>a-b);console.log(Math.round(l[Math.floor(l.length*0.99)]??0))},${SECONDS * 1000})`,
  ]);
  const probe = runJson<{ ms: number[]; failures: number }>([
    process.execPath,
    floodScript,
    "probe",
    JSON.stringify({ port, seconds: SECONDS, everyMs: 20 }),
  ]);
  const cpuBefore = await serverCpuMs();
  const flood = await runJson<{ statuses: Record<string, number>; badRefusals: number }>([
    process.execPath,
    floodScript,
    "flood",
    JSON.stringify({
      url,
      path,
      ...(body === undefined ? {} : { body }),
      connections: CLIENTS,
      seconds: SECONDS,
    }),
  ]);
  const cpu = (await serverCpuMs()) - cpuBefore;
  const { ms, failures } = await probe;
  const sorted = [...ms].sort((a, b) => a - b);
  const answers = Object.values(flood.statuses).reduce((sum, n) => sum + n, 0);
  const [load] = (await Bun.file("/proc/loadavg").text()).split(" ");
  console.log(
    [
      path.padEnd(26),
      JSON.stringify(flood.statuses),
      `${(answers / SECONDS).toFixed(0)} answers/s (${((flood.statuses["200"] ?? 0) / SECONDS).toFixed(0)} × 200/s)`,
      `CPU/answer ${(cpu / answers).toFixed(2)} ms`,
      `health p50 ${percentile(sorted, 50).toFixed(1)} p99 ${percentile(sorted, 99).toFixed(1)} max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms (n=${ms.length}, failed ${failures})`,
      `lag p99 ${await lag} ms`,
      `bad 503 ${flood.badRefusals}`,
      `load ${load}`,
    ].join(" | "),
  );
}

try {
  const worst = JSON.stringify({ pem: worstCaseBundlePem() });
  const scenarios: [string, string | undefined][] = [
    ["/v1/health", undefined],
    ...Object.entries(costliestCidrBodies()).map(([path, body]): [string, string] => [
      path,
      JSON.stringify(body),
    ]),
    ["/v1/certificate-bundle", worst],
    ["/v1/certificate-chain", worst],
  ];
  console.log(`${CLIENTS} connections × ${SECONDS} s per flood, ${ROUNDS} round(s), ${url} (${serverRoot})`);
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.log(`-- round ${round}`);
    for (const [path, body] of scenarios) {
      if (ONLY.length > 0 && path !== "/v1/health" && !ONLY.includes(path)) continue;
      await floodOnce(path, body);
    }
  }
} finally {
  if (server !== null) {
    server.kill("SIGTERM");
    await server.exited;
  }
}
