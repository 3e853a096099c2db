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
export class RateLimiter {
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
