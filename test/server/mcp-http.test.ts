// MCP Streamable HTTP at /v1/mcp: the SDK Client + StreamableHTTPClientTransport against a real floe with API keys.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RO_KEY = 'ro-k3y-Alpha-0001';
const RW_KEY = 'rw-k3y-Bravo-0002';
let srv: TestServer;
let endpoint: URL;

before(async () => {
  const dir = await makeTempDir();
  const big = await writeBig(join(dir, 'big.parquet'), 100);
  srv = await startTestServer([{ name: 'big', from: `file:${big}` }], {
    runtime: { auth: { 'api-key': { enabled: true, keys: [`${RO_KEY}:ro`, `${RW_KEY}:rw`] } } },
  });
  endpoint = new URL(`${srv.base}/v1/mcp`);
});
after(() => srv.close());

async function connect(key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'X-API-Key': key } } });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

type Result = { content: { type: string; text: string }[]; isError?: boolean };

describe('Streamable HTTP /v1/mcp', () => {
  it('initialize gives a session id; tools/list and sql work; DELETE ends the session (then 404)', async () => {
    const { client, transport } = await connect(RO_KEY);
    const sessionId = transport.sessionId;
    assert.match(sessionId ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(client.getServerVersion()?.name, 'floe');
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['sql', 'list_datasets', 'table_schema', 'sample', 'search'],
    );
    const r = (await client.callTool({ name: 'sql', arguments: { query: 'SELECT max(id) AS m FROM big' } })) as Result;
    assert.deepEqual(JSON.parse(r.content[0]?.text ?? ''), [{ m: 99 }]);
    await transport.terminateSession();
    const after = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'X-API-Key': RO_KEY,
        'Mcp-Session-Id': sessionId ?? '',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Protocol-Version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
    await client.close();
  });

  it('a read-only key cannot write through sql; an unknown tool is -32601 over HTTP too', async () => {
    const { client } = await connect(RO_KEY);
    const r = (await client.callTool({ name: 'sql', arguments: { query: 'INSERT INTO big VALUES (1)' } })) as Result;
    assert.equal(r.isError, true);
    assert.match(r.content[0]?.text ?? '', /forbidden/);
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), { code: -32601 });
    await client.close();
  });

  it('without a key: 401; a session id opened by another key: 404; no session id on GET: 400', async () => {
    const none = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(none.status, 401);
    const { client, transport } = await connect(RO_KEY);
    const stolen = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'X-API-Key': RW_KEY,
        'Mcp-Session-Id': transport.sessionId ?? '',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(stolen.status, 404);
    const get = await fetch(endpoint, { headers: { 'X-API-Key': RO_KEY, Accept: 'text/event-stream' } });
    assert.equal(get.status, 400);
    await client.close();
  });

  it('a non-initialize POST without a session is 400; PUT is 405', async () => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'X-API-Key': RO_KEY,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 400);
    const put = await fetch(endpoint, { method: 'PUT', headers: { 'X-API-Key': RO_KEY } });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
  });
});
