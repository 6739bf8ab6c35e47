// A catalog that changes while serving: replacements under 32 concurrent clients, add and drop, the results cache.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveDatasets } from '../../catalog/datasets.js';
import type { TableEntry } from '../../catalog/snapshot.js';
import { writeParquetFile } from '../../engine/index.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROWS = 20_000;
const VERSIONS = 8;
let dir: string;
let srv: TestServer;
/** Accelerated entries: version k of table t has v = k in every row. */
const entries: TableEntry[] = [];

/** Writes version `k` of table t: ROWS rows, id 0.., v = k. */
async function writeVersion(path: string, k: number): Promise<string> {
  await writeParquetFile(path, [
    { name: 'id', type: { id: 'int32' }, values: Array.from({ length: ROWS }, (_, i) => i) },
    { name: 'v', type: { id: 'int32' }, values: new Array(ROWS).fill(k) },
  ]);
  return path;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-versions-'));
  const specs = [];
  for (let k = 1; k <= VERSIONS; k++) {
    const from = `file:${await writeVersion(join(dir, `t${k}.parquet`), k)}`;
    specs.push({ name: 't', from, accelerated: true });
  }
  // Loaded as the server loads them (one helper thread, shared memory), published below by hand.
  entries.push(...(await resolveDatasets(specs, dir)).tables);
  await writeVersion(join(dir, 'live.parquet'), 1);
  srv = await startTestServer(
    [
      { name: 't', from: `file:${join(dir, 't1.parquet')}`, acceleration: { enabled: true } },
      { name: 'live', from: `file:${join(dir, 'live.parquet')}`, acceleration: { enabled: true } },
    ],
    { runtime: { caching: { sql_results: { item_ttl: '1h' } } } },
  );
});
after(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

/** min(v), max(v), count(*) of `table`, or the error answer. */
async function versionOf(table: string): Promise<{ min: number; max: number; n: number }> {
  const answer = await post(srv.sql, `SELECT min(v) AS min, max(v) AS max, count(*) AS n FROM ${table}`, {
    'Cache-Control': 'no-cache',
  });
  assert.equal(answer.status, 200, answer.text);
  return JSON.parse(answer.text)[0];
}

describe('catalog versions', () => {
  it('replaces a table while 32 clients query: no error, no mixed versions, never backwards', async () => {
    const start = srv.server.catalogVersion;
    /** The last table version whose replaceTable has returned. */
    let published = 1;
    let done = false;
    const seen: number[][] = [];
    const client = async (c: number) => {
      const mine: number[] = [];
      seen[c] = mine;
      let last = 0;
      // Once done, on until an answer on the last version (a query in flight at the last publish has the one before).
      while (!done || mine.length < 3 || last < VERSIONS) {
        const floor = published;
        const { min, max, n } = await versionOf('t');
        assert.equal(min, max, `client ${c}: one query saw versions ${min} and ${max}`);
        assert.equal(n, ROWS);
        assert.ok(min >= floor, `client ${c}: saw version ${min} after version ${floor} was published`);
        assert.ok(min >= last, `client ${c}: version went back from ${last} to ${min}`);
        last = min;
        mine.push(min);
      }
    };
    const clients = Array.from({ length: 32 }, (_, c) => client(c));
    // Each replacement waits until some client has been answered on the version before it, so every version serves.
    const answered = async (k: number) => {
      while (!seen.some((mine) => mine?.at(-1) === k)) await new Promise((r) => setTimeout(r, 5));
    };
    for (let k = 2; k <= VERSIONS; k++) {
      await answered(k - 1);
      srv.server.replaceTable('t', entries[k - 1]!);
      published = k;
    }
    await answered(VERSIONS);
    done = true;
    await Promise.all(clients);
    assert.equal(srv.server.catalogVersion, start + VERSIONS - 1);
    // Every client ends on the last version, and every version answered.
    for (const mine of seen) assert.equal(mine.at(-1), VERSIONS);
    assert.equal(new Set(seen.flat()).size, VERSIONS);
  });

  it('a query streaming on the old version finishes on it while new queries see the new one', async () => {
    srv.server.replaceTable('t', entries[0]!);
    // 2 M rows of CSV: the worker waits for credit while the client has not read.
    const res = await fetch(srv.sql, {
      method: 'POST',
      body: 'SELECT a.v FROM t a CROSS JOIN (SELECT id FROM t LIMIT 100) b',
      headers: { Accept: 'text/csv', 'Cache-Control': 'no-cache' },
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    srv.server.replaceTable('t', entries[1]!);
    assert.deepEqual(await versionOf('t'), { min: 2, max: 2, n: ROWS });
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
    const rows = text.trim().split('\n').slice(1);
    assert.equal(rows.length, ROWS * 100);
    assert.ok(
      rows.every((v) => v === '1'),
      'every row of the old query is version 1',
    );
  });

  it('adds and drops a table while serving; a query after the drop is 400 table not found', async () => {
    const parquet = { name: 'extra', kind: 'parquet', files: [join(dir, 't3.parquet')] };
    srv.server.addTable(parquet);
    assert.throws(() => srv.server.addTable(parquet), /already exists/);
    assert.deepEqual(await versionOf('extra'), { min: 3, max: 3, n: ROWS });
    srv.server.dropTable('EXTRA');
    const answer = await post(srv.sql, 'SELECT count(*) FROM extra');
    assert.equal(answer.status, 400);
    assert.match(answer.text, /table "extra" does not exist/);
    assert.throws(() => srv.server.dropTable('extra'), /no table named "extra"/);
    assert.throws(() => srv.server.replaceTable('extra', entries[0]!), /no table named "extra"/);
    // The other tables are untouched.
    assert.equal((await versionOf('t')).n, ROWS);
  });

  it('drops cached results of a replaced table, keeps the others', async () => {
    const sql = 'SELECT max(v) AS v FROM t';
    const other = 'SELECT count(*) AS n FROM live';
    const status = async (q: string) => {
      const a = await post(srv.sql, q);
      return [a.headers.get('results-cache-status'), JSON.parse(a.text)[0]];
    };
    srv.server.replaceTable('t', entries[1]!);
    assert.deepEqual(await status(sql), ['MISS', { v: 2 }]);
    assert.deepEqual(await status(sql), ['HIT', { v: 2 }]);
    assert.deepEqual(await status(other), ['MISS', { n: ROWS }]);
    srv.server.replaceTable('t', entries[4]!);
    assert.deepEqual(await status(sql), ['MISS', { v: 5 }]);
    assert.deepEqual(await status(other), ['HIT', { n: ROWS }]);
  });

  it('reloads an accelerated dataset from its source', async () => {
    assert.equal((await versionOf('live')).max, 1);
    await writeVersion(join(dir, 'live.parquet'), 7);
    // Still the loaded copy until the reload.
    assert.equal((await versionOf('live')).max, 1);
    const version = await srv.server.reloadDataset('live');
    assert.equal(version, srv.server.catalogVersion);
    assert.deepEqual(await versionOf('live'), { min: 7, max: 7, n: ROWS });
    await assert.rejects(srv.server.reloadDataset('nope'), /no dataset named "nope"/);
  });
});
