// Large results stream through the pool in chunks; errors after the head cut the body; disconnects cancel.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { post, rawPost } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROWS = 300_000;
let file: string;
let srv: TestServer;
/** One worker only: a query that never let go of its worker would block every later query. */
let single: TestServer;

before(async () => {
  file = await writeBig(join(await makeTempDir(), 'big.parquet'), ROWS);
  srv = await startTestServer([
    { name: 'big', from: `file:${file}` },
    { name: 'big_mem', from: `file:${file}`, acceleration: { enabled: true } },
  ]);
  single = await startTestServer([{ name: 'big', from: `file:${file}` }], { workers: 1 });
});
after(async () => {
  await srv.close();
  await single.close();
});

describe('a large result', () => {
  it('streams as a chunked body and arrives whole', async () => {
    const res = await rawPost(srv.sql, 'SELECT id, label FROM big');
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
    assert.ok(res.complete);
    const rows = JSON.parse(res.body.toString('utf8'));
    assert.equal(rows.length, ROWS);
    assert.deepEqual(
      [rows[0], rows[ROWS - 1]],
      [
        { id: 0, label: 'label-0' },
        { id: ROWS - 1, label: `label-${ROWS - 1}` },
      ],
    );
  });

  it('streams CSV from an accelerated table with one line per row', async () => {
    const res = await rawPost(srv.sql, 'SELECT id, grp FROM big_mem', { accept: 'text/csv' });
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    const lines = res.body.toString('utf8').split('\n');
    assert.equal(lines[0], '"id","grp"');
    assert.equal(lines.length, ROWS + 2); // header + rows + the empty string after the last \n
  });

  it('sends a small result whole, with a Content-Length', async () => {
    const res = await rawPost(srv.sql, 'SELECT count(*) AS n FROM big');
    assert.equal(res.headers['content-length'], String('[{"n":300000}]'.length));
    assert.equal(res.body.toString(), '[{"n":300000}]');
  });

  it('an error after the 200 head cuts the connection instead of ending the body', async () => {
    const res = await rawPost(srv.sql, `SELECT id, 1 / (id - ${ROWS - 10}) AS x FROM big`);
    assert.equal(res.status, 200);
    assert.equal(res.complete, false);
    assert.ok(res.body.length > 64 * 1024);
  });

  it('an error before any output is a clean 400', async () => {
    const res = await post(srv.sql, 'SELECT 1 / (id - id) AS x FROM big');
    assert.equal(res.status, 400);
    assert.match(res.text, /division by zero/i);
  });
});

describe('client disconnect', () => {
  it('cancels the query and frees the only worker', { timeout: 30_000 }, async () => {
    for (let i = 0; i < 3; i++) {
      const gone = await rawPost(single.sql, 'SELECT id, label, label AS again FROM big', {}, () => 'destroy');
      assert.equal(gone.status, 200);
      assert.equal(gone.complete, false);
    }
    const res = await post(single.sql, 'SELECT count(*) AS n FROM big');
    assert.deepEqual([res.status, res.text], [200, '[{"n":300000}]']);
  });
});
