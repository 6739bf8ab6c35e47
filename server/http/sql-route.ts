// `handleSql`: POST /v1/sql: read the body, parse it, run the query on the pool, stream the answer back.

import type { Principal } from '../auth/principal.js';
import type { ResultsCache } from '../cache/results-cache.js';
import { logInternalError } from '../pool/error-ref.js';
import type { Head, WireError } from '../pool/messages.js';
import type { QueryPool, QuerySink } from '../pool/pool.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { type CacheRequestHeaders, lookUpCache } from './cache-lookup.js';
import { errorAnswer } from './error-status.js';
import { negotiateFormat } from './negotiate-format.js';
import { BadRequestError, parseSqlRequest, type SqlRequest } from './parse-sql-request.js';
import { readBody } from './read-body.js';
import { Reply, TEXT_PLAIN, utf8Constant } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** What the handler needs from the running server. */
export interface SqlRouteContext {
  /** The pool once datasets are loaded; null while loading (503) or shutting down. */
  pool(): QueryPool | null;
  /** Text of the 503 answer while `pool()` is null. */
  unavailableText(): string;
  readonly maxBodyBytes: number;
  /** The results cache; null when `runtime.caching.sql_results.enabled` is false. */
  readonly resultsCache: ResultsCache | null;
  /** Registers a response so shutdown can wait for it. */
  track(reply: Reply): void;
}

/** The request headers the handler reads, copied before the handler returns (uWS reuses the request). */
interface RequestHeaders extends CacheRequestHeaders {
  readonly contentType: string;
  readonly format: ResultFormat;
  /** Not a header: the principal's `canWrite`, carried with the request to the engine. */
  readonly allowWrites: boolean;
}

// Header names as bytes: uWS would encode a string name on every call.
const CONTENT_TYPE = utf8Constant('content-type');
const ACCEPT = utf8Constant('accept');
const CACHE_CONTROL = utf8Constant('cache-control');
const SPICE_CACHE_KEY = utf8Constant('spice-cache-key');
const CONTENT_LENGTH = utf8Constant('content-length');

/**
 * 200 with the negotiated format; 400 text for a malformed body or an engine error the user caused; 403 JSON
 * for a write by a principal that may only read (see `errorAnswer`);
 * 413 over the body limit; 500 `Internal server error (ref …)` otherwise; 503 before the datasets are
 * loaded. An error after the 200 head cuts the connection. A client disconnect cancels the query.
 * With the results cache on, a hit is answered here on the main thread; a miss runs on the pool and a
 * successful body that fits the per-entry cap is stored (see `lookUpCache` for keys and headers).
 */
export function handleSql(res: HttpResponse, req: HttpRequest, ctx: SqlRouteContext, principal: Principal): void {
  const reply = new Reply(res);
  ctx.track(reply);
  const headers: RequestHeaders = {
    contentType: req.getHeader(CONTENT_TYPE),
    format: negotiateFormat(req.getHeader(ACCEPT)),
    cacheControl: ctx.resultsCache === null ? '' : req.getHeader(CACHE_CONTROL),
    cacheKey: ctx.resultsCache === null ? '' : req.getHeader(SPICE_CACHE_KEY),
    allowWrites: principal.canWrite,
  };
  readBody(
    res,
    req.getHeader(CONTENT_LENGTH),
    ctx.maxBodyBytes,
    (bytes) =>
      reply.inCallback(() => {
        try {
          runSql(reply, bytes, headers, ctx);
        } catch (e) {
          const ref = logInternalError('/v1/sql failed', e);
          reply.send(500, TEXT_PLAIN, `Internal server error (ref ${ref})`);
        }
      }),
    (e) => reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true),
  );
}

function runSql(reply: Reply, bytes: Uint8Array, headers: RequestHeaders, ctx: SqlRouteContext): void {
  if (reply.aborted) return;
  const pool = ctx.pool();
  if (pool === null) {
    reply.send(503, TEXT_PLAIN, ctx.unavailableText());
    return;
  }
  let request: SqlRequest;
  try {
    request = parseSqlRequest(bytes, headers.contentType);
  } catch (e) {
    if (!(e instanceof BadRequestError)) throw e;
    reply.send(400, TEXT_PLAIN, e.message);
    return;
  }
  answer(reply, request, headers, ctx, true);
}

/**
 * Answers a parsed request: from the cache, or on the pool. With `coalesce`, a miss while the same key is already
 * being computed waits for that query instead of running again (a TTL expiry under load would otherwise send
 * every concurrent client to the pool at once); when it ends, the waiters look the cache up again, or each run
 * the query themselves if its answer was not stored (an error, a write, over the per-entry cap, a cancel).
 */
function answer(reply: Reply, request: SqlRequest, headers: RequestHeaders, ctx: SqlRouteContext, coalesce: boolean) {
  if (reply.aborted) return;
  const pool = ctx.pool();
  if (pool === null) {
    reply.send(503, TEXT_PLAIN, ctx.unavailableText());
    return;
  }
  const cache = ctx.resultsCache;
  const lookup = cache === null ? null : lookUpCache(cache, headers.format, request, headers);
  if (lookup?.kind === 'invalid') {
    reply.send(400, TEXT_PLAIN, lookup.message);
    return;
  }
  if (lookup?.kind === 'hit') {
    reply.send(200, lookup.contentType, lookup.body, lookup.headers);
    return;
  }
  const sink = replySink(reply, lookup === null ? {} : lookup.headers);
  const query = { ...request, format: headers.format, allowWrites: headers.allowWrites };
  if (cache === null || lookup === null) {
    reply.onAbort(pool.query(query, sink));
    return;
  }
  if (lookup.headers['Results-Cache-Status'] === 'BYPASS') {
    // no-cache: never served from the cache, so never from another request's computation either.
    reply.onAbort(
      pool.query(
        query,
        storingSink(sink, cache, lookup, () => {}),
      ),
    );
    return;
  }
  const computing = computingOf(cache);
  if (coalesce) {
    const waiters = computing.get(lookup.key);
    if (waiters !== undefined) {
      waiters.push((stored) => answer(reply, request, headers, ctx, stored));
      return;
    }
  }
  const waiters: ((stored: boolean) => void)[] = [];
  computing.set(lookup.key, waiters);
  let released = false;
  const release = (stored: boolean) => {
    if (released) return;
    released = true;
    if (computing.get(lookup.key) === waiters) computing.delete(lookup.key);
    for (const w of waiters) w(stored);
  };
  reply.onAbort(() => release(false));
  reply.onAbort(pool.query(query, storingSink(sink, cache, lookup, release)));
}

/** Cache keys being computed, per cache, with the requests waiting for them. */
const computingByCache = new WeakMap<ResultsCache, Map<string, ((stored: boolean) => void)[]>>();
function computingOf(cache: ResultsCache): Map<string, ((stored: boolean) => void)[]> {
  let m = computingByCache.get(cache);
  if (m === undefined) {
    m = new Map();
    computingByCache.set(cache, m);
  }
  return m;
}

/** `cacheHeaders` go out with answers the cache applies to (not with a write's). */
function replySink(reply: Reply, cacheHeaders: Readonly<Record<string, string>>): QuerySink {
  const headers = (head: Head) => (head.cacheable ? cacheHeaders : {});
  return {
    whole: (head, bytes) => reply.send(head.status, head.contentType, bytes, headers(head)),
    head: (head) => reply.head(head.status, head.contentType, headers(head)),
    chunk: (bytes, ack) => reply.write(bytes, ack),
    end: () => reply.end(),
    error: (error) => sendError(reply, error),
  };
}

/**
 * Passes the stream on and stores a successful body in the cache when it fits the per-entry cap; `done` hears
 * once whether it was stored, when the answer ends.
 */
function storingSink(
  sink: QuerySink,
  cache: ResultsCache,
  miss: { key: string; epoch: number },
  done: (stored: boolean) => void,
): QuerySink {
  let head: Head | null = null;
  let parts: Uint8Array[] | null = [];
  let size = 0;
  const store = (h: Head, body: Uint8Array) =>
    h.status === 200 &&
    h.cacheable &&
    cache.set(miss.key, { contentType: h.contentType, body, tables: h.tables }, miss.epoch);
  return {
    whole(h, body) {
      const stored = store(h, body);
      sink.whole(h, body);
      done(stored);
    },
    head(h) {
      head = h;
      sink.head(h);
    },
    chunk(body, ack) {
      size += body.byteLength;
      if (size > cache.maxEntryBytes) parts = null;
      parts?.push(body);
      sink.chunk(body, ack);
    },
    end() {
      const stored = head !== null && parts !== null && store(head, Buffer.concat(parts, size));
      sink.end();
      done(stored);
    },
    error(error) {
      sink.error(error);
      done(false);
    },
  };
}

function sendError(reply: Reply, error: WireError): void {
  if (reply.started) reply.cut();
  else {
    const answer = errorAnswer(error);
    reply.send(answer.status, answer.contentType, answer.body);
  }
}
