// The /v1/sql results cache over real HTTP: Spice's headers, keys that never collide, TTL, the per-entry cap,
// errors left out, and invalidation when a dataset changes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { type Answer, post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;
let short: TestServer;
let off: TestServer;

before(async () => {
  const dir = await makeTempDir();
  const people = `file:${await writePeople(join(dir, 'people.parquet'))}`;
  const big = `file:${await writeBig(join(dir, 'big.parquet'), 60_000)}`;
  const datasets = [
    { name: 'people', from: people },
    { name: 'big', from: big, acceleration: { enabled: true } },
  ];
  // 4 MiB: the per-entry cap is 512 KiB.
  srv = await startTestServer(datasets, {
    runtime: { caching: { sql_results: { max_size: '4MiB', item_ttl: '1h' } } },
  });
  short = await startTestServer(datasets, { workers: 1, runtime: { results_cache: { item_ttl: '1s' } } });
  off = await startTestServer(datasets, { workers: 1, runtime: { caching: { sql_results: { enabled: false } } } });
});
after(async () => {
  await Promise.all([srv.close(), short.close(), off.close()]);
});

const status = (a: Answer) => a.headers.get('results-cache-status');
const json = (sql: string, parameters: unknown) =>
  JSON.stringify(parameters === undefined ? { sql } : { sql, parameters });

describe('results cache headers', () => {
  it('MISS, then HIT with the same body, with the legacy X-Cache header', async () => {
    const sql = 'SELECT id, name FROM people ORDER BY id';
    const first = await post(srv.sql, sql);
    const second = await post(srv.sql, sql);
    assert.deepEqual([first.status, status(first), first.headers.get('x-cache')], [200, 'MISS', 'Miss from spiceai']);
    assert.deepEqual([second.status, status(second), second.headers.get('x-cache')], [200, 'HIT', 'Hit from spiceai']);
    assert.equal(second.text, first.text);
    assert.equal(second.contentType, 'application/json');
    assert.equal(first.headers.get('vary'), null);
  });

  it('Cache-Control: no-cache bypasses the lookup but still stores the result', async () => {
    const sql = 'SELECT count(*) AS n FROM people';
    const bypass = await post(srv.sql, sql, { 'cache-control': 'no-cache' });
    assert.deepEqual([bypass.status, status(bypass), bypass.headers.get('x-cache')], [200, 'BYPASS', null]);
    const again = await post(srv.sql, sql, { 'cache-control': 'max-age=0, No-Cache' });
    assert.equal(status(again), 'BYPASS');
    const hit = await post(srv.sql, sql);
    assert.deepEqual([status(hit), hit.text], ['HIT', '[{"n":5}]']);
  });

  it('Spice-Cache-Key names the entry (SQL aside) and adds Vary', async () => {
    const headers = { 'spice-cache-key': 'dash_board-1' };
    const first = await post(srv.sql, 'SELECT 1 AS v', headers);
    const other = await post(srv.sql, 'SELECT 2 AS v', headers);
    assert.deepEqual([status(first), first.headers.get('vary')], ['MISS', 'Spice-Cache-Key']);
    assert.deepEqual([status(other), other.text, other.headers.get('vary')], ['HIT', '[{"v":1}]', 'Spice-Cache-Key']);
    const plain = await post(srv.sql, 'SELECT 1 AS v');
    assert.equal(status(plain), 'MISS', 'the custom key does not collide with the SQL key');
  });

  it('rejects a malformed Spice-Cache-Key', async () => {
    for (const key of ['has space', 'x'.repeat(129), 'dot.ted']) {
      const res = await post(srv.sql, 'SELECT 1', { 'spice-cache-key': key });
      assert.equal(res.status, 400, key);
      assert.match(res.text, /^Invalid Spice-Cache-Key: /);
    }
  });

  it('sends no cache headers when the cache is disabled', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post(off.sql, 'SELECT 1 AS v');
      assert.deepEqual([res.status, status(res), res.headers.get('x-cache')], [200, null, null]);
    }
  });
});

describe('results cache keys', () => {
  it('keeps formats apart: each Accept gets its own body', async () => {
    const sql = 'SELECT id FROM people WHERE id < 3 ORDER BY id';
    const jsonMiss = await post(srv.sql, sql, { accept: 'application/json' });
    const csvMiss = await post(srv.sql, sql, { accept: 'text/csv' });
    const csvHit = await post(srv.sql, sql, { accept: 'text/csv' });
    const jsonHit = await post(srv.sql, sql);
    assert.deepEqual(
      [status(jsonMiss), status(csvMiss), status(csvHit), status(jsonHit)],
      ['MISS', 'MISS', 'HIT', 'HIT'],
    );
    assert.equal(csvHit.text, '"id"\n1\n2\n');
    assert.equal(csvHit.contentType, 'text/csv; charset=utf-8');
    assert.equal(jsonHit.text, '[{"id":1},{"id":2}]');
  });

  it('keeps parameter values apart, including their JSON types', async () => {
    const sql = 'SELECT name FROM people WHERE id = $1';
    const ask = (p: unknown) =>
      post(srv.sql, json(sql, [p]), { 'content-type': 'application/json' }).then((a) => [status(a), a.text]);
    assert.deepEqual(await ask(1), ['MISS', '[{"name":"Alice"}]']);
    assert.deepEqual(await ask(2), ['MISS', '[{"name":"Bob"}]']);
    assert.deepEqual(await ask(1), ['HIT', '[{"name":"Alice"}]']);
    assert.deepEqual(await ask('1'), ['MISS', '[{"name":"Alice"}]']);
  });

  it('does not cache errors', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post(srv.sql, 'SELECT * FROM missing_table');
      assert.equal(res.status, 400);
      assert.deepEqual([status(res), res.headers.get('x-cache')], [null, null]);
    }
  });
});

describe('results cache lifetime', () => {
  it('expires entries after item_ttl (deprecated results_cache key)', async () => {
    const sql = 'SELECT max(id) AS m FROM people';
    assert.equal(status(await post(short.sql, sql)), 'MISS');
    assert.equal(status(await post(short.sql, sql)), 'HIT');
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal(status(await post(short.sql, sql)), 'MISS');
  });

  it('stores a streamed result that fits the per-entry cap, and not one that does not', async () => {
    // ~33 bytes a row: 10,000 rows stream (over 64 KiB) and fit 512 KiB; 30,000 rows do not fit.
    const fits = 'SELECT id, label FROM big WHERE id < 10000';
    const miss = await post(srv.sql, fits);
    const hit = await post(srv.sql, fits);
    assert.deepEqual([status(miss), status(hit)], ['MISS', 'HIT']);
    assert.equal(hit.text, miss.text);
    assert.equal(JSON.parse(hit.text).length, 10_000);
    const large = 'SELECT id, label FROM big WHERE id < 30000';
    assert.equal(status(await post(srv.sql, large)), 'MISS');
    const again = await post(srv.sql, large);
    assert.equal(status(again), 'MISS');
    assert.equal(JSON.parse(again.text).length, 30_000);
  });

  it('drops the entries of a dataset that changed, and only those', async () => {
    const onBig = 'SELECT count(*) AS n FROM big';
    const onPeople = 'SELECT count(*) AS n FROM people';
    const join = 'SELECT count(*) AS n FROM people p JOIN big b ON p.id = b.id';
    for (const sql of [onBig, onPeople, join]) await post(srv.sql, sql);
    for (const sql of [onBig, onPeople, join]) assert.equal(status(await post(srv.sql, sql)), 'HIT', sql);
    srv.server.datasetsChanged(['BIG']);
    assert.equal(status(await post(srv.sql, onBig)), 'MISS');
    assert.equal(status(await post(srv.sql, join)), 'MISS');
    assert.equal(status(await post(srv.sql, onPeople)), 'HIT');
  });
});

describe('concurrent misses of one key', () => {
  // A join of 60k x 600 rows (3.6M pairs): long enough (tens of ms or more) that requests sent together overlap it.
  const slow = (tag: number) =>
    `SELECT count(*) AS n, ${tag} AS tag FROM big a JOIN big b ON a.grp = b.grp WHERE b.id < 600`;

  it('run the query once: the first is a MISS, the others wait and are HITs with the same body', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(srv.sql, slow(1))));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    assert.deepEqual(answers.map(status).sort(), ['MISS', ...Array(11).fill('HIT')].sort());
    assert.deepEqual(new Set(answers.map((a) => a.text)), new Set(['[{"n":3600000,"tag":1}]']));
  });

  it('each run their own query when the first fails, and all get its error', async () => {
    const sql = 'SELECT count(*) AS n FROM big a JOIN big b ON a.grp = b.grp WHERE 1 / (b.id - b.id) > 0';
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(srv.sql, sql)));
    for (const a of answers) assert.deepEqual([a.status, a.text], [400, 'division by zero']);
  });

  it('no-cache requests neither wait for nor join a running computation', async () => {
    const sql = slow(2);
    const answers = await Promise.all([
      post(srv.sql, sql),
      post(srv.sql, sql, { 'cache-control': 'no-cache' }),
      post(srv.sql, sql, { 'cache-control': 'no-cache' }),
    ]);
    assert.deepEqual(answers.map(status), ['MISS', 'BYPASS', 'BYPASS']);
    assert.equal(new Set(answers.map((a) => a.text)).size, 1);
  });
});
