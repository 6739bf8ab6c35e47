// `toWireError`: turns anything a query threw into plain data for the main thread; logs internal faults.
import { EngineError } from '../../engine/index.js';
import { logInternalError } from './error-ref.js';
import type { WireError } from './messages.js';

const USER_KINDS = new Set(['parse', 'plan', 'exec', 'not_supported', 'forbidden', 'cancelled']);

/**
 * Engine errors the user caused keep their kind and message. Anything else (an `InternalError`, a
 * TypeError from a bug, a worker fault) becomes `{kind: 'internal'}` with a short reference id: the stack
 * goes to stderr under that id and never to the client.
 */
export function toWireError(e: unknown, queryId?: string): WireError {
  if (e instanceof EngineError && USER_KINDS.has(e.kind)) return { kind: e.kind, message: e.message };
  const ref = logInternalError(queryId === undefined ? 'internal error' : `internal error (query ${queryId})`, e);
  return { kind: 'internal', message: 'Internal server error', ref };
}
