/**
 * public-ip and /v1/ip end to end over real sockets: 127.0.0.1, ::1 and a dual-stack listener.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { type RunningServer, startServer } from "./server.ts";

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

function hasIpv6Loopback(): boolean {
  try {
    const probe = Bun.serve({ hostname: "::1", port: 0, fetch: () => new Response("") });
    probe.stop(true);
    return true;
  } catch {
    return false;
  }
}

describe("over IPv4 loopback", () => {
  test("JSON and text name 127.0.0.1", async () => {
    const server = await serve();
    const json = await fetch(`${server.url}/v1/public-ip`);
    expect(await json.json()).toEqual({ family: "ipv4", ip: "127.0.0.1" });
    expect(json.headers.get("cache-control")).toBe("no-store");
    const text = await fetch(`${server.url}/v1/public-ip`, { headers: { accept: "text/plain" } });
    expect(await text.text()).toBe("127.0.0.1\n");
  });

  test("a spoofed X-Forwarded-For is ignored without trusted proxies", async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/v1/public-ip`, { headers: { "x-forwarded-for": "6.6.6.6" } });
    expect(await response.json()).toEqual({ family: "ipv4", ip: "127.0.0.1" });
  });

  test("behind a trusted proxy the forwarded client is reported", async () => {
    const server = await serve({ TRUSTED_PROXIES: "127.0.0.0/8" });
    const response = await fetch(`${server.url}/v1/public-ip`, {
      headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.77" },
    });
    expect(await response.json()).toEqual({ family: "ipv4", ip: "203.0.113.77" });
    const missing = await fetch(`${server.url}/v1/public-ip`);
    expect(missing.status).toBe(503);
  });

  test("curl host/v1/ip gets the address as text, whatever Accept says", async () => {
    const server = await serve();
    for (const accept of ["*/*", "application/json"]) {
      const response = await fetch(`${server.url}/v1/ip`, { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("127.0.0.1\n");
    }
  });
});

// The machine decides whether IPv6 loopback exists; the assertion is made either way.
const ipv6 = hasIpv6Loopback();

describe("over IPv6 loopback and a dual-stack listener", () => {
  test("::1 is reported as ipv6, and an IPv4 client of a :: listener as ipv4", async () => {
    if (!ipv6) {
      // Without IPv6 the dual-stack case cannot exist; prove the server still starts on 0.0.0.0.
      const server = await serve({ HOST: "0.0.0.0" });
      expect(await (await fetch(`http://127.0.0.1:${server.port}/v1/public-ip`)).json()).toEqual({
        family: "ipv4",
        ip: "127.0.0.1",
      });
      return;
    }
    const server = await serve({ HOST: "::" });
    const v6 = await fetch(`http://[::1]:${server.port}/v1/public-ip`);
    expect(await v6.json()).toEqual({ family: "ipv6", ip: "::1" });
    const v6text = await fetch(`http://[::1]:${server.port}/v1/public-ip`, { headers: { accept: "text/*" } });
    expect(await v6text.text()).toBe("::1\n");
    const v4 = await fetch(`http://127.0.0.1:${server.port}/v1/public-ip`);
    expect(await v4.json()).toEqual({ family: "ipv4", ip: "127.0.0.1" });
  });
});
