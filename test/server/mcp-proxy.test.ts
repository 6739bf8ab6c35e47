// Proxied MCP tools (`tools:`) against a real floe: server-everything over stdio and SSE, a crashing and a hanging
// server (test/helpers/crashy-mcp-server.ts), an unreachable URL; the SDK Client calls them through /v1/mcp.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secrets:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ProxyServerState } from '../../server/mcp/proxy/proxy-tools.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY = 'proxy-k3y-Alpha-0001';
const TOKEN = 'down-Secret-Token-0123456789';
const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const HERE = dirname(fileURLToPath(import.meta.url));
const CRASHY = join(HERE, '../helpers/crashy-mcp-server.js');
const MAIN = pathToFileURL(join(HERE, '../../server/main.js')).href;

type Result = { content: { type: string; text: string }[]; isError?: boolean };

let srv: TestServer;
let sseChild: ChildProcess;
let ssePort: number;
let client: Client;
const logLines: string[] = [];
const debugLines: string[] = [];

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  s.close();
  return port;
}

/** server-everything's SSE transport (GET /sse + POST /message) on `port`, resolved once it listens. */
async function startEverythingSse(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, 'sse'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      err += chunk;
      if (err.includes('Server is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything sse exited (${code}): ${err}`)));
  });
  return child;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${srv.base}${path}`, { headers: { 'X-API-Key': KEY } });
  assert.equal(res.status, 200);
  return (await res.json()) as T;
}

const servers = () => getJson<ProxyServerState[]>('/v1/mcp/servers');

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(await servers())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const isReady = async (names: string[]) => {
  const states = await servers();
  return names.every((n) => states.find((s) => s.name === n)?.status === 'ready');
};

/** How many cancellations of `crashy/hang` the external server reported on its stderr. */
const cancelled = () => debugLines.filter((l) => l.includes('crashy: hang cancelled')).length;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;

before(async () => {
  process.env.FLOE_PROXY_PARENT_ONLY = 'not-for-children';
  ssePort = await freePort();
  sseChild = await startEverythingSse(ssePort);
  const downPort = await freePort();
  const floePort = await freePort();
  srv = await startTestServer([], {
    runtime: { auth: { 'api-key': { enabled: true, keys: [KEY] } } },
    env: { DOWN_TOKEN: TOKEN },
    tools: [
      { name: 'every', from: 'mcp:node', params: { mcp_args: `${EVERYTHING} stdio` } },
      { name: 'everysse', from: `mcp:http://127.0.0.1:${ssePort}/sse` },
      {
        name: 'crashy',
        from: `mcp:${process.execPath}`,
        params: { mcp_args: [CRASHY, '--serve'], timeout: '1s' },
        env: { CRASHY_VAR: 'hello' },
      },
      // floe itself over Streamable HTTP, its key sent as auth_token (Authorization: Bearer).
      { name: 'self', from: `mcp:http://127.0.0.1:${floePort}/v1/mcp`, params: { auth_token: KEY } },
      {
        name: 'down',
        from: `mcp:http://127.0.0.1:${downPort}/mcp?key=\${secrets:DOWN_TOKEN}`,
        params: { auth_token: '${secrets:DOWN_TOKEN}', timeout: '500ms' },
      },
    ],
    toolRetry: { initialMs: 100, maxMs: 400 },
    port: floePort,
    // The `self` client's GET stream stays open: the drain would wait the whole default 10 s for it.
    drainMs: 500,
    log: (line) => logLines.push(line),
    debugLog: (line) => debugLines.push(line),
  });
  await waitFor('the proxied servers', () => isReady(['every', 'everysse', 'crashy', 'self']), 60_000);
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.base}/v1/mcp`), {
    requestInit: { headers: { 'X-API-Key': KEY } },
  });
  client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await srv?.close();
  sseChild?.kill();
});

describe('proxied MCP tools', () => {
  it('tools/list: the built-ins, then <entry>/<tool> of each connected server; none of the unreachable one', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.slice(0, 5), ['sql', 'list_datasets', 'table_schema', 'sample', 'search']);
    for (const n of ['every/echo', 'every/get-sum', 'everysse/echo', 'everysse/get-sum', 'crashy/hang', 'crashy/crash'])
      assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
    assert.ok(!names.some((n) => n.startsWith('down/')));
    const echo = tools.find((t) => t.name === 'every/echo');
    assert.equal(echo?.description, 'Echoes back the input string');
    assert.deepEqual(echo?.inputSchema.required, ['message']);
  });

  it('echo and get-sum of server-everything over stdio and over SSE', async () => {
    assert.deepEqual(await call('every/echo', { message: 'hi' }), { content: [{ type: 'text', text: 'Echo: hi' }] });
    assert.equal((await call('every/get-sum', { a: 2, b: 3 })).content[0]?.text, 'The sum of 2 and 3 is 5.');
    assert.equal((await call('everysse/echo', { message: 'sse' })).content[0]?.text, 'Echo: sse');
    assert.equal((await call('everysse/get-sum', { a: 40, b: 2 })).content[0]?.text, 'The sum of 40 and 2 is 42.');
  });

  it('Streamable HTTP with auth_token: floe proxies its own sql tool', async () => {
    assert.deepEqual(await call('self/sql', { query: 'SELECT 1 AS one' }), {
      content: [{ type: 'text', text: '[{"one":1}]' }],
    });
  });

  it("an external isError result is returned as is; env reaches the child, floe's own env does not", async () => {
    assert.deepEqual(await call('crashy/fail'), {
      content: [{ type: 'text', text: 'it failed on purpose' }],
      isError: true,
    });
    assert.equal((await call('crashy/env', { name: 'CRASHY_VAR' })).content[0]?.text, '"hello"');
    assert.equal((await call('crashy/env', { name: 'FLOE_PROXY_PARENT_ONLY' })).content[0]?.text, 'null');
    assert.ok(
      debugLines.some((l) => l.includes("'crashy' stderr: crashy started")),
      'stderr reaches the debug log',
    );
  });

  it('a call that never answers is an isError result after the entry time-out (1s); the server stays usable', async () => {
    const start = Date.now();
    const r = await call('crashy/hang');
    const ms = Date.now() - start;
    assert.deepEqual(r, { content: [{ type: 'text', text: 'tool crashy/hang timed out after 1s' }], isError: true });
    assert.ok(ms >= 900 && ms < 15_000, `took ${ms} ms`);
    await waitFor("the time-out's cancellation upstream", async () => cancelled() === 1, 10_000);
    assert.equal((await call('crashy/echo', { message: 'still' })).content[0]?.text, 'crashy: still');
  });

  it("the caller's cancellation aborts the forwarded call and reaches the external server", async () => {
    const before = cancelled();
    const ac = new AbortController();
    const pending = client.callTool({ name: 'crashy/hang', arguments: {} }, undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    await assert.rejects(pending);
    await waitFor('the cancellation upstream', async () => cancelled() > before, 10_000);
  });

  it('a server that exits mid-call: an isError result, the entry reconnects (a new process) and works again', async () => {
    const before = srv.server.tools.childPids();
    const r = await call('crashy/crash');
    assert.equal(r.isError, true);
    assert.match(r.content[0]?.text ?? '', /^tool crashy\/crash failed: MCP server 'crashy' closed the connection/);
    await waitFor('crashy to reconnect', () => isReady(['crashy']), 60_000);
    const now = srv.server.tools.childPids();
    assert.equal(now.length, before.length);
    assert.notDeepEqual(now, before);
    assert.equal((await call('crashy/echo', { message: 'back' })).content[0]?.text, 'crashy: back');
  });

  it('an HTTP server that goes away: the call is an isError result, the entry leaves ready, and returns with it', async () => {
    sseChild.kill();
    await once(sseChild, 'exit');
    const r = await call('everysse/echo', { message: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.content[0]?.text ?? '', /^tool everysse\/echo (failed|is unavailable)/);
    await waitFor(
      'everysse down',
      async () => (await servers()).find((s) => s.name === 'everysse')?.status !== 'ready',
    );
    sseChild = await startEverythingSse(ssePort);
    await waitFor('everysse back', () => isReady(['everysse']), 60_000);
    assert.equal((await call('everysse/echo', { message: 'again' })).content[0]?.text, 'Echo: again');
  });

  it('unknown tools are -32601; a down entry: isError saying why; a bad name: -32602; an external JSON-RPC error: relayed', async () => {
    await assert.rejects(call('crashy/nope'), { code: -32601 });
    await assert.rejects(call('nosuch/echo'), { code: -32601 });
    const down = await call('down/anything');
    assert.equal(down.isError, true);
    assert.match(
      down.content[0]?.text ?? '',
      /^tool down\/anything is unavailable: MCP server 'down' is (error|connecting)/,
    );
    assert.ok(!JSON.stringify(down).includes(TOKEN));
    await assert.rejects(call('every/echo!'), { code: -32602 });
    await assert.rejects(call('crashy/consent'), (e: { code: number; message: string; data?: unknown }) => {
      assert.equal(e.code, -32042);
      assert.match(e.message, /crashy\/consent: consent needed/);
      assert.deepEqual(
        (e.data as { elicitations: { url: string }[] }).elicitations[0]?.url,
        'https://example.com/consent',
      );
      return true;
    });
  });

  it('GET /v1/mcp/servers: each entry with status and tool count; the unreachable one in error, no secret', async () => {
    const states = await servers();
    assert.deepEqual(states.map((s) => [s.name, s.status]).slice(0, 4), [
      ['every', 'ready'],
      ['everysse', 'ready'],
      ['crashy', 'ready'],
      ['self', 'ready'],
    ]);
    const down = states[4] as ProxyServerState;
    // `connecting` while one of its retries runs; the last error stays until it connects.
    assert.match(down.status, /^(error|connecting)$/);
    assert.match(down.from, /^mcp:http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(down.tools, 0);
    assert.match(down.error_message ?? '', /^cannot connect: Streamable HTTP: .*; SSE: /);
    assert.equal(states[0]?.from, 'mcp:node');
    assert.ok((states[0]?.tools ?? 0) >= 2);
    for (const text of [JSON.stringify(states), ...logLines]) assert.ok(!text.includes(TOKEN), `secret in ${text}`);
    const anonymous = await fetch(`${srv.base}/v1/mcp/servers`);
    assert.equal(anonymous.status, 401);
  });

  it('GET /v1/tools: every callable tool as {name, description, parameters}; SQL still served', async () => {
    const tools = await getJson<{ name: string; description: string; parameters: { type: string } }[]>('/v1/tools');
    assert.equal(tools[0]?.name, 'sql');
    assert.equal(tools[0]?.parameters.type, 'object');
    const echo = tools.find((t) => t.name === 'everysse/echo');
    assert.equal(echo?.description, 'Echoes back the input string');
    const sql = await fetch(srv.sql, { method: 'POST', body: 'SELECT 1 AS one', headers: { 'X-API-Key': KEY } });
    assert.equal(sql.status, 200);
  });
});

describe('close()', () => {
  it('ends every child process', async () => {
    const pids = srv.server.tools.childPids();
    assert.equal(pids.length, 2);
    await client.close();
    await srv.close();
    assert.deepEqual(srv.server.tools.childPids(), []);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `pid ${pid} is alive`);
  });
});

describe('process exit', () => {
  it('a child ignoring stdin EOF and SIGTERM does not outlive a floe process that exits without close()', async () => {
    const manifest = {
      version: 'v1',
      kind: 'Spicepod',
      name: 'exit',
      datasets: [],
      tools: [
        {
          name: 'c',
          from: `mcp:${process.execPath}`,
          params: { mcp_args: [CRASHY, '--serve'] },
          env: { CRASHY_STUBBORN: '1' },
        },
      ],
    };
    const script = `
      import { startServer } from ${JSON.stringify(MAIN)};
      const s = await startServer({ manifest: ${JSON.stringify(manifest)}, port: 0, workers: 1, log: () => {} });
      while (s.tools.states()[0].status !== 'ready') await new Promise((r) => setTimeout(r, 20));
      process.stdout.write(String(s.tools.childPids()[0]));
      process.exit(0);`;
    const floe = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    floe.stdout?.on('data', (chunk) => {
      out += chunk;
    });
    await once(floe, 'exit');
    const pid = Number(out);
    assert.ok(pid > 0, `no pid printed: '${out}'`);
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(isAlive(pid), false, `pid ${pid} outlived floe`);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
