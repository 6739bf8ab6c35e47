// `SseTransport`: the SDK `Transport` of one HTTP+SSE session: messages out as SSE events, in from its POSTs.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** Where a session's event text goes: implemented over a uWS response in server/http, so mcp/ never sees HTTP. */
export interface EventStream {
  /** Writes text to the open stream (a no-op once it has ended). */
  write(text: string): void;
  /** Ends the stream (the client sees it close). */
  end(): void;
  /** Runs `handler` once if the client goes away first. */
  onClose(handler: () => void): void;
}

/** A comment line every 15 s keeps proxies and load balancers from closing an idle stream. */
export const SSE_KEEP_ALIVE_MS = 15_000;

/**
 * The first event names the URL the client POSTs its messages to, `<endpoint>?sessionId=<uuid>` (the SDK's
 * `SSEClientTransport` waits for this `endpoint` event); each message the server sends is an `event: message` whose
 * data is one line of JSON; `: ping` comments follow every `keepAliveMs`. Incoming messages arrive through `deliver`
 * (the POST route validates and parses them). The session ends when the stream closes either way.
 */
export class SseTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #closed = false;
  #keepAlive: NodeJS.Timeout | null = null;
  /** Ids of the requests delivered and not answered yet. */
  readonly #pending = new Set<string | number>();

  constructor(
    private readonly stream: EventStream,
    private readonly endpoint: string,
    private readonly keepAliveMs: number = SSE_KEEP_ALIVE_MS,
  ) {
    stream.onClose(() => this.#ended());
  }

  /** True while a request delivered to the server has not been answered. */
  get busy(): boolean {
    return this.#pending.size > 0;
  }

  /** True once the stream has ended (or the client went away before the session started). */
  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {
    if (this.#closed) return;
    this.stream.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${this.sessionId}\n\n`);
    this.#keepAlive = setInterval(() => this.stream.write(': ping\n\n'), this.keepAliveMs);
    this.#keepAlive.unref();
  }

  /** JSON.stringify escapes line breaks, so one message is one `data:` line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('Not connected: the SSE stream has ended');
    if (isResponse(message)) this.#pending.delete(message.id);
    this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.stream.end();
    this.#ended();
  }

  /** Hands one POSTed message (validated by the caller) to the session's server; its answer goes on the stream. */
  deliver(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) this.#pending.add(message.id);
    // A cancelled request gets no answer (the SDK drops it): it no longer keeps the session busy.
    else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = message.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.#pending.delete(id);
    }
    this.onmessage?.(message);
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#keepAlive !== null) clearInterval(this.#keepAlive);
    this.onclose?.();
  }
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined;
}
