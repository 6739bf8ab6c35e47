// `createMcpServer`: one MCP session's SDK `Server` with floe's built-in tools (any transport connects to it).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BUILTIN_RUNS, BUILTIN_TOOLS } from './builtin-tools.js';
import type { McpSession } from './mcp-session.js';
import { checkToolName, unknownTool } from './tool-name.js';

export const MCP_SERVER_INFO = { name: 'floe', version: '0.1.0' } as const;

/**
 * A low-level SDK `Server` (not `McpServer`, which warns about names holding `/`, which proxied tools will use)
 * answering initialize, tools/list and tools/call for `session`. Unknown tool → -32601; a name breaking §8's
 * rules or bad arguments → -32602; a failed query → a result with `isError` (see tool-result.ts). A name
 * `<entry>/<tool>` of a `tools:` entry is forwarded to that external server (proxy/proxy-server.ts).
 */
export function createMcpServer(session: McpSession): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...BUILTIN_TOOLS, ...(session.proxied?.list() ?? [])],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    checkToolName(name);
    if (session.proxied?.owns(name)) return session.proxied.call(name, args ?? {}, extra.signal);
    const run = BUILTIN_RUNS.get(name);
    if (run === undefined) throw unknownTool(name);
    return run(session, args ?? {}, extra.signal);
  });
  return server;
}
