// TopK dynamic filters: the bound's conjuncts, and TopKs over Parquet that skip row groups yet answer as a full sort.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Column } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import type { TableProvider } from '../../../../../engine/catalog.js';
import { TopKBound } from '../../../../../engine/exec/operators/top-k-bound.js';
import { createEngine } from '../../../../../engine/index.js';
import { sharedDecodePool } from '../../../../../engine/io/parquet/decode-pool.js';
import { createParquetTable } from '../../../../../engine/io/parquet/parquet-table.js';
import { writeParquetFile } from '../../../../../engine/io/parquet/write.js';
import { createMapCatalog } from '../../../../../engine/map-catalog.js';
import { exprText } from '../../../../../engine/plan/expr/display.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const GROUPS = 12;
const GROUP_ROWS = 500;
const ROWS = GROUPS * GROUP_ROWS;
let dir: string;
let table: TableProvider;

/** Keys that grow from row group to row group (shuffled inside each), with NULLs, ties and int64 beyond 2^53. */
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-top-k-bound-'));
  const rng = makeRng(38);
  const id = Array.from({ length: ROWS }, (_, i) => i);
  const inGroup = (i: number) => Math.floor(i / GROUP_ROWS) * GROUP_ROWS + Math.floor(rng() * GROUP_ROWS);
  const path = join(dir, 't.parquet');
  await writeParquetFile(
    path,
    [
      { name: 'id', type: { id: 'int32' }, values: id },
      {
        name: 'ts',
        type: { id: 'timestamp', tz: null },
        values: id.map((i) => (i % 97 === 5 ? null : inGroup(i) * 1_000)),
      },
      { name: 'big', type: { id: 'int64' }, values: id.map((i) => 2n ** 60n + BigInt(inGroup(i) >> 2)) },
      { name: 'name', type: { id: 'utf8' }, values: id.map((i) => `n${String(inGroup(i)).padStart(5, '0')}`) },
      { name: 'f', type: { id: 'float64' }, values: id.map((i) => (i % 89 === 3 ? null : inGroup(i) / 8)) },
      { name: 'pad', type: { id: 'utf8' }, values: id.map((i) => `row ${i} ${'x'.repeat(i % 13)}`) },
    ],
    { rowGroupRows: GROUP_ROWS },
  );
  table = await createParquetTable([path]);
});

after(() => rm(dir, { recursive: true, force: true }));

async function query(sql: string): Promise<(string | null)[][]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  const rows: (string | null)[][] = [];
  for await (const b of (await engine.execute(sql)).batches) {
    for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => cellText(c, i)));
  }
  return rows;
}

test('the bound says which rows may still enter, NULLs where they sort', () => {
  const col: Column = {
    type: { id: 'int32' },
    length: 2,
    values: new Int32Array([7, 0]),
    valid: new Uint8Array([1, 0]),
  };
  const cases: [boolean, boolean, number, string[]][] = [
    [true, false, 0, ['x <= 7']],
    [true, true, 0, ['(x <= 7) OR x IS NULL']],
    [false, true, 0, ['(x >= 7) OR x IS NULL']],
    [false, false, 0, ['x >= 7']],
    [true, true, 1, ['x IS NULL']],
    [true, false, 1, []],
  ];
  for (const [ascending, nullsFirst, row, want] of cases) {
    const bound = new TopKBound('x', { id: 'int32' }, { ascending, nullsFirst });
    assert.deepEqual(bound.filters(), []);
    bound.tighten(col, row);
    assert.deepEqual(bound.filters().map(exprText), want, `${ascending} ${nullsFirst} row ${row}`);
  }
});

test('TopKs over Parquet answer as the full sort does, for every key type and direction', async () => {
  const orders = [
    'ts',
    'ts DESC',
    'ts NULLS FIRST',
    'ts DESC NULLS LAST',
    'big',
    'big DESC',
    'name',
    'name DESC',
    'f',
    'f DESC',
    'ts, pad',
  ];
  const wheres = ['', "WHERE pad LIKE '%xxxx%'", 'WHERE id % 7 = 3'];
  for (const order of orders) {
    for (const where of wheres) {
      for (const k of [1, 10, 700]) {
        const full = await query(`SELECT id, ts, big, name, f FROM t ${where} ORDER BY ${order}`);
        const top = await query(`SELECT id, ts, big, name, f FROM t ${where} ORDER BY ${order} LIMIT ${k}`);
        assert.deepEqual(top, full.slice(0, k), `ORDER BY ${order} LIMIT ${k} ${where}`);
      }
    }
  }
});

test('a TopK over a key that grows with the file reads only the row groups that can hold its rows', async () => {
  const pool = sharedDecodePool();
  const before = pool.started;
  const rows = await query("SELECT * FROM t WHERE pad LIKE '%xxxx%' ORDER BY ts LIMIT 5");
  assert.equal(rows.length, 5);
  assert.ok(pool.started - before <= 2, `read ${pool.started - before} of ${GROUPS} row groups`);
  // Descending, every later group beats the K-th row so far: all are read (no group may be skipped wrongly).
  const desc = await query('SELECT id FROM t ORDER BY ts DESC NULLS LAST LIMIT 3');
  assert.equal(desc.length, 3);
});
