/**
 * CONTRACT §4.4 against the real process: no log line ever holds a body, a PEM, a hostname,
 * a subject, a SAN or a fingerprint — on success and on every error path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chainPem, privateKeyPem } from "../fixtures/fixtures.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: "debug" });
});
afterAll(async () => {
  await server.stop();
});

const HOSTNAME = "privacy-probe.example.net";

async function post(path: string, body: string, contentType = "application/json"): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });
}

function pemLines(pem: string): string[] {
  return pem
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length >= 16 && !line.startsWith("-----"));
}

describe("log privacy", () => {
  test("no request content of any endpoint reaches the log", async () => {
    const chain = chainPem("rsa-sha256");
    const key = privateKeyPem("pkcs8");
    const success = await post("/v1/certificate-bundle", JSON.stringify({ pem: chain, hostname: HOSTNAME }));
    expect(success.status).toBe(200);
    const result = (await success.json()) as {
      certificates: { subject: string; fingerprintSha256: string; sans: { value: string }[] }[];
    };

    const keyResponse = await post(
      "/v1/certificate-bundle",
      JSON.stringify({ pem: `${chain}\n${key}`, hostname: HOSTNAME }),
    );
    expect(keyResponse.status).toBe(400);
    const keyText = await keyResponse.text();
    for (const line of pemLines(key)) expect(keyText).not.toContain(line);

    const probes: [string, string, string?][] = [
      ["/v1/cidr-cover", JSON.stringify({ inputs: ["198.18.77.1", "198.18.77.200"] })],
      ["/v1/cidr-cover", JSON.stringify({ inputs: ["198.18.77.999"] })],
      ["/v1/cidr-subtract", JSON.stringify({ include: ["198.18.0.0/15"], exclude: ["198.18.77.0/24"] })],
      ["/v1/range-to-cidrs", JSON.stringify({ start: "198.18.77.5", end: "198.18.77.1" })],
      ["/v1/certificate-bundle", JSON.stringify({ pem: "garbage privacy-probe", hostname: HOSTNAME })],
      ["/v1/certificate-bundle", '{"pem":"privacy-probe', "application/json"],
      ["/v1/certificate-bundle", JSON.stringify({ pem: chain }), "text/plain"],
      // hardening error paths: mixed families, result too large, deep nesting, over the size limit
      ["/v1/cidr-cover", JSON.stringify({ inputs: ["198.18.77.1", "2001:db8::77"] })],
      [
        "/v1/cidr-subtract",
        JSON.stringify({
          include: ["198.18.0.0/15"],
          exclude: Array.from({ length: 900 }, (_, i) => `198.${18 + (i & 1)}.${i >> 2}.${i & 255}`),
        }),
      ],
      ["/v1/certificate-bundle", `{"pem":${"[".repeat(40)}"${HOSTNAME}"${"]".repeat(40)}}`],
      [
        "/v1/certificate-bundle",
        JSON.stringify({ pem: `${chain}${" ".repeat(70_000)}`, hostname: HOSTNAME }),
      ],
      ["/v1/range-to-cidrs", JSON.stringify({ start: "198.18.77.1", end: "198.18.77.9", [HOSTNAME]: 1 })],
      // the chain operation: a good chain with roots, a key among the roots, a bad address
      [
        "/v1/certificate-chain",
        JSON.stringify({ pem: chain, hostname: HOSTNAME, roots: chain, includeRoot: true }),
      ],
      ["/v1/certificate-chain", JSON.stringify({ pem: chain, roots: `${chain}\n${key}` })],
      ["/v1/certificate-chain", JSON.stringify({ pem: chain, hostname: "198.18.77.999" })],
    ];
    for (const [path, body, type] of probes) await post(path, body, type);
    await fetch(`${server.url}/v1/public-ip`, { headers: { "x-forwarded-for": "198.18.77.66" } });
    // An unmatched path is logged (CONTRACT §6), its query never: the query is where content hides.
    await fetch(`${server.url}/v1/unmatched-probe?q=${HOSTNAME}`);
    await fetch(`${server.url}/v1/cidr-cover`, {
      method: "DELETE",
      body: JSON.stringify({ inputs: [HOSTNAME] }),
    });
    await fetch(`${server.url}/v1/cidr-cover/unmatched?q=${HOSTNAME}`, { method: "OPTIONS" });
    await Bun.sleep(200);

    const log = server.lines.join("\n");
    expect(server.lines.length).toBeGreaterThan(10);
    const forbidden = [
      HOSTNAME,
      "privacy-probe",
      "198.18.77",
      ...pemLines(chain),
      ...pemLines(key),
      ...result.certificates.flatMap((certificate) => [
        certificate.subject,
        certificate.fingerprintSha256,
        ...certificate.sans.map((san) => san.value),
      ]),
    ];
    for (const text of forbidden) expect(log).not.toContain(text);
    const paths = server.lines.flatMap((line) => {
      const path = (JSON.parse(line) as { path?: string }).path;
      return path === undefined ? [] : [path];
    });
    expect(paths).toEqual(["/v1/unmatched-probe", "/v1/cidr-cover/unmatched"]);
    for (const line of server.lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        expect([
          "time",
          "level",
          "msg",
          "requestId",
          "method",
          "route",
          "path",
          "status",
          "durationMs",
          "host",
          "port",
          "errorName",
          "pid",
        ]).toContain(key);
      }
    }
  });
});
