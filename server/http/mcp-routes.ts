// `registerMcpRoutes`: /v1/mcp (Streamable HTTP) and /v1/mcp/sse (HTTP+SSE), each behind the gate and the Host guard.
import type { Principal } from '../auth/principal.js';
import { MCP_HTTP_ERRORS } from '../mcp/json-rpc-error.js';
import type { McpEndpoints } from '../mcp/mcp-endpoints.js';
import { handleMcp, sendJsonRpcError } from './mcp-route.js';
import { handleMcpSseGet, handleMcpSsePost } from './mcp-sse-route.js';
import type { RequestGate } from './request-gate.js';
import { Reply, TEXT_PLAIN, utf8Constant } from './respond.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws-app.js';

export interface McpRoutesContext {
  readonly mcp: McpEndpoints;
  readonly gate: RequestGate;
  readonly maxBodyBytes: number;
  stopping(): boolean;
  track(reply: Reply): void;
}

const HOST = utf8Constant('host');
const ORIGIN = utf8Constant('origin');

type McpHandler = (res: HttpResponse, req: HttpRequest, principal: Principal) => void;

/**
 * Every MCP request: 503 while stopping, then the gate (CORS, 401, 429), then the DNS-rebinding guard (403 with
 * a JSON-RPC error naming the setting to change), then the transport. Other methods: 405 with `Allow`.
 */
export function registerMcpRoutes(app: TemplatedApp, ctx: McpRoutesContext): void {
  const route =
    (handler: McpHandler) =>
    (res: HttpResponse, req: HttpRequest): void => {
      if (ctx.stopping()) {
        new Reply(res).send(503, TEXT_PLAIN, 'Runtime is shutting down');
        return;
      }
      const principal = ctx.gate.admit(res, req);
      if (principal === null) return;
      const refused = ctx.mcp.guard(req.getHeader(HOST), req.getHeader(ORIGIN));
      if (refused === null) handler(res, req, principal);
      else sendJsonRpcError(new Reply(res), 403, MCP_HTTP_ERRORS.refused, refused);
    };
  const streamable = route((res, req, principal) =>
    handleMcp(res, req, { mcp: ctx.mcp.streamable, maxBodyBytes: ctx.maxBodyBytes, track: ctx.track }, principal),
  );
  app.post('/v1/mcp', streamable);
  app.get('/v1/mcp', streamable);
  app.del('/v1/mcp', streamable);
  const sse = { sse: ctx.mcp.sse, maxBodyBytes: ctx.maxBodyBytes, track: ctx.track };
  app.get(
    '/v1/mcp/sse',
    route((res, _req, principal) => handleMcpSseGet(res, sse, principal)),
  );
  app.post(
    '/v1/mcp/sse',
    route((res, req, principal) => handleMcpSsePost(res, req, sse, principal)),
  );
  methodNotAllowed(app, ctx, '/v1/mcp', 'GET, POST, DELETE');
  methodNotAllowed(app, ctx, '/v1/mcp/sse', 'GET, POST');
}

function methodNotAllowed(app: TemplatedApp, ctx: McpRoutesContext, path: string, allow: string): void {
  app.any(path, (res, req) => {
    if (ctx.gate.admit(res, req) !== null) new Reply(res).send(405, TEXT_PLAIN, 'Method Not Allowed', { Allow: allow });
  });
}
