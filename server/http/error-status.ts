// `errorAnswer`: the HTTP status, content type and body for a query error that ended before any output.
import type { WireError } from '../pool/messages.js';
import { TEXT_PLAIN } from './respond.js';

export interface ErrorAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const USER_ERROR_KINDS = new Set(['parse', 'plan', 'exec', 'not_supported', 'cancelled']);

/** Spice's body for a read-only API key's write (JSON, unlike the other SQL errors). */
export const FORBIDDEN_BODY = JSON.stringify({ message: 'API key does not allow write access' });

/**
 * 400 text for errors the user caused; 403 JSON `{"message":"API key does not allow write access"}` for a write
 * by a read-only key (kind `forbidden`: only a read-only principal makes the engine refuse writes); 500
 * `Internal server error (ref …)` otherwise (the reference names the logged stack, never the stack itself).
 */
export function errorAnswer(error: WireError): ErrorAnswer {
  if (error.kind === 'forbidden') return { status: 403, contentType: 'application/json', body: FORBIDDEN_BODY };
  if (USER_ERROR_KINDS.has(error.kind)) return { status: 400, contentType: TEXT_PLAIN, body: error.message };
  return { status: 500, contentType: TEXT_PLAIN, body: `Internal server error (ref ${error.ref ?? 'none'})` };
}
