// `errorAnswer`: the HTTP status, content type, body and headers for a query error that ended before any output.
import type { WireError } from '../pool/messages.js';
import { TEXT_PLAIN } from './respond.js';

export interface ErrorAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** HTTP status of each error kind (the pool and the query service carry kinds, never statuses). */
const STATUS: Readonly<Record<string, number>> = {
  parse: 400,
  plan: 400,
  exec: 400,
  not_supported: 400,
  cancelled: 400,
  bad_request: 400,
  // A query that outgrew its worker's heap: the same query fails the same way; not the server's fault.
  memory: 400,
  forbidden: 403,
  rate_limited: 429,
  overloaded: 503,
  unavailable: 503,
  // The server's own limit (runtime.query.timeout), not the client's slowness (408): like a gateway's 504.
  timeout: 504,
};

/** Spice's body for a read-only API key's write (JSON, unlike the other SQL errors). */
export const FORBIDDEN_BODY = JSON.stringify({ message: 'API key does not allow write access' });

/** The engine's and the pool's refusals of a write by a read-only principal (`allowWrites: false`). */
const KEY_REFUSAL = /read-only SQL context$|^API key does not allow write access$/;

const NO_HEADERS: Readonly<Record<string, string>> = {};

/**
 * The status of `STATUS`, with the error's message as text; `Retry-After` when the error says when to come back;
 * 403 JSON `{"message":"API key does not allow write access"}` for a read-only principal's write (other refusals,
 * such as a read-only catalog's, as `{"message": <why>}`); 500
 * `Internal server error (ref …)` for any other kind (the reference names the logged stack, never the stack).
 */
export function errorAnswer(error: WireError): ErrorAnswer {
  const status = STATUS[error.kind];
  if (status === undefined) {
    const body = `Internal server error (ref ${error.ref ?? 'none'})`;
    return { status: 500, contentType: TEXT_PLAIN, body, headers: NO_HEADERS };
  }
  if (error.kind === 'forbidden') {
    // A read-only key's write gets Spice's body; other refusals (a read-only Iceberg catalog) say what refused.
    const body = KEY_REFUSAL.test(error.message) ? FORBIDDEN_BODY : JSON.stringify({ message: error.message });
    return { status, contentType: 'application/json', body, headers: NO_HEADERS };
  }
  const headers = error.retryAfterS === undefined ? NO_HEADERS : { 'Retry-After': String(error.retryAfterS) };
  return { status, contentType: TEXT_PLAIN, body: error.message, headers };
}
