// Sends raw request bytes over a fresh TCP connection and reads the answers, within a deadline.
import { connect } from 'node:net';
import type { RawRequest } from './http-cases.js';

export interface ParsedResponse {
  readonly status: number;
  readonly body: string;
}

export interface RawOutcome {
  /** Complete responses, in order. */
  readonly responses: readonly ParsedResponse[];
  /** The server closed the connection (after answering or not). */
  readonly closed: boolean;
  /** Neither a complete answer nor a close before the deadline. */
  readonly timedOut: boolean;
  readonly error: string | null;
}

/**
 * Parses as many complete HTTP/1.1 responses as `buf` holds (Content-Length or chunked bodies; a response with
 * neither ends at the close; none after a HEAD request). Returns them and whether the bytes after them are an
 * incomplete response.
 */
export function parseResponses(
  buf: Buffer,
  closed: boolean,
  isHead = false,
): { responses: ParsedResponse[]; partial: boolean } {
  const responses: ParsedResponse[] = [];
  let at = 0;
  while (at < buf.length) {
    const headEnd = buf.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return { responses, partial: true };
    const head = buf.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
    const header = (name: string) =>
      head
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    let pos = headEnd + 4;
    const length = header('content-length');
    if (isHead) {
      responses.push({ status, body: '' });
    } else if (header('transfer-encoding')?.toLowerCase().includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', pos);
        if (lineEnd < 0) return { responses, partial: true };
        const size = Number.parseInt(buf.subarray(pos, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size) || lineEnd + 2 + size + 2 > buf.length) return { responses, partial: true };
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        pos = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      responses.push({ status, body: Buffer.concat(parts).toString('utf8') });
    } else if (length !== undefined) {
      const end = pos + Number(length);
      if (end > buf.length) return { responses, partial: true };
      responses.push({ status, body: buf.subarray(pos, end).toString('utf8') });
      pos = end;
    } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      responses.push({ status, body: '' });
    } else {
      if (!closed) return { responses, partial: true };
      responses.push({ status, body: buf.subarray(pos).toString('utf8') });
      pos = buf.length;
    }
    at = pos;
  }
  return { responses, partial: false };
}

/** After a complete answer, how long to wait for more (a pipelined request's answer) before hanging up. */
const MORE_ANSWERS_MS = 30;
/** How long an incomplete request (the server rightly waits for the rest) is given before the client leaves. */
const INCOMPLETE_WAIT_MS = 100;

/**
 * Writes `req` to 127.0.0.1:`port` and reads answers until the server closes, or a little after the last
 * complete answer. No answer and no close within `deadlineMs` is a hang, except for an incomplete request:
 * that one the client leaves after a short wait (the disconnect mid-request is part of the test).
 */
export function sendRaw(port: number, req: RawRequest, deadlineMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    let done = false;
    let more: NodeJS.Timeout | undefined;
    const head = /^HEAD /i.test(req.bytes.subarray(0, 5).toString('latin1'));
    const finish = (closed: boolean, error: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(more);
      socket.destroy();
      const { responses } = parseResponses(Buffer.concat(chunks), closed, head);
      resolve({ responses, closed, timedOut: !closed && responses.length === 0 && !req.incomplete, error });
    };
    const timer = setTimeout(() => finish(false, null), req.incomplete ? INCOMPLETE_WAIT_MS : deadlineMs);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      const { responses, partial } = parseResponses(Buffer.concat(chunks), false, head);
      clearTimeout(more);
      if (responses.length > 0 && !partial) more = setTimeout(() => finish(false, null), MORE_ANSWERS_MS);
    });
    socket.on('close', () => finish(true, null));
    socket.on('error', (e) => finish(true, e.message));
    socket.write(req.bytes);
  });
}
