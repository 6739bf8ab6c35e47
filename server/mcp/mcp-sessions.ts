// `McpSessions`: the Streamable HTTP sessions (`Mcp-Session-Id`), each an SDK transport + Server, over web Request/Response.
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '../auth/principal.js';
import type { DatasetState } from '../datasets/datasets.js';
import type { QueryService } from '../runtime/query-service.js';
import type { SearchService } from '../search/search-service.js';
import { createMcpServer } from './mcp-server.js';

export const SESSION_HEADER = 'mcp-session-id';

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Who opened it: a request with another principal's key does not find it. */
  readonly principalId: string;
}

export interface McpSessionsOptions {
  readonly service: QueryService;
  datasets(): readonly DatasetState[];
  readonly search?: SearchService;
}

/**
 * POST without a session id must be `initialize` (the SDK answers 400 otherwise): it makes a session whose id the
 * answer's `Mcp-Session-Id` carries. Requests with an id go to that session's transport (POST: JSON-RPC, answered
 * as JSON or SSE; GET: the server→client stream; DELETE: ends it); an unknown id, or one another principal opened,
 * is 404, which tells a client to initialize again.
 */
export class McpSessions {
  readonly #sessions = new Map<string, Session>();

  constructor(private readonly options: McpSessionsOptions) {}

  get size(): number {
    return this.#sessions.size;
  }

  async handle(request: Request, principal: Principal): Promise<Response> {
    const id = request.headers.get(SESSION_HEADER);
    if (id !== null) {
      const session = this.#sessions.get(id);
      if (session === undefined || session.principalId !== principal.id) return notFound();
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return badRequest('Bad Request: Mcp-Session-Id header is required');
    return this.#open(request, principal);
  }

  /** Closes every session (shutdown). */
  async closeAll(): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(open.map((s) => s.transport.close()));
  }

  async #open(request: Request, principal: Principal): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, principalId: principal.id });
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    const { service, datasets, search } = this.options;
    const server = createMcpServer({ service, datasets, search, principal });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize (the SDK refused it): nothing refers to this session, so it is dropped now.
    if (transport.sessionId === undefined || !this.#sessions.has(transport.sessionId)) await server.close();
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
