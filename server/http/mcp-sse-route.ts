// GET /v1/mcp/sse (opens an MCP session's event stream) and POST /v1/mcp/sse?sessionId= (one message into it).
import type { Principal } from '../auth/principal.js';
import { MCP_HTTP_ERRORS } from '../mcp/json-rpc-error.js';
import { asJsonRpcMessage, type SseSessions } from '../mcp/sse-sessions.js';
import type { EventStream } from '../mcp/sse-transport.js';
import { logInternalError } from '../pool/error-ref.js';
import { mcpBodyLimit, parseMcpBody, sendJsonRpcError } from './mcp-route.js';
import { readBody } from './read-body.js';
import { Reply, TEXT_PLAIN } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

export interface McpSseRouteContext {
  readonly sse: SseSessions;
  readonly maxBodyBytes: number;
  track(reply: Reply): void;
}

const EVENT_STREAM = 'text/event-stream';
/** Contract §4.6's headers (Content-Type is the reply's own). */
const STREAM_HEADERS = { 'Cache-Control': 'no-cache', Connection: 'keep-alive' };
const ENCODER = new TextEncoder();
const NOTHING = () => {};

/** Starts the stream and opens a session on it; the endpoint event is the first thing the client reads. */
export function handleMcpSseGet(res: HttpResponse, ctx: McpSseRouteContext, principal: Principal): void {
  const reply = new Reply(res);
  ctx.track(reply);
  reply.head(200, EVENT_STREAM, STREAM_HEADERS);
  ctx.sse.open(replyEventStream(reply), principal).catch((e) => {
    logInternalError('mcp sse', e);
    reply.end();
  });
}

/**
 * 202 `Accepted` once the message is handed to the session (its answer goes on the stream); 400 without a
 * `sessionId`, or a body that is not one JSON-RPC message (or nests over 32 levels); 404 for an unknown or expired
 * session; 413 over 1 MiB.
 */
export function handleMcpSsePost(
  res: HttpResponse,
  req: HttpRequest,
  ctx: McpSseRouteContext,
  principal: Principal,
): void {
  const reply = new Reply(res);
  ctx.track(reply);
  const sessionId = new URLSearchParams(req.getQuery() ?? '').get('sessionId');
  const onBody = (bytes: Uint8Array) => {
    if (sessionId === null || sessionId === '') {
      return sendJsonRpcError(
        reply,
        400,
        MCP_HTTP_ERRORS.invalid,
        'Bad Request: the sessionId query parameter is required',
      );
    }
    const parsed = parseMcpBody(bytes);
    if (!parsed.ok) return sendJsonRpcError(reply, 400, parsed.code, parsed.message);
    const message = asJsonRpcMessage(parsed.value);
    if (message === null) {
      return sendJsonRpcError(reply, 400, MCP_HTTP_ERRORS.invalid, 'Bad Request: the body is not one JSON-RPC message');
    }
    if (ctx.sse.post(sessionId, principal, message) === 'no-session') {
      return sendJsonRpcError(reply, 404, MCP_HTTP_ERRORS.noSession, 'Session not found');
    }
    reply.send(202, TEXT_PLAIN, 'Accepted');
  };
  readBody(res, req.getHeader('content-length'), mcpBodyLimit(ctx.maxBodyBytes), onBody, (e) =>
    reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true),
  );
}

/** The session's writes as chunks of this reply; no backpressure wait (messages are written whole, uWS buffers). */
function replyEventStream(reply: Reply): EventStream {
  return {
    write: (text) => reply.write(ENCODER.encode(text), NOTHING),
    end: () => reply.end(),
    onClose: (handler) => reply.onAbort(handler),
  };
}
