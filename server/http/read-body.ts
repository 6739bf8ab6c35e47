// `readBody`: collects a request body from uWS `onData`, enforcing the byte limit.
import type { HttpResponse } from './uws-app.js';

/** 128 MiB: the request body limit of the reference runtime's API routes. */
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;

/** The body exceeded the limit: answered with 413. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
  }
}

/**
 * Calls `onBody` with the whole body once the last chunk arrives, or `onError` with `BodyTooLargeError` as soon
 * as the declared Content-Length or the bytes received pass `maxBytes` (later chunks are dropped). A body that
 * arrives in one chunk (the usual case for a query) is handed over without a copy, synchronously inside uWS's
 * data callback: `onBody` must not keep `bytes` beyond its own return (uWS reuses the memory).
 * Must be called synchronously inside the route handler: uWS drops data that arrives before `onData`.
 * Never calls back if the client aborts mid-body; the caller's abort handler covers that case.
 */
export function readBody(
  res: HttpResponse,
  declaredLength: string,
  maxBytes: number,
  onBody: (bytes: Uint8Array) => void,
  onError: (e: BodyTooLargeError) => void,
): void {
  if (declaredLength !== '' && Number(declaredLength) > maxBytes) {
    // uWS still needs a data handler to consume (and ignore) the bytes already sent; set it before the
    // answer ends the response.
    res.onData(() => {});
    onError(new BodyTooLargeError(maxBytes));
    return;
  }
  let parts: Uint8Array[] | null = null;
  let size = 0;
  let failed = false;
  res.onData((chunk, isLast) => {
    if (failed) return;
    size += chunk.byteLength;
    if (size > maxBytes) {
      failed = true;
      onError(new BodyTooLargeError(maxBytes));
      return;
    }
    if (isLast && parts === null) return onBody(new Uint8Array(chunk));
    // uWS neuters the ArrayBuffer when this callback returns, so keep a copy.
    parts ??= [];
    parts.push(new Uint8Array(chunk.slice(0)));
    if (isLast) onBody(concat(parts, size));
  });
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
