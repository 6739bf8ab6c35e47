// `deathError`: the error a query gets when the worker running it died (out of memory, terminated, a crash).
import { logInternalError } from './error-ref.js';
import type { WireError } from './messages.js';

const MIB = 1024 * 1024;

/** The error a query gets when its worker died under it (out of memory: 'memory'; else internal, logged). */
export function deathError(
  e: unknown,
  q: { readonly request: { readonly queryId?: string } },
  memoryLimitBytes: number | undefined,
): WireError {
  if ((e as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    const limit =
      memoryLimitBytes === undefined ? 'the worker heap' : `runtime.query.memory_limit=${formatMiB(memoryLimitBytes)}`;
    return { kind: 'memory', message: `query exceeded the memory limit (${limit})` };
  }
  const id = q.request.queryId === undefined ? '' : ` (query ${q.request.queryId})`;
  const ref = logInternalError(`query worker died${id}`, e);
  return { kind: 'internal', message: 'Internal server error', ref };
}

function formatMiB(bytes: number): string {
  return bytes % (1024 * MIB) === 0 ? `${bytes / (1024 * MIB)}GiB` : `${Math.floor(bytes / MIB)}MiB`;
}
