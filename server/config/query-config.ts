// `queryConfig`: `runtime.query.{timeout, memory_limit, max_concurrent, max_queued}` as a zod schema and settings.
import { availableParallelism, totalmem } from 'node:os';
import { z } from 'zod';
import { parseByteSize, parseDuration } from './results-cache-config.js';

/** The query limits as the runtime uses them. */
export interface QueryConfig {
  /** A query running (or waiting) longer than this is cancelled and answered with a time-out error. */
  readonly timeoutMs: number;
  /** The V8 heap of each query worker (bytes), so a runaway query kills its worker only; null: the default share. */
  readonly memoryLimitBytes: number | null;
  /** Queries admitted to the pool at once (queued there or running). */
  readonly maxConcurrent: number;
  /** Queries waiting for admission beyond `maxConcurrent`; past this the answer is 503 with Retry-After. */
  readonly maxQueued: number;
  /** After a cancel or time-out, how long a query may keep its worker before the worker is terminated (ms). */
  readonly killGraceMs: number;
}

/** Defaults: Spice's 5 minute time-out; room for a few hundred clients; 1.5 s grace before a worker is ended. */
export const DEFAULT_QUERY_CONFIG: QueryConfig = {
  timeoutMs: 5 * 60_000,
  memoryLimitBytes: null,
  maxConcurrent: 256,
  maxQueued: 1024,
  killGraceMs: 1500,
};

/** Smallest accepted worker heap: below this a worker cannot even build its engine. */
const MIN_MEMORY_BYTES = 64 * 1024 * 1024;

const positiveDuration = z.union([z.string(), z.number()]).check((ctx) => {
  const ms = parseDuration(ctx.value);
  if (ms === null || ms <= 0) {
    ctx.issues.push({ code: 'custom', message: `invalid duration '${ctx.value}' (e.g. 30s, 5m)`, input: ctx.value });
  }
});
const memory = z.union([z.string(), z.number()]).check((ctx) => {
  const bytes = parseByteSize(ctx.value);
  if (bytes === null || bytes < MIN_MEMORY_BYTES) {
    const message = `invalid memory limit '${ctx.value}' (e.g. 2GiB; at least 64MiB)`;
    ctx.issues.push({ code: 'custom', message, input: ctx.value });
  }
});

/** `runtime.shutdown_timeout` (Spice's key): a positive duration. */
export const shutdownTimeoutSchema = positiveDuration;

/** `runtime.query`: Spice's section name; `timeout` and `memory_limit` are its keys, the rest floe's. */
export const querySchema = z.strictObject({
  timeout: positiveDuration.optional(),
  memory_limit: memory.optional(),
  max_concurrent: z.number().int().positive().optional(),
  max_queued: z.number().int().nonnegative().optional(),
  /** floe: grace after a cancel or time-out before the worker is terminated (default 1.5s). */
  kill_grace: positiveDuration.optional(),
});

/** The effective settings (values were validated by `querySchema`). */
export function queryConfig(query: z.infer<typeof querySchema> | undefined): QueryConfig {
  const d = DEFAULT_QUERY_CONFIG;
  if (query === undefined) return d;
  const duration = (v: string | number | undefined, def: number) => (v === undefined ? def : parseDuration(v)!);
  return {
    timeoutMs: duration(query.timeout, d.timeoutMs),
    memoryLimitBytes: query.memory_limit === undefined ? null : parseByteSize(query.memory_limit),
    maxConcurrent: query.max_concurrent ?? d.maxConcurrent,
    maxQueued: query.max_queued ?? d.maxQueued,
    killGraceMs: duration(query.kill_grace, d.killGraceMs),
  };
}

/**
 * Heap bytes per query worker when `memory_limit` is not set: half the machine's memory shared among the
 * workers (the other half is for the shared tables, which live outside the workers' heaps, and the main thread).
 */
export function defaultWorkerMemoryBytes(workers: number = availableParallelism()): number {
  return Math.max(MIN_MEMORY_BYTES, Math.floor(totalmem() / 2 / Math.max(1, workers)));
}

/** `30000` ms -> `30s`, `300000` -> `5m`: the limit as the error message names it. */
export function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
