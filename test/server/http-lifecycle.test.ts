// Server lifecycle over HTTP: /health and 503s while loading, ready after, graceful close with work in flight.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { get, post } from '../helpers/http.js';
import { startTestServer } from '../helpers/test-server.js';

describe('server lifecycle', () => {
  it('listens before loading: /health 200, /v1/ready and /v1/sql 503, then ready', async () => {
    const file = await writeBig(join(await makeTempDir(), 'big.parquet'), 1000);
    const seen: [number, string][] = [];
    const srv = await startTestServer([{ name: 'big', from: `file:${file}`, acceleration: { enabled: true } }], {
      onListening: async (port) => {
        const base = `http://127.0.0.1:${port}`;
        for (const res of [
          await get(`${base}/health`),
          await get(`${base}/v1/ready`),
          await post(`${base}/v1/sql`, 'SELECT 1'),
        ]) {
          seen.push([res.status, res.text]);
        }
      },
    });
    try {
      assert.deepEqual(seen, [
        [200, 'ok\n'],
        [503, 'not ready'],
        [503, 'not ready: datasets are loading'],
      ]);
      assert.deepEqual(
        [(await get(`${srv.base}/v1/ready`)).status, (await post(srv.sql, 'SELECT count(*) AS n FROM big')).text],
        [200, '[{"n":1000}]'],
      );
    } finally {
      await srv.close();
    }
  });

  it('close lets an in-flight response finish, then refuses connections', async () => {
    const rows = 200_000;
    const file = await writeBig(join(await makeTempDir(), 'big.parquet'), rows);
    const srv = await startTestServer([{ name: 'big', from: `file:${file}` }]);
    const res = await fetch(srv.sql, { method: 'POST', body: 'SELECT id FROM big' });
    assert.equal(res.status, 200);
    const closed = srv.close();
    const body = JSON.parse(await res.text());
    await closed;
    assert.equal(body.length, rows);
    await assert.rejects(fetch(`${srv.base}/health`));
  });
});
