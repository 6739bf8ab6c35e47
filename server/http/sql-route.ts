// `handleSql`: POST /v1/sql: read the body, parse it, negotiate the format, run it on the query service, map errors.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import { logInternalError } from '../pool/error-ref.js';
import type { WireError } from '../pool/messages.js';
import type { AnswerSink, CacheInfo, QueryService } from '../runtime/query-service.js';
import { CONTENT_TYPES, type ResultFormat } from '../serialize/serializer.js';
import { errorAnswer } from './error-status.js';
import { negotiateFormat } from './negotiate-format.js';
import { BadRequestError, parseSqlRequest, type SqlRequest } from './parse-sql-request.js';
import { readBody } from './read-body.js';
import { Reply, TEXT_PLAIN, utf8Constant } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** What the handler needs from the running server. */
export interface SqlRouteContext {
  /** The query service (it answers 'unavailable' while the datasets load or the server stops). */
  readonly service: QueryService;
  readonly maxBodyBytes: number;
  /** Whether the results cache is on (only then are the cache headers read). */
  readonly cacheEnabled: boolean;
  /** Registers a response so shutdown can wait for it. */
  track(reply: Reply): void;
}

/** The request headers the handler reads, copied before the handler returns (uWS reuses the request). */
interface RequestHeaders {
  readonly contentType: string;
  readonly format: ResultFormat;
  readonly cacheControl: string;
  readonly cacheKey: string;
}

/** Who a request runs as where no authenticator gave a principal (auth off). */
export const ANONYMOUS: Principal = { id: 'addr:unknown', canWrite: true };

// Header names as bytes: uWS would encode a string name on every call.
const CONTENT_TYPE = utf8Constant('content-type');
const ACCEPT = utf8Constant('accept');
const CACHE_CONTROL = utf8Constant('cache-control');
const SPICE_CACHE_KEY = utf8Constant('spice-cache-key');
const CONTENT_LENGTH = utf8Constant('content-length');
export const QUERY_ID_HEADER = 'runtime-query-id';

/**
 * 200 with the negotiated format; 400 text for a malformed body or an engine error the user caused; 403 for a
 * write by a read-only principal; 413 over the body limit; 429/503 (with Retry-After) when rate-limited,
 * overloaded or not serving; 504 past `runtime.query.timeout`; 500 `Internal server error (ref …)` otherwise.
 * Every answer carries `runtime-query-id`. An error after the 200 head cuts the connection. A client disconnect
 * cancels the query.
 */
export function handleSql(
  res: HttpResponse,
  req: HttpRequest,
  ctx: SqlRouteContext,
  principal: Principal = ANONYMOUS,
): void {
  const reply = new Reply(res);
  const queryId = randomUUID();
  reply.setStandingHeader(QUERY_ID_HEADER, queryId);
  ctx.track(reply);
  const headers: RequestHeaders = {
    contentType: req.getHeader(CONTENT_TYPE),
    format: negotiateFormat(req.getHeader(ACCEPT)),
    cacheControl: ctx.cacheEnabled ? req.getHeader(CACHE_CONTROL) : '',
    cacheKey: ctx.cacheEnabled ? req.getHeader(SPICE_CACHE_KEY) : '',
  };
  readBody(
    res,
    req.getHeader(CONTENT_LENGTH),
    ctx.maxBodyBytes,
    (bytes) =>
      reply.inCallback(() => {
        try {
          runSql(reply, bytes, headers, ctx, principal, queryId);
        } catch (e) {
          const ref = logInternalError(`/v1/sql failed (query ${queryId})`, e);
          reply.send(500, TEXT_PLAIN, `Internal server error (ref ${ref})`);
        }
      }),
    (e) => reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true),
  );
}

function runSql(
  reply: Reply,
  bytes: Uint8Array,
  headers: RequestHeaders,
  ctx: SqlRouteContext,
  principal: Principal,
  queryId: string,
): void {
  if (reply.aborted) return;
  let request: SqlRequest;
  try {
    request = parseSqlRequest(bytes, headers.contentType);
  } catch (e) {
    if (!(e instanceof BadRequestError)) throw e;
    reply.send(400, TEXT_PLAIN, e.message);
    return;
  }
  const cache = ctx.cacheEnabled ? { noCache: isNoCache(headers.cacheControl), key: headers.cacheKey } : undefined;
  const serviceRequest = {
    sql: request.sql,
    params: request.params,
    format: headers.format,
    principal,
    queryId,
    cache,
  };
  reply.onAbort(ctx.service.run(serviceRequest, replySink(reply)));
}

function replySink(reply: Reply): AnswerSink {
  return {
    whole: (head, bytes, cache) => reply.send(200, CONTENT_TYPES[head.format], bytes, cacheHeaders(cache)),
    head: (head, cache) => reply.head(200, CONTENT_TYPES[head.format], cacheHeaders(cache)),
    chunk: (bytes, ack) => reply.write(bytes, ack),
    end: () => reply.end(),
    error: (error) => sendError(reply, error),
  };
}

/** The answer headers of each cache outcome, made once (a hit allocates none). */
function makeCacheHeaders(vary: Readonly<Record<string, string>>) {
  return {
    BYPASS: { 'Results-Cache-Status': 'BYPASS', ...vary },
    HIT: { 'X-Cache': 'Hit from spiceai', 'Results-Cache-Status': 'HIT', ...vary },
    MISS: { 'X-Cache': 'Miss from spiceai', 'Results-Cache-Status': 'MISS', ...vary },
  } as const;
}
const PLAIN_HEADERS = makeCacheHeaders({});
const VARY_HEADERS = makeCacheHeaders({ Vary: 'Spice-Cache-Key' });
const NO_HEADERS = {};

function cacheHeaders(cache: CacheInfo | undefined): Readonly<Record<string, string>> {
  if (cache === undefined) return NO_HEADERS;
  return (cache.customKey ? VARY_HEADERS : PLAIN_HEADERS)[cache.status];
}

/** `no-cache` as a Cache-Control directive (case-insensitive, among others, with or without spaces). */
function isNoCache(cacheControl: string): boolean {
  if (cacheControl === '') return false;
  return cacheControl.split(',').some((d) => d.trim().toLowerCase() === 'no-cache');
}

function sendError(reply: Reply, error: WireError): void {
  if (reply.started) {
    reply.cut();
    return;
  }
  const answer = errorAnswer(error);
  reply.send(answer.status, answer.contentType, answer.body, answer.headers);
}
