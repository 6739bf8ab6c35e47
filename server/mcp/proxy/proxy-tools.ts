// `ProxyTools`: every `tools:` entry's external MCP server; lists their tools, routes `<entry>/<tool>` calls, reports state.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolConfig } from '../../config/tool-config.js';
import { type Backoff, DEFAULT_BACKOFF } from '../../datasets/backoff.js';
import { unknownTool } from '../tool-name.js';
import { ProxyServer, type ProxyStatus } from './proxy-server.js';

export interface ProxyToolsOptions {
  /** Delays between a failed connect and its retries; default about 1 s doubling up to 1 min. */
  readonly backoff?: Backoff;
  /** Liveness ping interval of a ready server; default 30 s (Spice's heartbeat). */
  readonly heartbeatMs?: number;
  log(line: string): void;
  /** Child stderr lines and transport errors (floe's debug output). */
  debug(line: string): void;
}

/** One entry's state as GET /v1/mcp/servers shows it. */
export interface ProxyServerState {
  readonly name: string;
  /** The executable, or the URL without credentials and query. */
  readonly from: string;
  readonly status: ProxyStatus;
  readonly tools: number;
  readonly error_message?: string;
}

export const DEFAULT_HEARTBEAT_MS = 30_000;

/**
 * `start()` returns at once (readiness never waits for external servers). `close()` closes every client and ends
 * every child; a process exit (even without close) kills children still running, so none outlives floe.
 */
export class ProxyTools {
  readonly #servers: ReadonlyMap<string, ProxyServer>;
  readonly #children = new Set<number>();
  readonly #onExit = () => {
    for (const pid of this.#children) killQuietly(pid);
  };
  #closed: Promise<void> | null = null;

  constructor(configs: readonly ToolConfig[], options: ProxyToolsOptions) {
    const serverOptions = {
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      log: options.log,
      debug: options.debug,
      children: this.#children,
    };
    this.#servers = new Map(configs.map((c) => [c.name, new ProxyServer(c, serverOptions)]));
  }

  start(): void {
    if (this.#servers.size === 0 || this.#closed !== null) return;
    process.on('exit', this.#onExit);
    for (const server of this.#servers.values()) server.start();
  }

  /** The tools of the ready servers, as `<entry>/<tool>`, in manifest order. */
  list(): Tool[] {
    return [...this.#servers.values()].flatMap((s) => s.tools);
  }

  /** Whether `name` is a proxied tool's name (`<entry>/...` of a declared entry): `call` answers it. */
  owns(name: string): boolean {
    const slash = name.indexOf('/');
    return slash > 0 && this.#servers.has(name.slice(0, slash));
  }

  /** Forwards a call of `<entry>/<tool>`; an unknown entry is -32601 (see `ProxyServer.call` for the rest). */
  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const slash = name.indexOf('/');
    const server = slash > 0 ? this.#servers.get(name.slice(0, slash)) : undefined;
    if (server === undefined) throw unknownTool(name);
    return server.call(name.slice(slash + 1), args, signal);
  }

  states(): ProxyServerState[] {
    return [...this.#servers.values()].map((s) => ({
      name: s.config.name,
      from: s.config.from,
      status: s.status,
      tools: s.tools.length,
      ...(s.errorMessage === null ? {} : { error_message: s.errorMessage }),
    }));
  }

  /** The pids of the stdio children running now (tests check they are gone after close). */
  childPids(): number[] {
    return [...this.#children];
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await Promise.all([...this.#servers.values()].map((s) => s.close()));
      this.#onExit();
      process.off('exit', this.#onExit);
    })();
    return this.#closed;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
