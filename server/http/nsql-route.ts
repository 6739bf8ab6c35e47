// `handleNsql`: POST /v1/nsql: read and check the request, run the NSQL job, answer in the negotiated format or SSE.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { Datasets } from '../datasets/datasets.js';
import type { Models } from '../models/models.js';
import { NsqlRequestError, parseNsqlRequest } from '../nsql/nsql-request.js';
import { NsqlRefusal, type NsqlScope, resolveScope } from '../nsql/nsql-scope.js';
import { type NsqlJob, type NsqlOutcome, runNsql } from '../nsql/run-nsql.js';
import { logInternalError } from '../pool/error-ref.js';
import type { QueryService } from '../runtime/query-service.js';
import { CONTENT_TYPES } from '../serialize/serializer.js';
import { decodeUtf8, Utf8Error } from './decode-utf8.js';
import { negotiateNsqlFormat } from './negotiate-format.js';
import { streamNsql } from './nsql-stream.js';
import { readBody } from './read-body.js';
import { Reply, TEXT_PLAIN } from './respond.js';
import { QUERY_ID_HEADER } from './sql-route.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

export interface NsqlRouteContext {
  readonly service: QueryService;
  /** The manifest's models; absent: none configured (every model is not found). */
  models?(): Models | null;
  datasets(): Datasets | null;
  readonly maxBodyBytes: number;
  /** SSE keep-alive comment interval while the model thinks (default 15 s). */
  readonly nsqlKeepAliveMs?: number;
  track(reply: Reply): void;
}

/** The number of model calls an answer took (every NSQL answer but an SSE stream, which says it in `done`). */
export const ATTEMPTS_HEADER = 'Nsql-Attempts';

interface Negotiated {
  readonly accept: string;
}

/**
 * 200 in the negotiated format (`application/sql`: the SQL, nothing runs); 400 for a malformed request, an unknown
 * model or dataset, and `Error executing query: …` after 10 failed attempts; 500 `No query produced from NSQL
 * model`; 503 for a model not ready; model call failures: 504 (time-out), 429 (the provider's limit, with its
 * Retry-After), 502 (auth, connection, other). A client disconnect cancels the model call and the query.
 */
export function handleNsql(res: HttpResponse, req: HttpRequest, ctx: NsqlRouteContext, principal: Principal): void {
  const reply = new Reply(res);
  reply.setStandingHeader(QUERY_ID_HEADER, randomUUID());
  ctx.track(reply);
  const headers: Negotiated = { accept: req.getHeader('accept') };
  readBody(
    res,
    req.getHeader('content-length'),
    ctx.maxBodyBytes,
    (bytes) => {
      let text: string;
      try {
        text = decodeUtf8(bytes);
      } catch (e) {
        if (!(e instanceof Utf8Error)) throw e;
        return reply.inCallback(() => reply.send(400, TEXT_PLAIN, e.message));
      }
      reply.inCallback(() => {
        try {
          start(reply, text, headers, ctx, principal);
        } catch (e) {
          internal(reply, e);
        }
      });
    },
    (e) => reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true),
  );
}

function start(reply: Reply, text: string, headers: Negotiated, ctx: NsqlRouteContext, principal: Principal): void {
  if (reply.aborted) return;
  const { format, mediaType } = negotiateNsqlFormat(headers.accept);
  let scope: NsqlScope;
  let stream: boolean;
  try {
    const request = parseNsqlRequest(text);
    stream = wantsStream(request.stream, format, headers.accept);
    scope = resolveScope(
      request,
      ctx.models?.() ?? NO_MODELS,
      (ctx.datasets()?.list() ?? []).map((d) => d.name),
    );
    const abort = new AbortController();
    reply.onAbort(() => abort.abort());
    const job: NsqlJob = {
      service: ctx.service,
      models: ctx.models?.() ?? NO_MODELS,
      model: scope.model.name,
      principal,
      question: request.query,
      allowed: scope.allowed,
      sampled: scope.sampled,
      systemPrompt: scope.model.config.systemPrompt,
      format: stream ? 'json' : format === 'sql' || format === 'event-stream' ? null : format,
      signal: abort.signal,
      onEvent: () => {},
    };
    if (stream) {
      streamNsql(reply, job, ctx.nsqlKeepAliveMs ?? 15_000);
      return;
    }
    runNsql(job).then(
      (outcome) => answer(reply, outcome, format, mediaType),
      (e) => internal(reply, e),
    );
  } catch (e) {
    if (e instanceof NsqlRequestError) reply.send(400, TEXT_PLAIN, e.message);
    else if (e instanceof NsqlRefusal) sendRefusal(reply, e.status, e.message, e.retryAfterS);
    else throw e;
  }
}

/**
 * SSE when `stream: true` with `Accept: text/event-stream` (or no preference); a mismatch is a 400 that says how
 * to ask, rather than a silent switch of format.
 */
function wantsStream(stream: boolean, format: string, accept: string): boolean {
  const noPreference = accept === '' || accept.trim() === '*/*';
  if (stream && (format === 'event-stream' || noPreference)) return true;
  if (stream)
    throw new NsqlRequestError('"stream": true answers with server-sent events: send Accept: text/event-stream');
  if (format === 'event-stream')
    throw new NsqlRequestError('Accept: text/event-stream needs "stream": true in the request body');
  return false;
}

function answer(reply: Reply, outcome: NsqlOutcome, format: string, mediaType: string): void {
  const attempts = { [ATTEMPTS_HEADER]: String(outcome.attempts) };
  if (!outcome.ok) sendRefusal(reply, outcome.status, outcome.message, outcome.retryAfterS, attempts);
  else if (outcome.answer === null) reply.send(200, 'application/sql', outcome.sql, attempts);
  else if (format === 'vnd-json') reply.send(200, mediaType, withSql(outcome.answer.body, outcome.sql), attempts);
  else reply.send(200, CONTENT_TYPES[outcome.answer.head.format], outcome.answer.body, attempts);
}

/** The vnd JSON body with `"sql"` added as its last key (the body ends in `}`). */
function withSql(body: Buffer, sql: string): Buffer {
  const end = body.lastIndexOf('}');
  return Buffer.concat([body.subarray(0, end), Buffer.from(`,"sql":${JSON.stringify(sql)}}`)]);
}

function sendRefusal(
  reply: Reply,
  status: number,
  message: string,
  retryAfterS?: number,
  extra: Record<string, string> = {},
): void {
  const headers = retryAfterS === undefined ? extra : { ...extra, 'Retry-After': String(retryAfterS) };
  reply.send(status, TEXT_PLAIN, message, headers);
}

function internal(reply: Reply, e: unknown): void {
  const ref = logInternalError('/v1/nsql failed', e);
  reply.send(500, TEXT_PLAIN, `Internal server error (ref ${ref})`);
}

const NO_MODELS: Models = {
  list: () => [],
  get: () => undefined,
  complete: () => Promise.reject(new Error('no models')),
};
