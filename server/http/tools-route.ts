// GET /v1/tools (Spice v1.x: every callable MCP tool) and GET /v1/mcp/servers (the proxied MCP servers' state).
import { BUILTIN_TOOLS } from '../mcp/builtin-tools.js';
import type { ProxyTools } from '../mcp/proxy/proxy-tools.js';
import { JSON_CONTENT_TYPE } from './dataset-list.js';
import { Reply } from './respond.js';
import type { HttpResponse } from './uws-app.js';

export interface ToolsRouteContext {
  /** The manifest's proxied MCP servers; absent: none. */
  readonly proxied?: ProxyTools;
}

/**
 * 200 `[{name, description, parameters}]`: the built-in tools, then the tools of the proxied servers that are
 * ready now (`<entry>/<tool>`); `parameters` is the tool's JSON Schema (`inputSchema`).
 */
export function handleListTools(res: HttpResponse, ctx: ToolsRouteContext): void {
  const tools = [...BUILTIN_TOOLS, ...(ctx.proxied?.list() ?? [])].map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.inputSchema,
  }));
  new Reply(res).send(200, JSON_CONTENT_TYPE, JSON.stringify(tools));
}

/**
 * 200 `[{name, from, status, tools, error_message?}]` per `tools:` entry: `from` without credentials or query,
 * `status` `connecting | ready | error`, `tools` the count exposed now, `error_message` why it is not ready.
 */
export function handleListMcpServers(res: HttpResponse, ctx: ToolsRouteContext): void {
  new Reply(res).send(200, JSON_CONTENT_TYPE, JSON.stringify(ctx.proxied?.states() ?? []));
}
