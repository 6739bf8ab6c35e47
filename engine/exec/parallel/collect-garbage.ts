// `collectGarbage`: a full GC of this thread's heap, so the SharedArrayBuffers of a released table are freed now.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

/**
 * Runs a full garbage collection on the calling thread. A shared buffer's memory is returned only once every
 * thread that held it has collected its handle, and an idle thread may not collect for a long time (nothing
 * allocates): the threads that drop a table call this once. Uses `global.gc` under `--expose-gc`, else
 * exposes it through V8's flag (the way test runners measure leaks).
 */
export function collectGarbage(): void {
  gc ??= (globalThis as { gc?: () => void }).gc ?? exposeGc();
  gc();
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
