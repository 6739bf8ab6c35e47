// Late materialisation: a TopK over Parquet reads its filter and key columns, then the others for its K rows by
// row number (`fetchRows`); answers must equal the full sort's first rows, and `fetchRows` the scan's rows.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Batch } from '../../../../engine/arrow/batch.js';
import { cellText } from '../../../../engine/arrow/format.js';
import type { TableProvider } from '../../../../engine/catalog.js';
import { createEngine } from '../../../../engine/index.js';
import { createParquetTable } from '../../../../engine/io/parquet/parquet-table.js';
import { writeParquetFile } from '../../../../engine/io/parquet/write.js';
import { createMapCatalog } from '../../../../engine/map-catalog.js';
import { makeRng } from '../../../helpers/gen-data.js';

const FILES = [2_300, 1, 1_700];
const GROUP_ROWS = 400;
const COLUMNS = ['id', 'k', 'big', 'price', 'name', 'day', 'flag', 'f'];
let dir: string;
let pooled: TableProvider;
let inline: TableProvider;

/** Three files (one of a single row) of 400-row groups: every decoded type, NULLs, int64 beyond 2^53, decimals. */
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-late-columns-'));
  const rng = makeRng(5);
  const paths: string[] = [];
  let first = 0;
  for (const [f, rows] of FILES.entries()) {
    const id = Array.from({ length: rows }, (_, i) => first + i);
    first += rows;
    const path = join(dir, `part-${f}.parquet`);
    paths.push(path);
    await writeParquetFile(
      path,
      [
        { name: 'id', type: { id: 'int32' }, values: id },
        { name: 'k', type: { id: 'int32' }, values: id.map((i) => (i % 31 === 0 ? null : Math.floor(rng() * 500))) },
        { name: 'big', type: { id: 'int64' }, values: id.map((i) => 2n ** 62n - BigInt(i) * 3n) },
        { name: 'price', type: { id: 'decimal', precision: 15, scale: 2 }, values: id.map((i) => (i * 37) % 100_000) },
        { name: 'name', type: { id: 'utf8' }, values: id.map((i) => (i % 5 === 0 ? null : `n${(i * 7) % 97}é`)) },
        { name: 'day', type: { id: 'date' }, values: id.map((i) => 9000 + (i % 400)) },
        { name: 'flag', type: { id: 'bool' }, values: id.map((i) => (i % 11 === 0 ? null : i % 3 === 0)) },
        { name: 'f', type: { id: 'float64' }, values: id.map((i) => (i % 13 === 0 ? null : i / 7)) },
      ],
      { rowGroupRows: GROUP_ROWS },
    );
  }
  pooled = await createParquetTable(paths);
  inline = await createParquetTable(paths, { decodeThreads: 0 });
});

after(() => rm(dir, { recursive: true, force: true }));

function cells(b: Batch): (string | null)[][] {
  return Array.from({ length: b.length }, (_, i) => b.columns.map((c) => cellText(c, i)));
}

async function query(table: TableProvider, sql: string): Promise<(string | null)[][]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  const rows: (string | null)[][] = [];
  for await (const b of (await engine.execute(sql)).batches) rows.push(...cells(b));
  return rows;
}

test('fetchRows answers the rows a numbered scan yields, in the order asked, on the pool and inline', async () => {
  const signal = new AbortController().signal;
  const scanned: (string | null)[][] = [];
  let numbers: number[] = [];
  for await (const b of pooled.scan({ columns: COLUMNS, filters: [], limit: null, rowIds: true }, signal)) {
    assert.equal(b.columns.length, COLUMNS.length + 1);
    numbers = numbers.concat(Array.from(b.columns.at(-1)!.values as Float64Array));
    scanned.push(...cells(b).map((r) => r.slice(0, -1)));
  }
  assert.deepEqual(
    numbers,
    scanned.map((_, i) => i),
  );
  const rng = makeRng(9);
  const ids = Float64Array.from({ length: 300 }, () => Math.floor(rng() * scanned.length));
  ids.set([0, scanned.length - 1, 2_299, 2_300, 2_301, 399, 400], 0);
  for (const table of [pooled, inline]) {
    const got = await table.fetchRows!(['name', 'id', 'price', 'flag', 'big', 'f', 'day'], ids, signal);
    const order = [4, 0, 3, 6, 2, 7, 5];
    assert.deepEqual(
      cells(got),
      Array.from(ids, (id) => order.map((c) => scanned[id]![c]!)),
    );
  }
  assert.equal((await pooled.fetchRows!(['id'], new Float64Array(0), signal)).length, 0);
});

test('TopKs with late columns answer as the full sort does', async () => {
  const queries = [
    ['SELECT * FROM t', 'ORDER BY k, id'],
    ['SELECT * FROM t', 'ORDER BY k DESC'],
    ['SELECT name, id, price FROM t WHERE flag', 'ORDER BY f DESC NULLS LAST'],
    ['SELECT big, day, name FROM t WHERE k > 250', 'ORDER BY day, big'],
    ["SELECT price, name AS n, id FROM t WHERE name LIKE 'n1%'", 'ORDER BY id DESC'],
    ['SELECT * FROM t WHERE k IS NULL', 'ORDER BY price, id'],
    ['SELECT id, name FROM t', 'ORDER BY k + id, id'],
  ];
  for (const [select, order] of queries) {
    for (const k of [1, 7, 450]) {
      for (const table of [pooled, inline]) {
        const full = await query(table, `${select} ${order}`);
        const top = await query(table, `${select} ${order} LIMIT ${k}`);
        assert.deepEqual(top, full.slice(0, k), `${select} ${order} LIMIT ${k}`);
        const skipped = await query(table, `${select} ${order} LIMIT ${k} OFFSET 3`);
        assert.deepEqual(skipped, full.slice(3, 3 + k), `${select} ${order} LIMIT ${k} OFFSET 3`);
      }
    }
  }
});

test('the TopK reads its other columns by row number, once per run', async () => {
  let calls = 0;
  const spy: TableProvider = {
    ...pooled,
    fetchRows: (columns, ids, signal) => {
      calls++;
      assert.deepEqual(columns, ['id', 'big', 'price', 'name', 'day', 'flag', 'f']);
      assert.equal(ids.length, 4);
      return pooled.fetchRows!(columns, ids, signal);
    },
  };
  assert.equal((await query(spy, 'SELECT * FROM t WHERE k < 100 ORDER BY k LIMIT 4')).length, 4);
  assert.equal(calls, 1);
});

test('a TopK whose filter keeps no row answers no row', async () => {
  assert.deepEqual(await query(pooled, 'SELECT * FROM t WHERE k > 1000 ORDER BY id LIMIT 5'), []);
});
