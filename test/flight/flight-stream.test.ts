// DoGet streaming on a larger result: gRPC flow control holds the query while the client does not read, a
// cancelled call ends the query, and 8 concurrent DoGets all complete with the right row counts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { doGet, type RawClient, rawClient, waitFor } from './flight-client.js';

const ROWS = 200_000;
let srv: TestServer;
let raw: RawClient;

before(async () => {
  const file = await writeBig(join(await makeTempDir('floe-flight-big-'), 'big.parquet'), ROWS);
  srv = await startTestServer([{ name: 'big', from: `file:${file}` }], { flight: { host: '127.0.0.1', port: 0 } });
  raw = rawClient(srv.server.flight?.port ?? 0);
});
after(async () => {
  raw.close();
  await srv.close();
});

describe('Flight listener', () => {
  it('a port already in use stops the start with a clear error', async () => {
    const port = srv.server.flight?.port ?? 0;
    await assert.rejects(
      startTestServer([], { flight: { host: '127.0.0.1', port } }),
      new RegExp(`^Error: cannot listen on 127\\.0\\.0\\.1:${port} \\(flight\\)`),
    );
  });
});

describe('DoGet streaming', () => {
  it('a client that stops reading holds the query (flow control); cancelling the call ends it', async () => {
    const service = srv.server.service;
    // 10 M rows (about 200 MB as Arrow): far more than the pool's credit and grpc-js's buffers hold.
    const sql = 'SELECT b.id, b.label, k.id AS k FROM big b CROSS JOIN (SELECT id FROM big WHERE id < 50) AS k';
    const call = raw.DoGet({ ticket: Buffer.from(sql) });
    let received = 0;
    call.on('data', () => {
      received++;
      if (received === 2) call.pause();
    });
    const ended = new Promise<{ code: number }>((resolve) => call.on('error', resolve));
    await waitFor(() => received >= 2);
    // Not reading: the query waits for credit instead of finishing into memory.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(service.admitted, 1, 'the query is still running, held by flow control');
    assert.ok(received < 20, `received ${received} messages while paused`);
    call.cancel();
    assert.equal((await ended).code, 1);
    await waitFor(() => service.admitted === 0);
  });

  it('8 concurrent DoGets of the whole table all complete with every row', async () => {
    const sql = 'SELECT id, label, grp FROM big';
    const results = await Promise.all(Array.from({ length: 8 }, () => doGet(raw, Buffer.from(sql))));
    for (const { table, messages } of results) {
      assert.equal(table.numRows, ROWS);
      assert.ok(messages > 2, 'streamed as several record batches');
      const ids = table.getChild('id')?.toArray() as Int32Array;
      let sum = 0;
      for (const id of ids) sum += id;
      assert.equal(sum, (ROWS * (ROWS - 1)) / 2);
    }
    assert.equal(srv.server.service.admitted, 0);
  });
});
