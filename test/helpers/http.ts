// Small HTTP client helpers for the server tests (fetch for whole answers, node:http for raw control).
import { request } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly headers: Headers;
  readonly text: string;
}

/** POSTs `body` to `url` and reads the whole answer. */
export async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', body, headers });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    headers: res.headers,
    text: await res.text(),
  };
}

/** GETs `url` and reads the whole answer. */
export async function get(url: string, method = 'GET'): Promise<Answer> {
  const res = await fetch(url, { method });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    headers: res.headers,
    text: await res.text(),
  };
}

/** Outcome of a raw request: status, headers, bytes received, and whether the body ended cleanly. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly complete: boolean;
}

/**
 * POSTs with node:http and reports a cut-off body as `complete: false` instead of throwing. `onHead` may
 * return 'destroy' to disconnect as soon as the status line arrives (the client-disconnect case).
 */
export function rawPost(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  onHead?: () => 'destroy' | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        const finish = (complete: boolean) =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), complete });
        if (onHead?.() === 'destroy') {
          res.destroy();
          finish(false);
          return;
        }
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => finish(res.complete));
        res.on('error', () => finish(false));
        res.on('aborted', () => finish(false));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** POSTs `chunks` with chunked transfer encoding (no Content-Length), as a streaming client would. */
export function postChunked(url: string, chunks: readonly string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}
