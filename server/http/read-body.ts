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
 * Resolves with the whole body once the last chunk arrives. Rejects with `BodyTooLargeError` as soon as
 * the declared Content-Length or the bytes received pass `maxBytes` (later chunks are dropped).
 * Must be called synchronously inside the route handler: uWS drops data that arrives before `onData`.
 * Never settles if the client aborts mid-body; the caller's abort handler covers that case.
 */
export function readBody(res: HttpResponse, declaredLength: string, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    if (declaredLength !== '' && Number(declaredLength) > maxBytes) {
      reject(new BodyTooLargeError(maxBytes));
      // uWS still needs a data handler to consume (and ignore) the bytes already sent.
      res.onData(() => {});
      return;
    }
    const parts: Uint8Array[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        failed = true;
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      // uWS neuters the ArrayBuffer when this callback returns, so keep a copy.
      parts.push(new Uint8Array(chunk.slice(0)));
      if (isLast) resolve(concat(parts, size));
    });
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
