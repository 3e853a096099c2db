/**
 * Optional rate limiting (CONTRACT §1.5, ADR 0006) through app.handle with a hand-driven clock
 * and a fake client address per request, plus the limiter's own bounds.
 */
import { describe, expect, test } from "bun:test";
import { clientKey, RateLimiter } from "../../src/adapters/http/rate-limit.ts";
import { parseAddr } from "../../src/domain/ip/addr.ts";
import type { ClientAddressSource } from "../../src/domain/ports.ts";
import { startServer } from "../e2e/server.ts";
import { call, errorOf, testApp } from "../http/helpers.ts";
import { envelopeProblems } from "./shapes.ts";

/** The client address is whatever the test puts in `x-test-client` (none: unobservable). */
const headerClient: ClientAddressSource = {
  clientAddress(request) {
    const text = request.headers.get("x-test-client");
    if (text === null) return { ok: false, reason: "no address" };
    const parsed = parseAddr(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ok: true, address: parsed.value };
  },
};

function limitedApp(perMinute: number, maxClients?: number) {
  let now = 1_000_000;
  const limiter = new RateLimiter({ perMinute, now: () => now, ...(maxClients ? { maxClients } : {}) });
  const { app, logger } = testApp({ clientAddress: headerClient, rateLimiter: limiter });
  return {
    app,
    logger,
    limiter,
    advance(ms: number) {
      now += ms;
    },
  };
}

const RANGE = { start: "10.0.0.0", end: "10.0.0.255" };
const rangeFrom = (app: ReturnType<typeof limitedApp>["app"], client: string) =>
  call(app, "POST", "/v1/range-to-cidrs", { json: RANGE, headers: { "x-test-client": client } });

describe("rate limiting through app.handle", () => {
  test("off by default: no limiter, no 429 however many requests", async () => {
    const { app } = testApp({ clientAddress: headerClient });
    for (let i = 0; i < 300; i++) {
      expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    }
  });

  test("over the limit: 429 RATE_LIMITED with the envelope and an integer Retry-After", async () => {
    const { app } = limitedApp(3);
    for (let i = 0; i < 3; i++) expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    const limited = await rangeFrom(app, "198.51.100.1");
    expect(limited.status).toBe(429);
    const text = await limited.clone().text();
    expect(envelopeProblems("429", limited, text)).toEqual([]);
    expect((await errorOf(limited)).code).toBe("RATE_LIMITED");
    const retryAfter = limited.headers.get("retry-after") ?? "";
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    // 3 per minute: one token every 20 s
    expect(Number(retryAfter)).toBe(20);
    expect(limited.headers.get("x-request-id")).toBeTruthy();
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("tokens come back with time: Retry-After is honest", async () => {
    const { app, advance } = limitedApp(3);
    for (let i = 0; i < 3; i++) await rangeFrom(app, "198.51.100.1");
    const limited = await rangeFrom(app, "198.51.100.1");
    const wait = Number(limited.headers.get("retry-after"));
    advance(wait * 1000 - 1);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
    advance(1);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
    advance(60_000);
    for (let i = 0; i < 3; i++) expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
  });

  test("Retry-After is whole seconds, at least 1 even when the next token is moments away", () => {
    const limiter = new RateLimiter({ perMinute: 1, now: () => 0 });
    expect(limiter.take("k")).toEqual({ ok: true });
    expect(limiter.take("k")).toEqual({ ok: false, retryAfterSeconds: 60 });
    const fast = new RateLimiter({ perMinute: 600_000, now: () => 0 });
    for (let i = 0; i < 600_000; i++) fast.take("k");
    expect(fast.take("k")).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  test("each client has its own bucket; an IPv6 /64 is one client", async () => {
    const { app } = limitedApp(2);
    for (let i = 0; i < 2; i++) expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
    expect((await rangeFrom(app, "198.51.100.2")).status).toBe(200);
    expect((await rangeFrom(app, "2001:db8:1:2::1")).status).toBe(200);
    expect((await rangeFrom(app, "2001:db8:1:2:ffff::9")).status).toBe(200);
    expect((await rangeFrom(app, "2001:db8:1:2::abcd")).status).toBe(429);
    expect((await rangeFrom(app, "2001:db8:1:3::1")).status).toBe(200);
  });

  test("health is exempt, so probes are never refused", async () => {
    const { app } = limitedApp(1);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
    for (let i = 0; i < 50; i++) {
      const health = await call(app, "GET", "/v1/health", { headers: { "x-test-client": "198.51.100.1" } });
      expect(health.status).toBe(200);
    }
  });

  test("CORS preflights never spend or need a token, even with the limit at 1 per minute", async () => {
    const { app } = limitedApp(1);
    const preflight = {
      "x-test-client": "198.51.100.1",
      origin: "https://page.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    };
    for (let i = 0; i < 20; i++) {
      const answer = await call(app, "OPTIONS", "/v1/range-to-cidrs", { headers: preflight });
      expect(answer.status).toBe(204);
    }
    // The one token is still there for the real request, and preflights still pass once it is spent.
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(429);
    expect((await call(app, "OPTIONS", "/v1/range-to-cidrs", { headers: preflight })).status).toBe(204);
    expect((await call(app, "OPTIONS", "/v1/certificate-bundle", { headers: preflight })).status).toBe(204);
  });

  test("every other path counts, unknown ones and errors included", async () => {
    const { app } = limitedApp(3);
    const headers = { "x-test-client": "198.51.100.1" };
    expect((await call(app, "GET", "/v1/public-ip", { headers })).status).toBe(200);
    expect((await call(app, "GET", "/nowhere", { headers })).status).toBe(404);
    expect((await call(app, "POST", "/v1/cidr-cover", { json: { inputs: [] }, headers })).status).toBe(400);
    const limited = await call(app, "GET", "/nowhere", { headers });
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).code).toBe("RATE_LIMITED");
  });

  test("requests whose address cannot be observed share one bucket", async () => {
    const { app } = limitedApp(2);
    for (let i = 0; i < 2; i++)
      expect((await call(app, "POST", "/v1/range-to-cidrs", { json: RANGE })).status).toBe(200);
    expect((await call(app, "POST", "/v1/range-to-cidrs", { json: RANGE })).status).toBe(429);
    expect((await rangeFrom(app, "198.51.100.1")).status).toBe(200);
  });

  test("a 429 is logged like any answer, without the client's address", async () => {
    const { app, logger } = limitedApp(1);
    await rangeFrom(app, "198.51.100.77");
    await rangeFrom(app, "198.51.100.77");
    await Bun.sleep(20); // the access line is written after the response
    const statuses = logger.records.filter((r) => r.msg === "request").map((r) => r.status);
    expect(statuses).toEqual([200, 429]);
    expect(JSON.stringify(logger.records)).not.toContain("198.51.100.77");
    expect(logger.records.filter((r) => r.level === "error")).toEqual([]);
  });
});

describe("the limiter's memory stays bounded", () => {
  test("buckets idle for a minute are dropped", () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 10, now: () => now });
    for (let i = 0; i < 1_000; i++) limiter.take(`client-${i}`);
    expect(limiter.size).toBe(1_000);
    now += 30_000;
    limiter.take("late");
    expect(limiter.size).toBe(1_001);
    now += 30_000;
    limiter.take("later");
    expect(limiter.size).toBe(2); // the first 1000 are full again, so forgotten
  });

  test("never more than maxClients buckets; the least recently used goes first", () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 2, now: () => now, maxClients: 100 });
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`client-${i}`);
      now += 1;
    }
    expect(limiter.size).toBe(100);
    // client-9999 is recent: still limited after two more requests
    expect(limiter.take("client-9999").ok).toBe(true);
    expect(limiter.take("client-9999").ok).toBe(false);
  });

  test("a client's bucket keeps its state while it stays busy", () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, now: () => now });
    for (let i = 0; i < 60; i++) expect(limiter.take("busy").ok).toBe(true);
    expect(limiter.take("busy").ok).toBe(false);
    now += 59_999;
    expect(limiter.size).toBe(1);
    expect(limiter.take("busy").ok).toBe(true);
  });

  test("bucket keys: IPv4 address, IPv6 /64, one key for unobservable clients", () => {
    const key = (text: string) => {
      const parsed = parseAddr(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return clientKey({ ok: true, address: parsed.value });
    };
    expect(key("192.0.2.1")).not.toBe(key("192.0.2.2"));
    expect(key("2001:db8::1")).toBe(key("2001:db8::ffff:1"));
    expect(key("2001:db8::1")).not.toBe(key("2001:db8:0:1::1"));
    expect(clientKey({ ok: false, reason: "none" })).toBe("unobserved");
  });

  test("perMinute must be a whole number of at least 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new RateLimiter({ perMinute: bad })).toThrow(RangeError);
  });
});

describe("RATE_LIMIT_PER_MINUTE in the real process", () => {
  test("wired from the environment: 429 with Retry-After past the limit, health exempt", async () => {
    const server = await startServer({ RATE_LIMIT_PER_MINUTE: "2" });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 3; i++) {
        last = await fetch(`${server.url}/v1/public-ip`);
        statuses.push(last.status);
        await last.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(last!.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("a browser's preflights at 1 per minute are never refused; the real request gets the one token", async () => {
    const server = await startServer({ RATE_LIMIT_PER_MINUTE: "1" });
    try {
      const preflight = {
        method: "OPTIONS",
        headers: {
          origin: "https://page.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-request-id",
        },
      };
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const answer = await fetch(`${server.url}/v1/cidr-cover`, preflight);
        statuses.push(answer.status);
        await answer.arrayBuffer();
      }
      expect(statuses).toEqual(Array(10).fill(204));
      const real = await fetch(`${server.url}/v1/cidr-cover`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://page.example" },
        body: JSON.stringify({ inputs: ["10.0.0.0/24"] }),
      });
      expect(real.status).toBe(200);
      await real.arrayBuffer();
      const after = await fetch(`${server.url}/v1/cidr-cover`, preflight);
      expect(after.status).toBe(204);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("a bad value stops the process with exit code 2", async () => {
    await expect(startServer({ RATE_LIMIT_PER_MINUTE: "0" })).rejects.toThrow(/exited early with code 2/);
  });
});
