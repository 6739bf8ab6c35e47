// `statusOf`: a query's `WireError` as a gRPC status, with the message HTTP sends in its body.
import { Metadata, status } from '@grpc/grpc-js';
import type { WireError } from '../pool/messages.js';

/** What grpc-js sends for an error emitted on a call or passed to a callback. */
export interface FlightError {
  readonly code: status;
  readonly details: string;
  readonly metadata?: Metadata;
}

/** gRPC code of each kind (HTTP: `http/error-status.ts`); an unknown table is a planning error: INVALID_ARGUMENT. */
const CODE: Readonly<Record<string, status>> = {
  parse: status.INVALID_ARGUMENT,
  plan: status.INVALID_ARGUMENT,
  exec: status.INVALID_ARGUMENT,
  not_supported: status.INVALID_ARGUMENT,
  bad_request: status.INVALID_ARGUMENT,
  memory: status.RESOURCE_EXHAUSTED,
  cancelled: status.CANCELLED,
  forbidden: status.PERMISSION_DENIED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  overloaded: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  timeout: status.DEADLINE_EXCEEDED,
};

/** The engine's and the pool's refusals of a write by a read-only key (as in `http/error-status.ts`). */
const KEY_REFUSAL = /read-only SQL context$|^API key does not allow write access$/;

/**
 * The status of `error`: its kind's code and its message; a read-only key's write says what HTTP's 403 body says;
 * `internal` (and any unknown kind) is INTERNAL `Internal server error (ref …)`, never a stack. A `retry-after`
 * trailer carries `retryAfterS` where the error has one.
 */
export function statusOf(error: WireError): FlightError {
  const code = CODE[error.kind];
  if (code === undefined) {
    return { code: status.INTERNAL, details: `Internal server error (ref ${error.ref ?? 'none'})` };
  }
  const details =
    error.kind === 'forbidden' && KEY_REFUSAL.test(error.message)
      ? 'API key does not allow write access'
      : error.message;
  if (error.retryAfterS === undefined) return { code, details };
  const metadata = new Metadata();
  metadata.set('retry-after', String(error.retryAfterS));
  return { code, details, metadata };
}

/** A status made here (bad requests, unknown commands), not by a query. */
export function flightError(code: status, details: string): FlightError {
  return { code, details };
}

/** What a handler threw, as a status: FlightErrors pass, anything else is INTERNAL (logged by the caller). */
export function isFlightError(e: unknown): e is FlightError {
  return typeof e === 'object' && e !== null && typeof (e as FlightError).code === 'number' && 'details' in e;
}
