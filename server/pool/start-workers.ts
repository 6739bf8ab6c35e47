// `startWorkers`: the Piscina pool of query workers, sized and configured (heap cap, decode threads per worker).
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { PoolWorkerData } from './worker.js';

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;
const MIB = 1024 * 1024;

/** Decode threads for each of `workers` query workers: the cores shared out, at least one each. */
function decodeThreadsPerWorker(workers: number): string {
  return String(Math.max(1, Math.floor(availableParallelism() / workers)));
}

/**
 * `threads` query workers, all started at once and kept (no idle time-out), each capped at `memoryLimitBytes` of
 * V8 heap (default Node's) and sharing the cores out among their Parquet decode threads.
 */
export function startWorkers(threads: number, workerData: PoolWorkerData, memoryLimitBytes?: number): Piscina {
  const memoryMb = memoryLimitBytes === undefined ? undefined : Math.floor(memoryLimitBytes / MIB);
  return new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Idle workers wait for tasks with Atomics.waitAsync: a new task wakes them without an event-loop message, and
    // their loops keep running, so their ports still receive acks and cancels (Atomics.wait, 'sync', would block them).
    atomics: 'async',
    workerData,
    // Piscina's run/wait-time histograms are not read anywhere; recording them cost every task.
    recordTiming: false,
    // A runaway query exhausts its worker's heap, not the process's (shared tables live outside that heap).
    resourceLimits: memoryMb === undefined ? undefined : { maxOldGenerationSizeMb: memoryMb },
    // Each query worker that scans Parquet starts its own decode threads: share the cores among the workers.
    env: { ...process.env, FLOE_DECODE_THREADS: process.env.FLOE_DECODE_THREADS ?? decodeThreadsPerWorker(threads) },
  });
}
