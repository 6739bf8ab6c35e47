// `Reply`: one HTTP response over uWS, safe after the client has gone (every write checks `aborted`).
import { takeObserver } from './observe-routes.js';
import type { HttpResponse } from './uws-app.js';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK',
  202: '202 Accepted',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  406: '406 Not Acceptable',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
};

export const TEXT_PLAIN = 'text/plain; charset=utf-8';

/**
 * The UTF-8 bytes of a status line, header name or value, made once per distinct string: uWS encodes a string
 * argument on every call (the header names, values and content types a reply writes are a few constants).
 */
export function utf8Constant(text: string): Uint8Array {
  let bytes = ENCODED.get(text);
  if (bytes === undefined) {
    if (ENCODED.size >= MAX_ENCODED) ENCODED.clear();
    bytes = ENCODER.encode(text);
    ENCODED.set(text, bytes);
  }
  return bytes;
}
const ENCODER = new TextEncoder();
const ENCODED = new Map<string, Uint8Array>();
const MAX_ENCODED = 1024;
const CONTENT_TYPE = utf8Constant('Content-Type');

/**
 * Headers for every reply to one request, whoever writes it (CORS's `Access-Control-Allow-Origin`, set by the
 * request gate before the route runs). Weak: an entry goes with its uWS response object.
 */
const EXTRA_HEADERS = new WeakMap<HttpResponse, Readonly<Record<string, string>>>();

/** Adds `headers` to whatever reply `res` gets (values should be few distinct strings: see `utf8Constant`). */
export function addReplyHeaders(res: HttpResponse, headers: Readonly<Record<string, string>>): void {
  EXTRA_HEADERS.set(res, headers);
}

/** Shared empty handler list (never pushed to). */
const NO_HANDLERS: readonly (() => void)[] = [];

function append(list: (() => void)[] | null, handler: () => void): (() => void)[] {
  if (list === null) return [handler];
  list.push(handler);
  return list;
}

/**
 * Wraps a uWS response. The constructor registers `onAborted` (uWS requires it before any asynchronous
 * step); after an abort every method is a no-op. Writes happen under `res.cork` so status, headers and
 * body leave in one syscall. A response is either sent whole (`send`) or streamed (`head`, `write`*, `end`).
 */
export class Reply {
  readonly #res: HttpResponse;
  #aborted = false;
  #started = false;
  #done = false;
  // Made on first use: most responses are sent whole and never need the abort or drain lists.
  #abortHandlers: (() => void)[] | null = null;
  #drainHandlers: (() => void)[] | null = null;
  #doneHandlers: (() => void)[] | null = null;
  /** True while a uWS callback for this response runs: uWS has corked the socket itself. */
  #corked = false;
  /** The status sent (0 before); told to the metrics observer (`observeRoutes`) when the response ends. */
  #status = 0;
  readonly #observer: ((status: number) => void) | undefined;
  /** A header every answer of this response carries, whatever its status (e.g. `runtime-query-id`). */
  #standingName: string | null = null;
  #standingValue = '';

  constructor(res: HttpResponse) {
    this.#res = res;
    this.#observer = takeObserver(res);
    res.onAborted(() => {
      this.#aborted = true;
      this.#finish();
      for (const h of this.#abortHandlers ?? NO_HANDLERS) h();
    });
  }

  /** True once the client has gone (or the connection was closed on purpose). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** True once a status line has been written: from then on errors can only cut the connection. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Runs `fn` as part of a uWS callback for this response (its route handler or `onData`): uWS corks the socket
   * around its callbacks, so a reply sent from `fn` writes straight away instead of corking again (a results-cache
   * hit is answered inside `onData`: one closure and one call into uWS fewer).
   */
  inCallback(fn: () => void): void {
    this.#corked = true;
    try {
      fn();
    } finally {
      this.#corked = false;
    }
  }

  /** Runs `write` corked: directly inside a uWS callback, else under `res.cork`. */
  #cork(write: () => void): void {
    if (this.#corked) write();
    else this.#res.cork(write);
  }

  /** Adds `name: value` to whatever this response ends up sending (one such header). */
  setStandingHeader(name: string, value: string): void {
    this.#standingName = name;
    this.#standingValue = value;
  }

  /** Runs `handler` if the client disconnects before the response ends (at once if it already has). */
  onAbort(handler: () => void): void {
    if (this.#aborted) handler();
    else this.#abortHandlers = append(this.#abortHandlers, handler);
  }

  /** Runs `handler` once the response has ended, was aborted or cut. */
  onDone(handler: () => void): void {
    if (this.#done) handler();
    else this.#doneHandlers = append(this.#doneHandlers, handler);
  }

  /** Sends a complete response with a Content-Length; `close` ends the connection after it (e.g. on 413). */
  send(
    status: number,
    contentType: string,
    body: string | Uint8Array,
    headers: Readonly<Record<string, string>> = {},
    close = false,
  ): void {
    if (this.#aborted || this.#started) return;
    this.#started = true;
    this.#status = status;
    this.#cork(() => {
      this.#head(status, contentType, headers);
      this.#res.end(body, close);
    });
    this.#finish();
  }

  /** Starts a chunked response; `write` the body, then `end`. */
  head(status: number, contentType: string, headers: Readonly<Record<string, string>> = {}): void {
    if (this.#aborted || this.#started) return;
    this.#started = true;
    this.#status = status;
    this.#cork(() => this.#head(status, contentType, headers));
    this.#res.onWritable(() => {
      const handlers = this.#drainHandlers ?? NO_HANDLERS;
      this.#drainHandlers = null;
      for (const h of handlers) h();
      return true;
    });
  }

  /**
   * Writes one body chunk. uWS keeps whatever the socket did not take; `onDrained` runs once that backlog
   * has been flushed (at once when there was none), which is when the producer may send more.
   */
  write(chunk: Uint8Array, onDrained: () => void): void {
    if (this.#aborted || this.#done) return;
    let ok = false;
    this.#cork(() => {
      ok = this.#res.write(chunk);
    });
    if (ok && this.#drainHandlers === null) onDrained();
    else this.#drainHandlers = append(this.#drainHandlers, onDrained);
  }

  /** Ends a streamed response. */
  end(): void {
    if (this.#aborted || this.#done) return;
    this.#cork(() => this.#res.end());
    this.#finish();
  }

  /** Closes the connection mid-body so the client sees a truncated response, not a clean end. */
  cut(): void {
    if (this.#aborted || this.#done) return;
    this.#aborted = true;
    this.#res.close();
    this.#finish();
  }

  /** Writes the status line (uWS writes `200 OK` itself when none was) and the headers. */
  #head(status: number, contentType: string, headers: Readonly<Record<string, string>>): void {
    const res = this.#res;
    if (status !== 200) res.writeStatus(utf8Constant(STATUS_TEXT[status] ?? String(status)));
    res.writeHeader(CONTENT_TYPE, utf8Constant(contentType));
    for (const k in headers) res.writeHeader(utf8Constant(k), utf8Constant(headers[k] as string));
    const extra = EXTRA_HEADERS.get(res);
    if (extra !== undefined) for (const k in extra) res.writeHeader(utf8Constant(k), utf8Constant(extra[k] as string));
    // A per-request value: not worth a cached encoding.
    if (this.#standingName !== null) res.writeHeader(utf8Constant(this.#standingName), this.#standingValue);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#observer?.(this.#status);
    const handlers = this.#doneHandlers;
    this.#doneHandlers = null;
    for (const h of handlers ?? NO_HANDLERS) h();
  }
}
