// `leaseLoader`: loads that follow one another share a loader thread, which ends once idle for a moment.

import { DatasetLoader } from './dataset-loader.js';

/**
 * How long a loader thread waits for the next load. Starting one costs the engine's modules and its decode threads
 * (about 0.3 s, seconds on a loaded machine: the start-up loads of many accelerated datasets paid it each), while an
 * idle one keeps its WebAssembly memory, which never shrinks: so it is kept for the loads that come back to back
 * (start-up, a retry, a burst of refreshes) and no longer.
 */
const IDLE_MS = 2000;

let idle: { readonly loader: DatasetLoader; readonly timer: NodeJS.Timeout } | null = null;

/** A loader thread for one load: the idle one if there is one, else a new one. Give it back with `returnLoader`. */
export function leaseLoader(): DatasetLoader {
  if (idle === null) return new DatasetLoader();
  const { loader, timer } = idle;
  clearTimeout(timer);
  idle = null;
  return loader;
}

/**
 * Gives back a loader after a load that ended on its own (an aborted one is closed instead: its thread is cut off
 * mid-work). It waits `IDLE_MS` for the next load, then ends; a second idle loader ends at once.
 */
export function returnLoader(loader: DatasetLoader): void {
  if (idle !== null || loader.exited) {
    void loader.close();
    return;
  }
  const timer = setTimeout(() => void closeIdleLoader(), IDLE_MS);
  // An idle loader never keeps the process alive (its thread is unref'd too).
  timer.unref();
  idle = { loader, timer };
}

/** Ends the idle loader thread now, if any (a runtime that closes; tests that count threads). */
export async function closeIdleLoader(): Promise<void> {
  const current = idle;
  idle = null;
  if (current === null) return;
  clearTimeout(current.timer);
  await current.loader.close();
}
