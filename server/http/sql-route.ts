// `handleSql`: POST /v1/sql: read the body, parse it, run the query on the pool, stream the answer back.

import { logInternalError } from '../pool/error-ref.js';
import type { WireError } from '../pool/messages.js';
import type { QueryPool, QuerySink } from '../pool/pool.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { negotiateFormat } from './negotiate-format.js';
import { BadRequestError, parseSqlRequest, type SqlRequest } from './parse-sql-request.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { Reply, TEXT_PLAIN } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** What the handler needs from the running server. */
export interface SqlRouteContext {
  /** The pool once datasets are loaded; null while loading (503) or shutting down. */
  pool(): QueryPool | null;
  /** Text of the 503 answer while `pool()` is null. */
  unavailableText(): string;
  readonly maxBodyBytes: number;
  /** Registers a response so shutdown can wait for it. */
  track(reply: Reply): void;
}

const USER_ERROR_KINDS = new Set(['parse', 'plan', 'exec', 'not_supported', 'cancelled']);

/**
 * 200 with the negotiated format; 400 text for a malformed body or an engine error the user caused;
 * 413 over the body limit; 500 `Internal server error (ref …)` otherwise; 503 before the datasets are
 * loaded. An error after the 200 head cuts the connection. A client disconnect cancels the query.
 */
export function handleSql(res: HttpResponse, req: HttpRequest, ctx: SqlRouteContext): void {
  const reply = new Reply(res);
  ctx.track(reply);
  // The request object is only valid until the handler returns: copy the headers now.
  const contentType = req.getHeader('content-type');
  const format = negotiateFormat(req.getHeader('accept'));
  readBody(res, req.getHeader('content-length'), ctx.maxBodyBytes)
    .then((bytes) => runSql(reply, bytes, contentType, format, ctx))
    .catch((e: unknown) => {
      if (e instanceof BodyTooLargeError)
        return reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true);
      const ref = logInternalError('/v1/sql failed', e);
      reply.send(500, TEXT_PLAIN, `Internal server error (ref ${ref})`);
    });
}

function runSql(
  reply: Reply,
  bytes: Uint8Array,
  contentType: string,
  format: ResultFormat,
  ctx: SqlRouteContext,
): void {
  const pool = ctx.pool();
  if (pool === null) {
    reply.send(503, TEXT_PLAIN, ctx.unavailableText());
    return;
  }
  let request: SqlRequest;
  try {
    request = parseSqlRequest(bytes, contentType);
  } catch (e) {
    if (!(e instanceof BadRequestError)) throw e;
    reply.send(400, TEXT_PLAIN, e.message);
    return;
  }
  reply.onAbort(pool.query({ ...request, format }, replySink(reply)));
}

function replySink(reply: Reply): QuerySink {
  return {
    whole: (head, bytes) => reply.send(head.status, head.contentType, bytes),
    head: (head) => reply.head(head.status, head.contentType),
    chunk: (bytes, ack) => reply.write(bytes, ack),
    end: () => reply.end(),
    error: (error) => sendError(reply, error),
  };
}

function sendError(reply: Reply, error: WireError): void {
  if (reply.started) reply.cut();
  else if (USER_ERROR_KINDS.has(error.kind)) reply.send(400, TEXT_PLAIN, error.message);
  else reply.send(500, TEXT_PLAIN, `Internal server error (ref ${error.ref ?? 'none'})`);
}
