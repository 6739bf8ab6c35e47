// `connectClient`: one MCP client session with an external server over stdio, legacy SSE or Streamable HTTP.
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolConfig } from '../../config/tool-config.js';
import { MCP_SERVER_INFO } from '../mcp-server.js';

export interface ConnectHooks {
  /** Called with each transport before it starts, so a close() during the connect can stop it (and its child). */
  onTransport(transport: Transport): void;
  /** A stdio child's stderr (piped, never inherited). */
  onStderr(stderr: Stream): void;
}

/**
 * Connects a new `Client` (initialize, within `setupTimeoutMs`). stdio: the executable with `mcp_args`, the SDK's
 * default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus `env`, in the manifest's folder. A URL whose path
 * ends in `/sse`: legacy SSE. Any other URL: Streamable HTTP, then SSE if that fails (as the SDK documents for
 * servers of both eras); the error names both attempts.
 */
export async function connectClient(config: ToolConfig, hooks: ConnectHooks): Promise<Client> {
  const { source } = config;
  if (source.kind === 'stdio') {
    const transport = new StdioClientTransport({
      command: source.command,
      args: [...source.args],
      env: { ...config.env },
      cwd: source.cwd,
      stderr: 'pipe',
    });
    const stderr = transport.stderr;
    if (stderr !== null) hooks.onStderr(stderr);
    return connectOver(transport, config, hooks);
  }
  const url = new URL(source.url);
  const requestInit = { headers: { ...config.headers } };
  if (source.transport === 'sse') return connectOver(new SSEClientTransport(url, { requestInit }), config, hooks);
  try {
    return await connectOver(new StreamableHTTPClientTransport(url, { requestInit }), config, hooks);
  } catch (streamable) {
    try {
      return await connectOver(new SSEClientTransport(url, { requestInit }), config, hooks);
    } catch (sse) {
      throw new Error(`Streamable HTTP: ${messageOf(streamable)}; SSE: ${messageOf(sse)}`);
    }
  }
}

/**
 * The bound of initialize, each tools/list page and a ping: the entry's `timeout` is a tool call's, and a child that
 * starts slowly (npx, a loaded machine) must not fail its connect because calls are meant to be short.
 */
export const SETUP_TIMEOUT_MS = 30_000;

export function setupTimeoutMs(config: ToolConfig): number {
  return Math.max(config.timeoutMs, SETUP_TIMEOUT_MS);
}

async function connectOver(transport: Transport, config: ToolConfig, hooks: ConnectHooks): Promise<Client> {
  hooks.onTransport(transport);
  const client = new Client({ name: MCP_SERVER_INFO.name, version: MCP_SERVER_INFO.version });
  try {
    await client.connect(transport, { timeout: setupTimeoutMs(config) });
    return client;
  } catch (e) {
    await client.close().catch(() => {});
    throw e;
  }
}

/** An error's message, with the cause fetch hides behind "fetch failed" (ECONNREFUSED, ENOTFOUND, ...). */
export function messageOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const code = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : undefined;
  return code === undefined || e.message.includes(code) ? e.message : `${e.message} (${code})`;
}
