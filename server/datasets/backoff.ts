// Delays between load attempts: exponential for a dataset with no data, Fibonacci for a failed refresh, with jitter.

/** The unit and the cap of every retry delay (`ServerOptions.datasetRetry` shortens them in tests). */
export interface Backoff {
  /** The first retry's delay before jitter. */
  readonly initialMs: number;
  /** No delay exceeds this. */
  readonly maxMs: number;
}

/** Retries start after about 1 s and never wait more than a minute. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 1000, maxMs: 60_000 };

/** A number in [0, 1), as Math.random (injectable so tests can pin the jitter). */
export type Random = () => number;

/**
 * Delay before retry `attempt` (1, 2, ...) of a load that has no data yet: initialMs * 2^(attempt-1), capped,
 * then scaled by a random factor in [0.5, 1) so datasets that failed together do not retry in lockstep.
 */
export function exponentialDelay(attempt: number, backoff: Backoff, random: Random = Math.random): number {
  const ms = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ms * (0.5 + random() / 2));
}

/**
 * Delay before retry `attempt` (1, 2, ...) of a failed refresh, Spice's Fibonacci backoff: initialMs times
 * 1, 1, 2, 3, 5, 8, ... capped, with the same [0.5, 1) jitter.
 */
export function fibonacciDelay(attempt: number, backoff: Backoff, random: Random = Math.random): number {
  let [a, b] = [1, 1];
  for (let i = 1; i < attempt && a * backoff.initialMs < backoff.maxMs; i++) [a, b] = [b, a + b];
  return Math.round(Math.min(backoff.maxMs, a * backoff.initialMs) * (0.5 + random() / 2));
}

/** `ms` shifted by a random amount in [-jitterMs, +jitterMs], never below 0 (Spice's refresh jitter is ±). */
export function jittered(ms: number, jitterMs: number, random: Random = Math.random): number {
  return Math.max(0, Math.round(ms + (random() * 2 - 1) * jitterMs));
}
