// The ClickBench hits generator on 4,000 rows: ClickBench's 105 columns and types, the same bytes for the same seed
// and others for another, July 2013 in time order; the 43 queries answered alike by floe and DuckDB (as the
// runner compares them); DuckDB's threads as it reports them and floe without its plan cache caching nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { loadClickBenchQueries } from '../../../bench/clickbench/run-clickbench.js';
import { generateHits, type HitsData, planHitsChunks } from '../../../bench/data/hits-gen.js';
import { DUCKDB_TYPE, HITS_COLUMNS } from '../../../bench/data/hits-schema.js';
import { compareRows, resultOrder } from '../../../bench/lib/result-rows.js';
import { floeThreads, openEngine, openFloeEngine } from '../../../bench/tpch/bench-engines.js';

const ROWS = 4000;

describe('generateHits', () => {
  let root: string;
  let data: HitsData;
  let duck: DuckDBConnection;
  const query = async (sql: string) => (await duck.runAndReadAll(sql)).getRowsJS();

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'floe-hits-gen-'));
    data = await generateHits({ rows: ROWS, seed: 1, dir: join(root, 'a') });
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run(`CREATE VIEW hits AS SELECT * FROM read_parquet('${data.dir}/hits/*.parquet')`);
  });
  after(async () => {
    duck?.closeSync();
    await rm(root, { recursive: true, force: true });
  });

  it("has ClickBench's 105 columns, in order, with its types", async () => {
    const described = await query('DESCRIBE hits');
    assert.equal(HITS_COLUMNS.length, 105);
    assert.deepEqual(
      described.map((r) => [r[0], r[1]]),
      HITS_COLUMNS.map(([name, type]) => [name, DUCKDB_TYPE[type]]),
    );
    assert.deepEqual(await query('SELECT count(*) FROM hits'), [[BigInt(ROWS)]]);
  });

  it('gives the same bytes for the same seed and other bytes for another seed', async () => {
    const again = await generateHits({ rows: ROWS, seed: 1, dir: join(root, 'b') });
    const other = await generateHits({ rows: ROWS, seed: 2, dir: join(root, 'c') });
    const bytes = (d: HitsData) => d.files.map((f) => readFileSync(f));
    assert.deepEqual(bytes(again), bytes(data));
    assert.notDeepEqual(bytes(other), bytes(data));
    assert.equal((await generateHits({ rows: ROWS, seed: 1, dir: join(root, 'a') })).generatedMs, null, 'cached');
  });

  it('spans July 2013 in time order, EventDate the day of EventTime, UserIDs beyond 2^53', async () => {
    const [[outOfOrder, wrongDate, first, last, big]] = await query(
      `SELECT count(*) FILTER (WHERE "EventTime" < prev), count(*) FILTER (WHERE "EventDate" <> CAST("EventTime" AS DATE)),
         min("EventTime")::VARCHAR, max("EventTime")::VARCHAR, count(*) FILTER (WHERE "UserID" > 9007199254740992)
       FROM (SELECT *, lag("EventTime") OVER (ORDER BY file_row_number) AS prev
             FROM read_parquet('${data.dir}/hits/*.parquet', file_row_number = true))`,
    );
    assert.equal(outOfOrder, 0n);
    assert.equal(wrongDate, 0n);
    assert.match(String(first), /^2013-07-01/);
    assert.match(String(last), /^2013-07-3[01]/);
    assert.ok(Number(big) > ROWS / 2, `UserIDs above 2^53: ${big}`);
  });

  it('splits a table into files of 500,000 rows', () => {
    assert.deepEqual(
      planHitsChunks(1_200_000, 7).map((c) => [c.index, c.first, c.rows]),
      [
        [0, 0, 500_000],
        [1, 500_000, 500_000],
        [2, 1_000_000, 200_000],
      ],
    );
  });

  it('answers the 43 queries on floe as on DuckDB (ties at LIMIT/OFFSET by their keys)', async () => {
    const queries = loadClickBenchQueries();
    assert.equal(queries.size, 43);
    const floe = await openEngine('floe', data.dir, 'memory', 1, { tables: ['hits'] });
    const duckdb = await openEngine('duckdb', data.dir, 'memory', 1, { tables: ['hits'] });
    const signal = new AbortController().signal;
    try {
      for (const [id, sql] of queries) {
        const actual = (await floe.run(sql, true, signal)).rows!;
        const expected = (await duckdb.run(sql, true, signal)).rows!;
        const { order, cut } = resultOrder(sql, expected.names);
        assert.equal(compareRows(actual, expected, order, cut), null, id);
      }
    } finally {
      floe.close();
      duckdb.close();
    }
  });

  it("records the threads DuckDB reports and floe's helpers; --no-plan-cache leaves floe's cache empty", async () => {
    const duckdb = await openEngine('duckdb', data.dir, 'files', 2, { tables: ['hits'] });
    assert.equal(duckdb.threads, 2);
    duckdb.close();
    assert.equal(floeThreads('memory', {}, 2), 2);
    assert.equal(floeThreads('memory', { FLOE_PARALLEL_THREADS: '0' }, 2), 1);
    assert.equal(floeThreads('files', {}, 2), 3);
    assert.equal(floeThreads('files', { FLOE_DECODE_THREADS: '1' }, 2), 2);
    for (const [planCache, cached] of [
      [true, 1],
      [false, 0],
    ] as const) {
      const engine = await openFloeEngine(data.dir, 'files', ['hits'], planCache);
      for (let i = 0; i < 2; i++) for await (const _ of (await engine.execute('SELECT count(*) FROM hits')).batches);
      assert.equal(engine.cachedPlans, cached, `plan cache ${planCache}`);
    }
  });
});
