// A tiny MCP server over stdio for the proxy tests: `echo`, `env`, `fail`, `consent`, `crash` (exits mid-call), `hang` (never answers).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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
// McpServer turns other errors into isError results; a URL elicitation is its one JSON-RPC error from a tool.
server.registerTool(
  'consent',
  { description: 'Answers JSON-RPC error -32042 (URL elicitation required)' },
  async () => {
    const elicitation = { mode: 'url', elicitationId: 'e1', url: 'https://example.com/consent', message: 'Consent' };
    throw new McpError(ErrorCode.UrlElicitationRequired, 'consent needed', { elicitations: [elicitation] });
  },
);
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
if (process.env.CRASHY_STUBBORN === '1' && process.argv.includes('--serve')) {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1000);
}

// Only with --serve: `node --test dist/test/` runs every file under test/, and this one would wait on stdin forever.
if (process.argv.includes('--serve')) {
  process.stderr.write(`crashy started pid=${process.pid}\n`);
  await server.connect(new StdioServerTransport());
}
