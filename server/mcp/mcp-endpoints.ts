// `createMcpEndpoints`: what the MCP routes share: both transports' sessions and the Host/Origin guard.
import { createHostGuard, type HostGuard } from './host-guard.js';
import { McpSessions } from './mcp-sessions.js';
import { SseSessions, type SseSessionsOptions } from './sse-sessions.js';

export interface McpEndpoints {
  /** Streamable HTTP at /v1/mcp. */
  readonly streamable: McpSessions;
  /** HTTP+SSE at /v1/mcp/sse. */
  readonly sse: SseSessions;
  /** The DNS-rebinding check every MCP request passes. */
  readonly guard: HostGuard;
  /** Closes every session of both transports, ending their streams (the server's `close`). */
  closeAll(): Promise<void>;
}

export interface McpEndpointsOptions extends SseSessionsOptions {
  /** `runtime.mcp.allowed_hosts`; default none but the local names. */
  readonly allowedHosts?: readonly string[];
  /** `runtime.cors.allowed_origins`; default none but the local origins. */
  readonly allowedOrigins?: readonly string[];
}

export function createMcpEndpoints(options: McpEndpointsOptions): McpEndpoints {
  const streamable = new McpSessions(options);
  const sse = new SseSessions(options);
  return {
    streamable,
    sse,
    guard: createHostGuard(options.allowedHosts ?? [], options.allowedOrigins ?? []),
    closeAll: async () => {
      await Promise.all([streamable.closeAll(), sse.closeAll()]);
    },
  };
}
