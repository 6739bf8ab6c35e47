// `RateLimiter`: a token bucket per principal id (requests per second with a burst), in bounded memory.
import type { RateLimitConfig } from '../config/rate-limit-config.js';

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms (`now()`'s clock). */
  at: number;
}

/** Buckets kept before idle ones are dropped; a bucket is ~100 bytes with its key. */
export const MAX_BUCKETS = 65_536;

/**
 * Each id starts with `burst` tokens; a request takes one; tokens come back at `requestsPerSecond` up to `burst`.
 * Memory is bounded: when `maxBuckets` ids are held, a new id first drops every bucket that has refilled (a full
 * bucket is what a new one would be, so nothing is lost), and if none has, the oldest tenth.
 */
export class RateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxBuckets: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(config: RateLimitConfig, options: { maxBuckets?: number; now?: () => number } = {}) {
    this.#rate = config.requestsPerSecond / 1000;
    this.#burst = config.burst;
    this.#maxBuckets = options.maxBuckets ?? MAX_BUCKETS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Buckets held (for tests). */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes a token for `id`: 0 when the request may run, else the whole seconds (at least 1) until it may. */
  take(id: string): number {
    const now = this.#now();
    let bucket = this.#buckets.get(id);
    if (bucket === undefined) {
      if (this.#buckets.size >= this.#maxBuckets) this.#evict(now);
      bucket = { tokens: this.#burst, at: now };
      this.#buckets.set(id, bucket);
    } else {
      bucket.tokens = this.#refilled(bucket, now);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate / 1000));
  }

  #refilled(bucket: Bucket, now: number): number {
    return Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#rate);
  }

  #evict(now: number): void {
    for (const [id, bucket] of this.#buckets) if (this.#refilled(bucket, now) >= this.#burst) this.#buckets.delete(id);
    let excess = this.#buckets.size - Math.floor(this.#maxBuckets * 0.9);
    // Map order is insertion order: the first ids are the longest held.
    for (const id of this.#buckets.keys()) {
      if (excess-- <= 0) break;
      this.#buckets.delete(id);
    }
  }
}
