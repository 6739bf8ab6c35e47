// `SseSessions`: the HTTP+SSE sessions (GET /v1/mcp/sse opens one, POST ?sessionId= feeds it), each a transport + Server.
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/principal.js';
import { type McpSessionsOptions, sessionServer, sessionTableOptions } from './mcp-sessions.js';
import { SessionTable } from './session-table.js';
import { type EventStream, SseTransport } from './sse-transport.js';

/** The path the endpoint event names (with `?sessionId=`): the client POSTs its messages there. */
export const SSE_ENDPOINT = '/v1/mcp/sse';

export interface SseSessionsOptions extends McpSessionsOptions {
  /** Interval of the `: ping` comments (ms); default 15 s. */
  readonly keepAliveMs?: number;
}

/** What a POST achieved: its message went to the session, or there is no such session (404). */
export type PostOutcome = 'accepted' | 'no-session';

/**
 * A session lives while its stream is open: the client going away, `close`, or `sessionTimeoutMs` without a POST
 * (the stream is then ended) removes it, and a POST naming it is 404 from then on, as is one naming a session
 * another principal opened (auth on).
 */
export class SseSessions {
  readonly #sessions: SessionTable<SseTransport>;

  constructor(private readonly options: SseSessionsOptions) {
    this.#sessions = new SessionTable(
      sessionTableOptions(options),
      (transport) => transport.close(),
      (transport) => transport.busy,
    );
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Opens a session writing to `stream` (the endpoint event first) and resolves with its id. */
  async open(stream: EventStream, principal: Principal): Promise<string> {
    const transport = new SseTransport(stream, SSE_ENDPOINT, this.options.keepAliveMs);
    const id = transport.sessionId;
    transport.onclose = () => this.#sessions.delete(id);
    // A client already gone (its stream ended before this call) gets no session.
    if (!transport.closed) this.#sessions.add(id, transport, principal);
    const server = sessionServer(this.options, principal);
    await server.connect(transport);
    return id;
  }

  /** Delivers one message to session `id`; the answer goes on that session's stream. */
  post(id: string, principal: Principal, message: JSONRPCMessage): PostOutcome {
    const transport = this.#sessions.find(id, principal);
    if (transport === undefined) return 'no-session';
    transport.deliver(message);
    return 'accepted';
  }

  /** Closes every session, ending its stream (shutdown). */
  closeAll(): Promise<void> {
    return this.#sessions.closeAll();
  }
}

/** `value` as one JSON-RPC message (request, notification or response), or null when it is not one. */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage | null {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
