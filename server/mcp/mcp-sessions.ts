// `McpSessions`: the Streamable HTTP sessions (`Mcp-Session-Id`), each an SDK transport + Server, over web Request/Response.
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '../auth/principal.js';
import type { DatasetState } from '../datasets/datasets.js';
import type { QueryService } from '../runtime/query-service.js';
import type { SearchService } from '../search/search-service.js';
import { createMcpServer } from './mcp-server.js';
import type { ProxyTools } from './proxy/proxy-tools.js';
import { SessionTable, type SessionTableOptions } from './session-table.js';

export const SESSION_HEADER = 'mcp-session-id';

export interface McpSessionsOptions {
  readonly service: QueryService;
  datasets(): readonly DatasetState[];
  /** A session no request names for this long is closed (ms); default `runtime.mcp.session_timeout`'s 1 hour. */
  readonly sessionTimeoutMs?: number;
  /** Whether a session is found only with its opener's principal (auth on); default true. */
  readonly bindToPrincipal?: boolean;
  /** The manifest's proxied MCP tools; absent: none. */
  readonly proxied?: ProxyTools;
  /** Full-text search for the `search` tool; absent: no dataset is searchable. */
  readonly search?: SearchService;
  /** Sessions per transport before the least recently used idle one is closed; absent: 1000. */
  readonly maxSessions?: number;
  /** The `sql` tool's largest answer in bytes; absent: `runtime.mcp.max_result_size`'s default. */
  readonly maxResultBytes?: number;
}

/** Contract §8: a session expires after 1 hour without activity. */
export const DEFAULT_SESSION_TIMEOUT_MS = 60 * 60_000;

/** A session's SDK Server: its tools run with `options`' service, datasets and proxies as `principal`. */
export function sessionServer(options: McpSessionsOptions, principal: Principal) {
  const { service, datasets, proxied, search, maxResultBytes } = options;
  return createMcpServer({ service, datasets, principal, proxied, search, maxResultBytes });
}

/** The session table's options from `options`' defaults. */
export function sessionTableOptions(options: McpSessionsOptions): SessionTableOptions {
  return {
    idleMs: options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
    bindToPrincipal: options.bindToPrincipal ?? true,
    maxSessions: options.maxSessions,
  };
}

/**
 * POST without a session id must be `initialize` (the SDK answers 400 otherwise): it makes a session whose id the
 * answer's `Mcp-Session-Id` carries. Requests with an id go to that session's transport (POST: JSON-RPC, answered
 * as JSON or SSE; GET: the server→client stream; DELETE: ends it); an unknown id, or one another principal opened,
 * is 404, which tells a client to initialize again. A session no request names for `sessionTimeoutMs` is closed
 * (its GET stream ends) and its id is 404 from then on.
 */
export class McpSessions {
  readonly #sessions: SessionTable<WebStandardStreamableHTTPServerTransport>;

  constructor(private readonly options: McpSessionsOptions) {
    this.#sessions = new SessionTable(sessionTableOptions(options), (transport) => transport.close());
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(request: Request, principal: Principal): Promise<Response> {
    const id = request.headers.get(SESSION_HEADER);
    if (id !== null) {
      const transport = this.#sessions.find(id, principal);
      if (transport === undefined) return notFound();
      return transport.handleRequest(request);
    }
    if (request.method !== 'POST') return badRequest('Bad Request: Mcp-Session-Id header is required');
    return this.#open(request, principal);
  }

  /** Closes every session (shutdown). */
  closeAll(): Promise<void> {
    return this.#sessions.closeAll();
  }

  async #open(request: Request, principal: Principal): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.add(id, transport, principal);
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    const server = sessionServer(this.options, principal);
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize (the SDK refused it): nothing refers to this session, so it is dropped now.
    if (transport.sessionId === undefined) await server.close();
    return response;
  }
}

function jsonRpcError(status: number, code: number, message: string): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

function notFound(): Response {
  return jsonRpcError(404, -32001, 'Session not found');
}

function badRequest(message: string): Response {
  return jsonRpcError(400, -32000, message);
}
