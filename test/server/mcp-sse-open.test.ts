// MCP with auth off: sessions not bound to the caller's address, runtime.mcp.allowed_hosts ["*"], and close() ending open streams.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { openSseStream, type RawStream } from '../helpers/raw-sse.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;

before(async () => {
  const dir = await makeTempDir();
  const big = await writeBig(join(dir, 'big.parquet'), 10);
  srv = await startTestServer([{ name: 'big', from: `file:${big}` }], {
    // A rate limit with auth off makes each caller's principal its address (`addr:<ip>`).
    runtime: { http: { rate_limit: { requests_per_second: 1000 } }, mcp: { allowed_hosts: ['*'] } },
  });
});
after(() => srv.close());

/** A GET that stays open, from `localAddress`, with `headers`. */
function openStream(path: string, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<RawStream> {
  return openSseStream(new URL(path, srv.base), headers, localAddress);
}

/** A POST from `localAddress`; resolves with the status. */
function postFrom(localAddress: string, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, srv.base), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      localAddress,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.end(body);
  });
}

const rpc = (id: number, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} });

describe('MCP with auth off', () => {
  it('allowed_hosts ["*"]: any Host may open a stream', async () => {
    const stream = await openStream('/v1/mcp/sse', { Host: 'floe.internal.example:8090' });
    assert.equal(stream.res.statusCode, 200);
    await stream.until(/sessionId=/);
    stream.res.destroy();
  });

  it('a session is not bound to the address that opened it (another source address may use it)', async () => {
    const stream = await openStream('/v1/mcp/sse', {}, '127.0.0.1');
    const [, id] = await stream.until(/sessionId=([0-9a-f-]{36})/);
    assert.equal(await postFrom('127.0.0.2', `/v1/mcp/sse?sessionId=${id}`, rpc(1, 'tools/list')), 202);
    await stream.until(/event: message\ndata: .*"tools":\[\{"name":"sql"/);
    stream.res.destroy();
  });

  it('close() ends open SSE and Streamable HTTP streams and returns promptly', async () => {
    const sse = await openStream('/v1/mcp/sse', {});
    await sse.until(/sessionId=/);
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    const opened = await fetch(`${srv.base}/v1/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init }),
    });
    await opened.text();
    const streamable = await openStream('/v1/mcp', {
      'Mcp-Session-Id': opened.headers.get('mcp-session-id') ?? '',
      'Mcp-Protocol-Version': '2025-06-18',
    });
    assert.equal(streamable.res.statusCode, 200);
    const started = Date.now();
    await srv.close();
    // Without closing the sessions, the drain would wait for the streams: runtime.shutdown_timeout, 10 s.
    assert.ok(Date.now() - started < 5000, `close took ${Date.now() - started} ms`);
    await Promise.all([sse.ended, streamable.ended]);
  });
});
