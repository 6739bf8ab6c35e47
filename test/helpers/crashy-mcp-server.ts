// A tiny MCP server over stdio for the proxy tests: `echo`, `env`, `fail`, `crash` (exits mid-call), `hang` (never answers).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'crashy', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes the message', inputSchema: { message: z.string() } },
  async ({ message }) => ({ content: [{ type: 'text', text: `crashy: ${message}` }] }),
);
server.registerTool(
  'env',
  { description: 'The value of one environment variable (null when unset)', inputSchema: { name: z.string() } },
  async ({ name }) => ({ content: [{ type: 'text', text: JSON.stringify(process.env[name] ?? null) }] }),
);
server.registerTool('fail', { description: 'Answers with an isError result' }, async () => ({
  content: [{ type: 'text', text: 'it failed on purpose' }],
  isError: true,
}));
server.registerTool('crash', { description: 'Exits the process before answering' }, async () => {
  process.exit(3);
});
server.registerTool(
  'hang',
  { description: 'Never answers (a cancellation is reported on stderr)' },
  (extra) =>
    new Promise(() => {
      extra.signal.addEventListener('abort', () => process.stderr.write('crashy: hang cancelled\n'));
    }),
);

// CRASHY_STUBBORN=1: outlives a closed stdin and ignores SIGTERM (only SIGKILL ends it), as a wedged server would.
if (process.env.CRASHY_STUBBORN === '1') {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1000);
}

process.stderr.write(`crashy started pid=${process.pid}\n`);
await server.connect(new StdioServerTransport());
