// `ProxyServer`: one `tools:` entry's external MCP server: connect, list its tools, forward calls, reconnect when lost.
import { createInterface } from 'node:readline';
import type { Readable, Stream } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { formatDuration } from '../../config/query-config.js';
import type { ToolConfig } from '../../config/tool-config.js';
import { type Backoff, exponentialDelay } from '../../datasets/backoff.js';
import { TOOL_NAME_MAX } from '../tool-name.js';
import { errorResult } from '../tool-result.js';
import { connectClient, messageOf, setupTimeoutMs } from './connect-client.js';

export type ProxyStatus = 'connecting' | 'ready' | 'error';

export interface ProxyServerOptions {
  readonly backoff: Backoff;
  /** Between liveness pings of a ready server (a lost HTTP server is found before a call needs it). */
  readonly heartbeatMs: number;
  /** Progress lines (connected, failed, lost). */
  log(line: string): void;
  /** The child's stderr lines and transport errors. */
  debug(line: string): void;
  /** The pids of running stdio children, which the process-exit hook kills. */
  readonly children: Set<number>;
}

const EXPOSED_NAME = /^[A-Za-z0-9_\-./]+$/;

/**
 * Starts connecting at `start()`; a failure is `error` (with a message free of secrets) and retried after about 1 s
 * doubling to 1 min; a closed transport (the child exited, the HTTP server went away) drops the tools and reconnects.
 * Tools are exposed as `<entry>/<tool>`. `close()` closes the client and ends the child (stdin closed, then SIGTERM).
 */
export class ProxyServer {
  #status: ProxyStatus = 'connecting';
  #error: string | null = null;
  #tools: Tool[] = [];
  #client: Client | null = null;
  #transport: Transport | null = null;
  #connecting: Promise<void> | null = null;
  #attempt = 0;
  #retry: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #closed = false;
  #pid: number | null = null;
  /** The child's last stderr line: the likely reason when it exits during initialize. */
  #lastStderr = '';

  constructor(
    readonly config: ToolConfig,
    private readonly options: ProxyServerOptions,
  ) {}

  get status(): ProxyStatus {
    return this.#status;
  }

  get errorMessage(): string | null {
    return this.#error;
  }

  /** The external tools under their exposed names (none unless ready). */
  get tools(): readonly Tool[] {
    return this.#status === 'ready' ? this.#tools : [];
  }

  start(): void {
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
  }

  /**
   * Forwards `tools/call` of `tool` (the external name) with the entry's time-out; `signal` (the caller's) aborts it
   * and sends the server a cancellation. A server down, a time-out or a connection lost mid-call is an `isError`
   * result naming the tool and why; a JSON-RPC error the server answered is relayed with its code.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const exposed = `${this.config.name}/${tool}`;
    const client = this.#client;
    if (client === null || this.#status !== 'ready') {
      const why = this.#error === null ? '' : `: ${this.#error}`;
      return errorResult(
        `tool ${exposed} is unavailable: MCP server '${this.config.name}' is ${this.#status}${why}; floe retries it in the background`,
      );
    }
    if (!this.#tools.some((t) => t.name === exposed))
      throw new McpError(ErrorCode.MethodNotFound, `unknown tool '${exposed}': tools/list names the tools`);
    try {
      const request = { method: 'tools/call' as const, params: { name: tool, arguments: args } };
      return await client.request(request, CallToolResultSchema, { signal, timeout: this.config.timeoutMs });
    } catch (e) {
      if (signal.aborted) throw e;
      return this.#callFailed(exposed, client, e);
    }
  }

  #callFailed(exposed: string, client: Client, e: unknown): CallToolResult {
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout)
      return errorResult(`tool ${exposed} timed out after ${formatDuration(this.config.timeoutMs)}`);
    if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed)
      return errorResult(
        `tool ${exposed} failed: MCP server '${this.config.name}' closed the connection during the call (did it crash?); floe reconnects it`,
      );
    // The server answered with a JSON-RPC error (e.g. -32042, a URL elicitation): relayed with its code and data.
    if (e instanceof McpError)
      throw new McpError(e.code, `${exposed}: ${this.#redact(stripPrefix(e.message))}`, e.data);
    // A transport failure (an HTTP server gone): the agent learns why, and the entry reconnects.
    this.#lost(client, `call failed: ${messageOf(e)}`);
    return errorResult(`tool ${exposed} failed: ${this.#redact(messageOf(e))}`);
  }

  /** Closes the client and its transport; a stdio child is ended (the SDK: stdin closed, SIGTERM after 2 s). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTimers();
    const transport = this.#transport;
    const client = this.#client;
    this.#client = null;
    this.#tools = [];
    await Promise.all([transport?.close().catch(() => {}), client?.close().catch(() => {})]);
    await this.#connecting?.catch(() => {});
    this.#untrack();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    this.#status = 'connecting';
    let client: Client | null = null;
    try {
      client = await connectClient(this.config, {
        onTransport: (t) => {
          this.#untrack();
          this.#transport = t;
        },
        onStderr: (stderr) => this.#pipeStderr(stderr),
      });
      this.#track(this.#transport);
      const tools = await this.#listTools(client);
      if (this.#closed) throw new Error('closed');
      this.#ready(client, tools);
    } catch (e) {
      await client?.close().catch(() => {});
      await this.#transport?.close().catch(() => {});
      this.#untrack();
      if (this.#closed) return;
      this.#failed(`cannot connect: ${this.#connectError(e)}`);
    }
  }

  #connectError(e: unknown): string {
    if (!(e instanceof McpError && e.code === ErrorCode.ConnectionClosed && this.config.source.kind === 'stdio'))
      return messageOf(e);
    const last = this.#lastStderr === '' ? '' : `; its last stderr line: ${this.#lastStderr.slice(0, 300)}`;
    return `the server process exited during initialize${last}`;
  }

  #ready(client: Client, tools: Tool[]): void {
    this.#client = client;
    this.#tools = tools;
    this.#status = 'ready';
    this.#error = null;
    this.#attempt = 0;
    client.onclose = () => this.#lost(client, 'the connection closed (the server exited or went away)');
    client.onerror = (e) =>
      this.options.debug(`floe: mcp tool server '${this.config.name}': ${this.#redact(messageOf(e))}`);
    this.#heartbeat = setInterval(() => {
      client
        .ping({ timeout: setupTimeoutMs(this.config) })
        .catch((e) => this.#lost(client, `ping failed: ${messageOf(e)}`));
    }, this.options.heartbeatMs).unref();
    this.options.log(`floe: mcp tool server '${this.config.name}' ready: ${tools.length} tools`);
  }

  /** `tools/list`, page after page (`nextCursor`), as exposed tools; names §8 refuses are skipped with a log line. */
  async #listTools(client: Client): Promise<Tool[]> {
    const out: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: setupTimeoutMs(this.config),
      });
      for (const tool of page.tools) {
        const name = `${this.config.name}/${tool.name}`;
        if (name.length <= TOOL_NAME_MAX && EXPOSED_NAME.test(tool.name))
          out.push(exposedTool(name, tool, this.config));
        else this.options.log(`floe: warning: mcp tool '${name.slice(0, 300)}' skipped: not a valid tool name (§8)`);
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== '');
    return out;
  }

  #lost(client: Client, why: string): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    this.#tools = [];
    this.#stopTimers();
    const transport = this.#transport;
    void client.close().catch(() => {});
    void transport?.close().catch(() => {});
    this.#untrack();
    this.#failed(why);
  }

  #failed(why: string): void {
    this.#status = 'error';
    this.#error = this.#redact(why);
    this.#attempt++;
    const delay = exponentialDelay(this.#attempt, this.options.backoff);
    this.options.log(`floe: mcp tool server '${this.config.name}': ${this.#error}; retry in ${delay} ms`);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.start();
    }, delay);
    this.#retry.unref();
  }

  #stopTimers(): void {
    if (this.#retry !== null) clearTimeout(this.#retry);
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#retry = null;
    this.#heartbeat = null;
  }

  #pipeStderr(stderr: Stream): void {
    const lines = createInterface({ input: stderr as Readable, crlfDelay: Number.POSITIVE_INFINITY });
    this.#lastStderr = '';
    lines.on('line', (line) => {
      if (line.trim() !== '') this.#lastStderr = line.trim();
      this.options.debug(`floe: mcp tool server '${this.config.name}' stderr: ${line}`);
    });
  }

  /** Records a started stdio child's pid (the transport forgets it once the child exits). */
  #track(transport: Transport | null): void {
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    if (pid === null) return;
    this.#pid = pid;
    this.options.children.add(pid);
  }

  #untrack(): void {
    if (this.#pid !== null) this.options.children.delete(this.#pid);
    this.#pid = null;
  }

  /** `text` with the entry's secrets (header values, the full URL, env values) replaced by `***`. */
  #redact(text: string): string {
    const { config } = this;
    const secrets = [...Object.values(config.headers), ...Object.values(config.env)];
    if (config.source.kind === 'http') secrets.push(config.source.url);
    let out = text;
    for (const s of secrets.filter((v) => v.length >= 4).sort((a, b) => b.length - a.length))
      out = out.split(s).join('***');
    return out;
  }
}

/** The external tool under its exposed name; the entry's description stands in for a tool without one. */
function exposedTool(name: string, tool: Tool, config: ToolConfig): Tool {
  const description = tool.description ?? config.description;
  return {
    ...tool,
    name,
    ...(description === undefined ? {} : { description }),
  };
}

/** The SDK's `MCP error <code>: ` prefixes (each hop adds one; the code travels separately). */
function stripPrefix(message: string): string {
  return message.replace(/^(MCP error -?\d+: )+/, '');
}
