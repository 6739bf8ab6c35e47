// MCP over HTTP+SSE at /v1/mcp/sse: the SDK Client + SSEClientTransport and raw HTTP against a real floe with API keys.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { openSseStream, type RawStream } from '../helpers/raw-sse.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RO_KEY = 'ro-k3y-Alpha-0001';
const RW_KEY = 'rw-k3y-Bravo-0002';
const EXPIRY_MS = 400;
let srv: TestServer;
let sseUrl: URL;
const clients: Client[] = [];

before(async () => {
  const dir = await makeTempDir();
  const people = await writePeople(join(dir, 'people.parquet'));
  const big = await writeBig(join(dir, 'big.parquet'), 100);
  srv = await startTestServer(
    [
      { name: 'people', from: `file:${people}` },
      { name: 'big', from: `file:${big}` },
    ],
    {
      runtime: { auth: { 'api-key': { enabled: true, keys: [`${RO_KEY}:ro`, `${RW_KEY}:rw`] } } },
      mcpSessionTimeoutMs: EXPIRY_MS,
      mcpKeepAliveMs: 50,
    },
  );
  sseUrl = new URL(`${srv.base}/v1/mcp/sse`);
});
after(async () => {
  for (const c of clients) await c.close();
  await srv.close();
});

/** The `mcp-protocol-version` header of the client's POSTs (it sends the negotiated version after initialize). */
const postedVersions: (string | null)[] = [];
const recordingFetch: typeof fetch = (url, init) => {
  if (init?.method === 'POST') postedVersions.push(new Headers(init.headers).get('mcp-protocol-version'));
  return fetch(url, init);
};

async function connect(key = RO_KEY): Promise<Client> {
  const transport = new SSEClientTransport(sseUrl, {
    requestInit: { headers: { 'X-API-Key': key } },
    fetch: recordingFetch,
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type RpcError = { error: { code: number; message: string } };
type Result = { content: { type: string; text: string }[]; isError?: boolean };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

function json(result: Result): unknown {
  assert.equal(result.isError, undefined, result.content[0]?.text);
  return JSON.parse(result.content[0]?.text ?? '');
}

function openRaw(headers: Record<string, string> = { 'X-API-Key': RO_KEY }, path = '/v1/mcp/sse'): Promise<RawStream> {
  return openSseStream(new URL(path, srv.base), headers);
}

async function rawPost(id: string | null, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const query = id === null ? '' : `?sessionId=${id}`;
  return fetch(`${srv.base}/v1/mcp/sse${query}`, {
    method: 'POST',
    headers: { 'X-API-Key': RO_KEY, 'Content-Type': 'application/json', ...headers },
    body,
  });
}

const rpc = (id: number, method: string, params: unknown = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('SSE transport with the SDK client', () => {
  it('initializes with the latest protocol, lists the built-in tools and runs each of them', async () => {
    postedVersions.length = 0;
    const client = await connect();
    assert.equal(client.getServerVersion()?.name, 'floe');
    const { tools } = await client.listTools();
    assert.equal(postedVersions.at(-1), LATEST_PROTOCOL_VERSION);
    assert.deepEqual(
      tools.map((t) => t.name),
      ['sql', 'list_datasets', 'table_schema', 'sample', 'search'],
    );
    assert.deepEqual(json(await call(client, 'sql', { query: 'SELECT max(id) AS m FROM big' })), [{ m: 99 }]);
    const datasets = json(await call(client, 'list_datasets', {})) as { name: string }[];
    assert.deepEqual(
      datasets.map((d) => d.name),
      ['people', 'big'],
    );
    const schema = json(await call(client, 'table_schema', { dataset: 'big' })) as { columns: { name: string }[] };
    assert.ok(schema.columns.some((c) => c.name === 'id'));
    const sample = json(await call(client, 'sample', { dataset: 'big', method: 'top_n', order_by: 'id', limit: 2 }));
    assert.deepEqual(
      (sample as { id: number }[]).map((r) => r.id),
      [99, 98],
    );
  });

  it('error codes: -32601 unknown tool, -32602 bad names, isError for bad SQL and a read-only write', async () => {
    const client = await connect();
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), { code: -32601 });
    await assert.rejects(client.callTool({ name: 'x'.repeat(257), arguments: {} }), { code: -32602 });
    await assert.rejects(client.callTool({ name: 'has space', arguments: {} }), { code: -32602 });
    const bad = await call(client, 'sql', { query: 'SELEC 1' });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]?.text ?? '', /query failed \(parse\)/);
    const write = await call(client, 'sql', { query: 'INSERT INTO big VALUES (1)' });
    assert.equal(write.isError, true);
    assert.match(write.content[0]?.text ?? '', /forbidden/);
  });
});

describe('SSE transport on the wire', () => {
  it('headers, the endpoint event first, keep-alive comments; POST 202 with the answer on the stream', async () => {
    const stream = await openRaw();
    assert.equal(stream.res.statusCode, 200);
    assert.equal(stream.res.headers['content-type'], 'text/event-stream');
    assert.equal(stream.res.headers['cache-control'], 'no-cache');
    assert.equal(stream.res.headers.connection, 'keep-alive');
    const [, id] = await stream.until(/^event: endpoint\ndata: \/v1\/mcp\/sse\?sessionId=([0-9a-f-]{36})\n\n/);
    await stream.until(/: ping\n\n/);
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    const posted = await rawPost(id as string, rpc(1, 'initialize', init));
    assert.equal(posted.status, 202);
    assert.equal(await posted.text(), 'Accepted');
    const [, data] = await stream.until(/event: message\ndata: (.*)\n\n/);
    const answer = JSON.parse(data as string);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.protocolVersion, '2024-11-05');
    assert.deepEqual(answer.result.serverInfo, { name: 'floe', version: '0.1.0' });
    stream.close();
  });

  it('a client asking for the latest version gets it', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    const init = {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'r', version: '1' },
    };
    assert.equal((await rawPost(id as string, rpc(1, 'initialize', init))).status, 202);
    const [, data] = await stream.until(/event: message\ndata: (.*)\n\n/);
    assert.equal(JSON.parse(data as string).result.protocolVersion, LATEST_PROTOCOL_VERSION);
    stream.close();
  });

  it('404 for an unknown session and for one another key opened; 400 without sessionId or a JSON-RPC body', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    const unknown = await rawPost('00000000-0000-4000-8000-000000000000', rpc(1, 'tools/list'));
    assert.equal(unknown.status, 404);
    assert.deepEqual(((await unknown.json()) as RpcError).error.code, -32001);
    assert.equal((await rawPost(id as string, rpc(1, 'tools/list'), { 'X-API-Key': RW_KEY })).status, 404);
    assert.equal((await rawPost(null, rpc(1, 'tools/list'))).status, 400);
    const notJson = await rawPost(id as string, '{"jsonrpc":');
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as RpcError).error.code, -32700);
    const notRpc = await rawPost(id as string, '[1, 2]');
    assert.equal(notRpc.status, 400);
    assert.equal(((await notRpc.json()) as RpcError).error.code, -32600);
    assert.equal((await rawPost(id as string, rpc(2, 'tools/list'))).status, 202);
    stream.close();
  });

  it('401 without a key on GET and POST', async () => {
    const get = await fetch(sseUrl, { headers: { Accept: 'text/event-stream' } });
    assert.equal(get.status, 401);
    const post = await fetch(`${sseUrl}?sessionId=x`, { method: 'POST', body: rpc(1, 'tools/list') });
    assert.equal(post.status, 401);
  });

  it('a session without a POST for the time-out expires: its stream ends and its id is 404', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    // POSTs keep it alive past the time-out.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, EXPIRY_MS / 2));
      assert.equal((await rawPost(id as string, rpc(i, 'tools/list'))).status, 202);
    }
    await stream.ended;
    assert.equal((await rawPost(id as string, rpc(9, 'tools/list'))).status, 404);
  });

  it('a client that goes away ends its session', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    stream.close();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await rawPost(id as string, rpc(1, 'tools/list'))).status, 404);
  });

  it('GET and POST are the methods: PUT is 405 with Allow', async () => {
    const put = await fetch(sseUrl, { method: 'PUT', headers: { 'X-API-Key': RO_KEY } });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
  });
});

/** One request over node:http, where Host can be set. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, srv.base), { method, headers: { 'X-API-Key': RO_KEY, ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.end(method === 'POST' ? body : undefined);
  });
}

/** A JSON-RPC notification whose JSON is exactly `size` bytes. */
function notificationOfSize(size: number): string {
  const empty = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/pad', params: { pad: '' } });
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/pad',
    params: { pad: 'a'.repeat(size - empty.length) },
  });
}

/** A JSON-RPC notification nested `depth` levels deep (the message object is level 1, params level 2). */
function notificationOfDepth(depth: number): string {
  const arrays = depth - 2;
  return `{"jsonrpc":"2.0","method":"notifications/deep","params":{"a":${'['.repeat(arrays)}${']'.repeat(arrays)}}}`;
}

const STREAMABLE_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('§8 limits on both transports', () => {
  it('1 MiB is accepted, 1 MiB + 1 byte is 413 (SSE and /v1/mcp)', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    const mib = 1024 * 1024;
    assert.equal(Buffer.byteLength(notificationOfSize(mib)), mib);
    assert.equal((await rawPost(id as string, notificationOfSize(mib))).status, 202);
    assert.equal((await rawPost(id as string, notificationOfSize(mib + 1))).status, 413);
    const streamable = await fetch(`${srv.base}/v1/mcp`, {
      method: 'POST',
      headers: { 'X-API-Key': RO_KEY, ...STREAMABLE_HEADERS },
      body: notificationOfSize(mib + 1),
    });
    assert.equal(streamable.status, 413);
    stream.close();
  });

  it('JSON nested 32 levels is accepted, 33 is 400 with a -32600 JSON-RPC body (SSE and /v1/mcp)', async () => {
    const stream = await openRaw();
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    assert.equal((await rawPost(id as string, notificationOfDepth(32))).status, 202);
    const deep = await rawPost(id as string, notificationOfDepth(33));
    assert.equal(deep.status, 400);
    assert.equal(deep.headers.get('content-type'), 'application/json');
    const body = (await deep.json()) as RpcError & { jsonrpc: string; id: null };
    assert.deepEqual(
      { jsonrpc: body.jsonrpc, code: body.error.code, id: body.id },
      { jsonrpc: '2.0', code: -32600, id: null },
    );
    assert.match(body.error.message, /deeper than 32 levels/);
    const streamable = await fetch(`${srv.base}/v1/mcp`, {
      method: 'POST',
      headers: { 'X-API-Key': RO_KEY, ...STREAMABLE_HEADERS },
      body: notificationOfDepth(33),
    });
    assert.equal(streamable.status, 400);
    assert.equal(((await streamable.json()) as RpcError).error.code, -32600);
    stream.close();
  });
});

describe('DNS-rebinding guard', () => {
  it('a Host that is not local or listed is 403 naming runtime.mcp.allowed_hosts, on every MCP route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/mcp/sse'],
      ['POST', '/v1/mcp/sse?sessionId=x'],
      ['POST', '/v1/mcp'],
      ['GET', '/v1/mcp'],
      ['DELETE', '/v1/mcp'],
    ] as const) {
      const res = await rawRequest(method, path, { Host: 'evil.example:8090', ...STREAMABLE_HEADERS }, rpc(1, 'x'));
      assert.equal(res.status, 403, `${method} ${path}`);
      const body = JSON.parse(res.body) as RpcError;
      assert.equal(body.error.code, -32000);
      assert.match(body.error.message, /Host 'evil\.example:8090' is not allowed.*runtime\.mcp\.allowed_hosts/);
      assert.ok(!res.body.includes(RO_KEY));
    }
    const local = await rawRequest('POST', '/v1/mcp/sse?sessionId=x', { Host: 'localhost:1' }, rpc(1, 'tools/list'));
    assert.equal(local.status, 404);
  });

  it('an Origin that is not local or in runtime.cors.allowed_origins is 403; a local one passes', async () => {
    const origin = { Origin: 'https://evil.example', 'Content-Type': 'application/json' };
    const evil = await rawRequest('POST', '/v1/mcp/sse?sessionId=x', origin, rpc(1, 'x'));
    assert.equal(evil.status, 403);
    assert.match(evil.body, /Origin 'https:\/\/evil\.example' is not allowed.*runtime\.cors\.allowed_origins/);
    const local = await rawRequest('POST', '/v1/mcp', { Origin: 'http://localhost:3000', ...STREAMABLE_HEADERS }, '{');
    assert.equal(local.status, 400);
  });

  it('without a key the gate answers first: 401', async () => {
    const res = await rawRequest('GET', '/v1/mcp/sse', { 'X-API-Key': '', Host: 'evil.example' });
    assert.equal(res.status, 401);
  });
});

describe('Streamable HTTP session expiry', () => {
  it('a session without requests for the time-out is 404', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.base}/v1/mcp`), {
      requestInit: { headers: { 'X-API-Key': RO_KEY } },
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    await client.listTools();
    await new Promise((r) => setTimeout(r, EXPIRY_MS + 300));
    const res = await fetch(`${srv.base}/v1/mcp`, {
      method: 'POST',
      headers: { 'X-API-Key': RO_KEY, 'Mcp-Session-Id': transport.sessionId ?? '', ...STREAMABLE_HEADERS },
      body: rpc(5, 'tools/list'),
    });
    assert.equal(res.status, 404);
  });
});

describe('headless MCP inspector over SSE', () => {
  const inspector = (args: string[]) =>
    new Promise<unknown>((resolve, reject) => {
      const base = ['index.js', `${srv.base}/v1/mcp/sse`, '--transport', 'sse', '--header', `X-API-Key: ${RO_KEY}`];
      // Its own folder: it tests for `../package.json` from the working directory and imports it from its module.
      const cwd = 'node_modules/@modelcontextprotocol/inspector-cli/build';
      execFile(process.execPath, [...base, ...args], { cwd, timeout: 20_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      });
    });

  it('tools/list names the built-in tools', async () => {
    const out = (await inspector(['--method', 'tools/list'])) as { tools: { name: string }[] };
    assert.deepEqual(
      out.tools.map((t) => t.name),
      ['sql', 'list_datasets', 'table_schema', 'sample', 'search'],
    );
  });

  it('tools/call runs sql', async () => {
    const args = ['--method', 'tools/call', '--tool-name', 'sql', '--tool-arg', 'query=select 1 as x'];
    const out = (await inspector(args)) as { content: { text: string }[] };
    assert.deepEqual(JSON.parse(out.content[0]?.text ?? ''), [{ x: 1 }]);
  });
});
