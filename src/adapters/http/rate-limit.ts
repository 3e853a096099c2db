/**
 * Optional per-client rate limit (CONTRACT §1.5, docs/decisions/0006-rate-limit.md): a token
 * bucket per client key, holding `perMinute` tokens and refilled continuously at `perMinute`
 * tokens per minute; each request takes one. Off unless RATE_LIMIT_PER_MINUTE is set.
 *
 * Memory is bounded: buckets live in a Map kept in least-recently-used order. A bucket idle for a
 * whole minute has refilled completely, which is the same as having no bucket, so it is dropped
 * (oldest first, amortized O(1) per request); and when `maxClients` buckets are live the least
 * recently used one is dropped to make room.
 *
 * Time comes from `now` (milliseconds, monotonic): tests drive it by hand.
 */
import { RedisClient } from "bun";
import type { IpAddr } from "../../domain/ip/addr.ts";
import type { ClientAddressResult } from "../../domain/ports.ts";

export interface RateLimitOptions {
  /** Requests per minute per client; also the burst size. */
  perMinute: number;
  /** Milliseconds on a monotonic clock; defaults to `performance.now`. */
  now?: () => number;
  /** Most client buckets kept at once (default 100000). */
  maxClients?: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

const WINDOW_MS = 60_000;
export const DEFAULT_MAX_CLIENTS = 100_000;

interface Bucket {
  tokens: number;
  /** When `tokens` was last computed. */
  at: number;
}

/** A token bucket per key, with bounded memory. */
export class RateLimiter implements RequestLimiter {
  readonly perMinute: number;
  private readonly now: () => number;
  private readonly maxClients: number;
  private readonly perMs: number;
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    if (!Number.isInteger(options.perMinute) || options.perMinute < 1) {
      throw new RangeError("perMinute must be a whole number of at least 1");
    }
    this.perMinute = options.perMinute;
    this.now = options.now ?? (() => performance.now());
    this.maxClients = Math.max(1, options.maxClients ?? DEFAULT_MAX_CLIENTS);
    this.perMs = options.perMinute / WINDOW_MS;
  }

  /** Live buckets (for tests and the memory bound). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token for `key`, or says how many whole seconds until one is available (at least 1). */
  take(key: string): RateDecision {
    const now = this.now();
    this.dropIdle(now);
    const found = this.buckets.get(key);
    let bucket: Bucket;
    if (found === undefined) {
      if (this.buckets.size >= this.maxClients) {
        const oldest = this.buckets.keys().next();
        if (!oldest.done) this.buckets.delete(oldest.value);
      }
      bucket = { tokens: this.perMinute, at: now };
    } else {
      this.buckets.delete(key); // re-inserted below: the Map stays in least-recently-used order
      bucket = found;
      const elapsed = Math.max(0, now - bucket.at);
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + elapsed * this.perMs);
      bucket.at = now;
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    const waitMs = (1 - bucket.tokens) / this.perMs;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Drops buckets untouched for a whole window (they are full again), oldest first. */
  private dropIdle(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at < WINDOW_MS) return;
      this.buckets.delete(key);
    }
  }
}

/**
 * The bucket key of a client: the IPv4 address, or the /64 of an IPv6 address (one host usually
 * holds a whole /64, so per-address keys would let it take 2^64 buckets). Requests whose address
 * cannot be observed share one bucket.
 */
export function clientKey(observed: ClientAddressResult): string {
  if (!observed.ok) return "unobserved";
  const address: IpAddr = observed.address;
  return address.family === 4 ? `4:${address.w3}` : `6:${address.w0}:${address.w1}`;
}

/**
 * What the edge asks of a rate limit: one token for a client key, at once (the per-process
 * buckets above) or after one round trip to a shared store ({@link RedisRateLimiter}).
 */
export interface RequestLimiter {
  readonly perMinute: number;
  take(key: string): RateDecision | Promise<RateDecision>;
}

/** What the shared store reports as it works (the metrics, when METRICS_PORT is set). */
export interface RateLimitStoreObserver {
  /** One round trip's time, answered or not, in seconds. */
  roundTrip(seconds: number): void;
  /** A round trip that failed or took longer than the timeout: the request was allowed. */
  error(): void;
}

export interface RedisRateLimitOptions {
  /** `redis://[user:pass@]host:port[/db]` or `rediss://…` (RATE_LIMIT_STORE). */
  url: string;
  perMinute: number;
  /** The longest a request waits for the store before it is allowed anyway (default 50 ms). */
  timeoutMs?: number;
  /** Writes one warning line; called at most once per `warnEveryMs` (default one minute). */
  warn: (message: string) => void;
  warnEveryMs?: number;
  observer?: RateLimitStoreObserver;
  /** Milliseconds on a monotonic clock; `performance.now` by default. */
  now?: () => number;
}

/**
 * One fixed window per client key, counted in Redis: the first request of a window sets the key's
 * expiry to a minute, and every request adds one, in one round trip (a Lua script: `INCR`, then
 * `PEXPIRE` when the count is new, and the time left). A request is allowed while the count is at
 * most `perMinute`; otherwise it waits for the window's end (`Retry-After`). Shared by every
 * worker and every replica that names the same store (CONTRACT §11, ADR 6).
 */
const WINDOW_SCRIPT = `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/** The key prefix of the counts in the store. */
export const STORE_KEY_PREFIX = "network-tools:rate:";

/**
 * The rate limit counted in a shared Redis (RATE_LIMIT_STORE), through Bun's own client. Fail-open:
 * a store that errs, is unreachable or answers later than `timeoutMs` allows the request, counts
 * an error and writes at most one warning line per minute; a lost connection is tried again at
 * most once a second, so limiting resumes when the store is back.
 */
export class RedisRateLimiter implements RequestLimiter {
  readonly perMinute: number;
  private readonly client: RedisClient;
  private readonly timeoutMs: number;
  private readonly warnEveryMs: number;
  private readonly now: () => number;
  private lastWarning = Number.NEGATIVE_INFINITY;
  private lastConnect = Number.NEGATIVE_INFINITY;
  private readonly windowMs = String(WINDOW_MS);

  constructor(private readonly options: RedisRateLimitOptions) {
    this.perMinute = options.perMinute;
    this.timeoutMs = options.timeoutMs ?? 50;
    this.warnEveryMs = options.warnEveryMs ?? 60_000;
    this.now = options.now ?? (() => performance.now());
    this.client = new RedisClient(options.url, {
      // Nothing waits for a store that is away: a command then fails at once (fail-open).
      enableOfflineQueue: false,
      autoReconnect: true,
      connectionTimeout: 1_000,
    });
  }

  /** Connects; false (and one warning) when the store cannot be reached within `withinMs`. */
  async connect(withinMs = 2_000): Promise<boolean> {
    this.lastConnect = this.now();
    const connected = await withTimeout(this.client.connect(), withinMs).then(
      () => true,
      () => false,
    );
    if (!connected)
      this.warnOnce("the rate-limit store cannot be reached; requests are allowed until it can");
    return connected;
  }

  /** Closes the connection (at the end of the process). */
  close(): void {
    this.client.close();
  }

  async take(key: string): Promise<RateDecision> {
    const started = this.now();
    if (!this.client.connected && started - this.lastConnect >= 1_000) {
      this.lastConnect = started;
      this.client.connect().catch(() => {});
    }
    try {
      const reply: unknown = await withTimeout(
        this.client.send("EVAL", [WINDOW_SCRIPT, "1", `${STORE_KEY_PREFIX}${key}`, this.windowMs]),
        this.timeoutMs,
      );
      this.options.observer?.roundTrip((this.now() - started) / 1000);
      if (!Array.isArray(reply) || typeof reply[0] !== "number" || typeof reply[1] !== "number")
        throw new Error("the store answered something other than a count and a time left");
      if (reply[0] <= this.perMinute) return ALLOWED;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(reply[1] / 1000)) };
    } catch (error) {
      this.options.observer?.roundTrip((this.now() - started) / 1000);
      this.options.observer?.error();
      this.warnOnce(
        `the rate-limit store failed (${error instanceof TimeoutError ? `no answer within ${this.timeoutMs} ms` : "connection or command error"}); the request was allowed`,
      );
      return ALLOWED;
    }
  }

  private warnOnce(message: string): void {
    const now = this.now();
    if (now - this.lastWarning < this.warnEveryMs) return;
    this.lastWarning = now;
    this.options.warn(message);
  }
}

const ALLOWED: RateDecision = { ok: true };

class TimeoutError extends Error {}

/** `promise`, or a TimeoutError after `ms`, whichever comes first. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Checks a RATE_LIMIT_STORE value: a `redis://` or `rediss://` URL with a host (CONTRACT §11).
 * @returns the message of what is wrong, or null when it can be used.
 */
export function storeUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "it is not a URL";
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    return "its scheme must be redis:// or rediss://";
  if (url.hostname === "") return "it names no host";
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/(0|[1-9][0-9]*)$/.test(url.pathname))
    return "its path must be a database number (/0, /1 …)";
  return null;
}
