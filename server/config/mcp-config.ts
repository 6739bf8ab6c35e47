// `mcpConfig`: `runtime.mcp {session_timeout, allowed_hosts}` (Spice's section) as a zod schema and settings.
import { z } from 'zod';
import { parseByteSize, parseDuration } from './results-cache-config.js';

/** How the MCP endpoints (/v1/mcp and /v1/mcp/sse) treat sessions and Host headers. */
export interface McpConfig {
  /** A session with no request naming it for this long is closed; its id then answers 404 (contract §8: 1 h). */
  readonly sessionTimeoutMs: number;
  /**
   * Host names (lower case, no port) accepted in the `Host` header besides localhost, 127.0.0.1 and ::1 (the
   * DNS-rebinding guard); `['*']` turns the check off.
   */
  readonly allowedHosts: readonly string[];
  /**
   * The largest answer of the `sql` tool (its JSON rows); past it the query is cancelled and the tool answers an
   * `isError` result asking for a LIMIT. A whole answer is held in memory and sent as one message, and a model reads
   * far less, so an unbounded `SELECT *` must not be able to exhaust the server.
   */
  readonly maxResultBytes: number;
  /** Open sessions per transport; one more closes the least recently used idle session (floe's key). */
  readonly maxSessions: number;
}

export const DEFAULT_MCP_CONFIG: McpConfig = {
  sessionTimeoutMs: 60 * 60_000,
  allowedHosts: [],
  maxResultBytes: 64 * 1024 * 1024,
  maxSessions: 1000,
};

const byteSize = z.union([z.string(), z.number()]).check((ctx) => {
  const bytes = parseByteSize(ctx.value);
  if (bytes === null || bytes <= 0) {
    ctx.issues.push({ code: 'custom', message: `invalid size '${ctx.value}' (e.g. 16MiB)`, input: ctx.value });
  }
});

const positiveDuration = z.union([z.string(), z.number()]).check((ctx) => {
  const ms = parseDuration(ctx.value);
  if (ms === null || ms <= 0) {
    ctx.issues.push({ code: 'custom', message: `invalid duration '${ctx.value}' (e.g. 30s, 1h)`, input: ctx.value });
  }
});

const hostName = z.string().check((ctx) => {
  if (ctx.value === '*' || /^[A-Za-z0-9._:[\]-]+$/.test(ctx.value)) return;
  ctx.issues.push({
    code: 'custom',
    message: `'${ctx.value}' is not a host name (e.g. floe.example.com)`,
    input: ctx.value,
  });
});

export const mcpSchema = z.strictObject({
  session_timeout: positiveDuration.optional(),
  allowed_hosts: z.array(hostName).optional(),
  max_result_size: byteSize.optional(),
  max_sessions: z.number().int().positive().optional(),
});

/** The effective settings (values were validated by `mcpSchema`). */
export function mcpConfig(section: z.infer<typeof mcpSchema> | undefined): McpConfig {
  if (section === undefined) return DEFAULT_MCP_CONFIG;
  const timeout = section.session_timeout;
  return {
    sessionTimeoutMs: timeout === undefined ? DEFAULT_MCP_CONFIG.sessionTimeoutMs : (parseDuration(timeout) as number),
    allowedHosts: (section.allowed_hosts ?? []).map(hostOnly),
    maxResultBytes:
      section.max_result_size === undefined
        ? DEFAULT_MCP_CONFIG.maxResultBytes
        : (parseByteSize(section.max_result_size) as number),
    maxSessions: section.max_sessions ?? DEFAULT_MCP_CONFIG.maxSessions,
  };
}

/** `Floe.Example.com:8090` -> `floe.example.com`; `[::1]:80` -> `::1` (the form the guard compares). */
export function hostOnly(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const close = h.indexOf(']');
    return close === -1 ? h : h.slice(1, close);
  }
  const colon = h.indexOf(':');
  // Two colons or more: a bare IPv6 address (no port can be told apart).
  return colon === -1 || h.indexOf(':', colon + 1) !== -1 ? h : h.slice(0, colon);
}
