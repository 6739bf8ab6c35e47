// `handleMcp`: POST/GET/DELETE /v1/mcp (MCP Streamable HTTP): the uWS request copied into a web Request, the answer streamed back.
import type { Principal } from '../auth/principal.js';
import { jsonDepthExceeds, MCP_MAX_JSON_DEPTH } from '../mcp/json-depth.js';
import { jsonRpcErrorBody, MCP_HTTP_ERRORS } from '../mcp/json-rpc-error.js';
import type { McpSessions } from '../mcp/mcp-sessions.js';
import { logInternalError } from '../pool/error-ref.js';
import { readBody } from './read-body.js';
import { Reply, TEXT_PLAIN } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** Contract §8: an MCP request is at most 1 MB (1 MiB here), whatever `runtime.http.max_body_bytes` allows. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

export interface McpRouteContext {
  readonly mcp: McpSessions;
  readonly maxBodyBytes: number;
  track(reply: Reply): void;
}

/** Hop-by-hop or framing headers uWS writes itself. */
const SKIPPED_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection']);

/** Copies what the SDK transport reads (method, URL, headers, body), then answers with its Response. */
export function handleMcp(res: HttpResponse, req: HttpRequest, ctx: McpRouteContext, principal: Principal): void {
  const reply = new Reply(res);
  ctx.track(reply);
  const method = req.getCaseSensitiveMethod().toUpperCase();
  const headers = new Headers();
  req.forEach((k, v) => {
    headers.append(k, v);
  });
  // A fixed origin: a client's Host header (which may not even parse) never makes the URL; the SDK reads headers.
  const query = req.getQuery() ?? '';
  const url = `http://localhost${req.getUrl()}${query === '' ? '' : '?'}${query}`;
  const run = (body: Uint8Array | null) =>
    ctx.mcp.handle(new Request(url, { method, headers, body }), principal).then(
      (response) => answer(reply, response),
      (e) => {
        logInternalError('mcp', e);
        reply.send(500, TEXT_PLAIN, 'Internal Server Error');
      },
    );
  if (method !== 'POST') {
    run(null);
    return;
  }
  readBody(
    res,
    req.getHeader('content-length'),
    mcpBodyLimit(ctx.maxBodyBytes),
    (bytes) => {
      if (jsonDepthExceeds(bytes)) sendJsonRpcError(reply, 400, MCP_HTTP_ERRORS.invalid, TOO_DEEP);
      else run(bytes.slice());
    },
    (e) => reply.send(413, TEXT_PLAIN, `Payload Too Large: ${e.message}`, {}, true),
  );
}

/** The body limit of an MCP POST: 1 MiB, or `runtime.http.max_body_bytes` when that is smaller. */
export function mcpBodyLimit(maxBodyBytes: number): number {
  return Math.min(maxBodyBytes, MCP_MAX_BODY_BYTES);
}

const TOO_DEEP = `Bad Request: JSON nested deeper than ${MCP_MAX_JSON_DEPTH} levels`;

/** A body as JSON, refused (with a JSON-RPC code and message) when nested too deeply or not JSON at all. */
export function parseMcpBody(
  bytes: Uint8Array,
): { ok: true; value: unknown } | { ok: false; code: number; message: string } {
  if (jsonDepthExceeds(bytes)) return { ok: false, code: MCP_HTTP_ERRORS.invalid, message: TOO_DEEP };
  try {
    return { ok: true, value: JSON.parse(DECODER.decode(bytes)) };
  } catch {
    return { ok: false, code: MCP_HTTP_ERRORS.parse, message: 'Parse error: the body is not JSON' };
  }
}
const DECODER = new TextDecoder();

/** An HTTP error whose body is a JSON-RPC error object (`id` null: no request was read). */
export function sendJsonRpcError(reply: Reply, status: number, code: number, message: string): void {
  reply.send(status, JSON_TYPE, jsonRpcErrorBody(code, message));
}
const JSON_TYPE = 'application/json';

/** A JSON (or empty) answer is sent whole; an SSE answer is streamed as the session writes it. */
async function answer(reply: Reply, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    if (!SKIPPED_HEADERS.has(k)) headers[k] = v;
  });
  const contentType = response.headers.get('content-type') ?? TEXT_PLAIN;
  if (response.body === null || !contentType.startsWith('text/event-stream')) {
    const body = new Uint8Array(await response.arrayBuffer());
    reply.send(response.status, contentType, body, headers);
    return;
  }
  const reader = response.body.getReader();
  reply.onAbort(() => void reader.cancel().catch(() => {}));
  reply.head(response.status, contentType, headers);
  const pump = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (reply.aborted) return;
        if (done) return reply.end();
        reply.write(value, pump);
      },
      () => reply.end(),
    );
  };
  pump();
}
