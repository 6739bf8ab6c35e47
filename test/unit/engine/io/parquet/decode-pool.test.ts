// The decode pool: parallel row-group decoding gives the single-threaded rows, fails cleanly, and stops early.
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Batch } from '../../../../../engine/arrow/batch.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import type { ScanRequest, TableProvider } from '../../../../../engine/catalog.js';
import { CancelledError } from '../../../../../engine/errors.js';
import { createEngine } from '../../../../../engine/index.js';
import { type DecodedGroup, decodeRowGroup, openParquet } from '../../../../../engine/io/parquet/decode.js';
import { DecodePool, sharedDecodePool } from '../../../../../engine/io/parquet/decode-pool.js';
import { createParquetTable } from '../../../../../engine/io/parquet/parquet-table.js';
import { writeParquetFile } from '../../../../../engine/io/parquet/write.js';
import { createMapCatalog } from '../../../../../engine/map-catalog.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import { makeSpecials } from '../../../../helpers/gen-data.js';

const ROWS = 12_000;
const GROUP_ROWS = 1_000;
let dir: string;
let paths: string[];

/** Two files of 12 row groups each, with every decoded type and some nulls. */
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-decode-pool-'));
  paths = [join(dir, 'a.parquet'), join(dir, 'b.parquet')];
  for (const [f, path] of paths.entries()) {
    const id = Array.from({ length: ROWS }, (_, i) => f * ROWS + i);
    await writeParquetFile(
      path,
      [
        { name: 'id', type: { id: 'int32' }, values: id },
        { name: 'big', type: { id: 'int64' }, values: id.map((i) => BigInt(i) * 10_000_000_000n) },
        { name: 'price', type: { id: 'decimal', precision: 15, scale: 2 }, values: id.map((i) => (i * 37) % 100_000) },
        { name: 'ratio', type: { id: 'float64' }, values: id.map((i) => (i % 7 === 0 ? null : i / 3)) },
        { name: 'name', type: { id: 'utf8' }, values: id.map((i) => (i % 5 === 0 ? null : `n${i % 97}é`)) },
        { name: 'day', type: { id: 'date' }, values: id.map((i) => 9000 + (i % 400)) },
        { name: 'flag', type: { id: 'bool' }, values: id.map((i) => i % 3 === 0) },
      ],
      { rowGroupRows: GROUP_ROWS },
    );
  }
});

after(() => rm(dir, { recursive: true, force: true }));

async function rowsOf(batches: AsyncIterable<Batch>): Promise<(string | null)[][]> {
  const rows: (string | null)[][] = [];
  for await (const b of batches) {
    for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => cellText(c, i)));
  }
  return rows;
}

const ALL = ['id', 'big', 'price', 'ratio', 'name', 'day', 'flag'];
const idAbove = (n: number): Expr =>
  ({
    kind: 'binary',
    op: '>=',
    left: { kind: 'column', name: 'id', qualifier: null, type: { id: 'int32' } },
    right: { kind: 'literal', value: n, type: { id: 'int32' } },
  }) as Expr;

test('the pool yields the rows of single-threaded decoding, in the same order', async () => {
  const pooled = await createParquetTable(paths);
  const inline = await createParquetTable(paths, { decodeThreads: 0 });
  const requests: ScanRequest[] = [
    { columns: ALL, filters: [], limit: null },
    { columns: ['name', 'price', 'id'], filters: [], limit: null },
    { columns: ['day', 'id'], filters: [idAbove(20_500)], limit: null },
    { columns: ['ratio', 'name'], filters: [], limit: 2_345 },
  ];
  for (const req of requests) {
    const signal = new AbortController().signal;
    const want = await rowsOf(inline.scan(req, signal));
    const got = await rowsOf(pooled.scan(req, signal));
    assert.equal(got.length, want.length);
    assert.deepEqual(got, want);
  }
  const all = await rowsOf(pooled.scan({ columns: ['id'], filters: [], limit: null }, new AbortController().signal));
  assert.deepEqual(
    all.map((r) => Number(r[0])),
    Array.from({ length: 2 * ROWS }, (_, i) => i),
  );
});

test('a LIMIT asks the pool for only the row groups that hold its rows', async () => {
  const table = await createParquetTable(paths);
  const pool = sharedDecodePool();
  const before = pool.started;
  const rows = await rowsOf(table.scan({ columns: ['id'], filters: [], limit: 1_500 }, new AbortController().signal));
  assert.equal(rows.length, 1_500);
  assert.equal(pool.started - before, 2);
});

test('a consumer that stops pulling stops the decoding', async () => {
  const table = await createParquetTable(paths);
  const pool = sharedDecodePool();
  const before = pool.started;
  for await (const b of table.scan({ columns: ALL, filters: [], limit: null }, new AbortController().signal)) {
    assert.ok(b.length > 0);
    break;
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(pool.started - before <= pool.threads + 1, `started ${pool.started - before} row groups`);
});

test('cancelling mid-scan rejects with CancelledError and asks for no more row groups', async () => {
  const table = await createParquetTable(paths);
  const pool = sharedDecodePool();
  const before = pool.started;
  const ac = new AbortController();
  let batches = 0;
  await assert.rejects(async () => {
    for await (const _ of table.scan({ columns: ALL, filters: [], limit: null }, ac.signal)) {
      batches++;
      ac.abort();
    }
  }, CancelledError);
  assert.equal(batches, 1);
  const started = pool.started - before;
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(pool.started - before, started);
  assert.ok(started <= pool.threads + 1, `started ${started} of 24 row groups`);
});

async function queryCells(table: TableProvider, sql: string): Promise<(string | null)[][]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  return rowsOf((await engine.execute(sql)).batches);
}

/** A zstd-compressed file with its data pages scribbled over and its footer (size, statistics) intact. */
async function writeCorrupt(name: string): Promise<string> {
  const bad = join(dir, name);
  await writeParquetFile(
    bad,
    [{ name: 'x', type: { id: 'utf8' }, values: Array.from({ length: 5_000 }, (_, i) => `value ${i * 7919}`) }],
    { rowGroupRows: 1_000, compression: 'zstd' },
  );
  const fh = await open(bad, 'r+');
  await fh.write(Buffer.alloc(4_000, 0xab), 0, 4_000, 100);
  await fh.close();
  return bad;
}

test('a corrupt file fails its query with an error naming the file; the pool keeps serving', async () => {
  const bad = await writeCorrupt('corrupt.parquet');
  const corrupt = await createParquetTable([bad]);
  await assert.rejects(queryCells(corrupt, 'SELECT count(x) FROM t'), (e: Error & { kind?: string }) => {
    assert.equal(e.kind, 'exec');
    assert.match(e.message, /corrupt\.parquet/);
    assert.doesNotMatch(e.message, /\n\s+at /);
    return true;
  });
  const good = await createParquetTable(paths);
  assert.deepEqual(await queryCells(good, 'SELECT count(*), sum(id) FROM t WHERE id < 13000'), [
    ['13000', String((13_000 * 12_999) / 2)],
  ]);
});

test('a row group queued behind one whose decode kills the thread goes to a fresh thread', async () => {
  const pool = new DecodePool(1);
  const bad = {
    path: await writeCorrupt('corrupt-1.parquet'),
    version: 'v1',
    rowGroup: 0,
    columns: ['x'],
    limit: null,
  };
  const good = { path: paths[0]!, version: 'v1', rowGroup: 0, columns: ['id'], limit: null };
  const failed = assert.rejects(pool.decode(bad), /corrupt-1\.parquet.*trapped/);
  const queued = pool.decode(good);
  await failed;
  assert.equal((await queued)[0]!.length, GROUP_ROWS);
  await pool.close();
});

test('a truncated file is refused when the table opens, with its name', async () => {
  const cut = join(dir, 'truncated.parquet');
  await writeParquetFile(cut, [{ name: 'x', type: { id: 'int32' }, values: [1, 2, 3] }]);
  const fh = await open(cut, 'r+');
  await fh.truncate(40);
  await fh.close();
  await assert.rejects(createParquetTable([cut]), { kind: 'plan', message: /truncated\.parquet/ });
});

test('a closed pool rejects what it was decoding and restarts its threads on the next request', async () => {
  const pool = new DecodePool(1);
  const request = { path: paths[0]!, version: 'v1', rowGroup: 0, columns: ['id'], limit: null };
  const first = assert.rejects(pool.decode(request), CancelledError);
  const queued = assert.rejects(pool.decode({ ...request, rowGroup: 1 }), CancelledError);
  await pool.close();
  await first;
  await queued;
  const again = await pool.decode({ ...request, rowGroup: 2 });
  assert.equal(
    again.reduce((n, b) => n + b.length, 0),
    GROUP_ROWS,
  );
  assert.equal(cellText(again[0]!.columns[0]!, 0), String(2 * GROUP_ROWS));
  await pool.close();
});

test('reading through the C data interface gives the columns the IPC path gives', async () => {
  const file = await openParquet(paths[1]!);
  for (const [columns, limit] of [
    [ALL, null],
    [['flag', 'name', 'id'], null],
    [['price', 'day', 'ratio'], 777],
  ] as const) {
    for (const rowGroup of [0, 5, 11]) {
      const viaFFI = await decodeRowGroup(file, rowGroup, columns, limit);
      const viaIPC = await decodeRowGroup(file, rowGroup, columns, limit, true);
      assert.deepEqual(cells(viaFFI), cells(viaIPC));
      assert.deepEqual(
        viaFFI.map((b) => b.columns.map((c) => c.type)),
        viaIPC.map((b) => b.columns.map((c) => c.type)),
      );
    }
  }
  // Edge values: big int64s, decimals at 13 digits, NaN and infinities, unicode, nulls everywhere.
  const specials = join(dir, 'specials.parquet');
  const columns = makeSpecials();
  await writeParquetFile(specials, columns, { rowGroupRows: 4 });
  const names = columns.map((c) => c.name);
  const sp = await openParquet(specials);
  for (const rowGroup of [0, 1, 2]) {
    assert.deepEqual(
      cells(await decodeRowGroup(sp, rowGroup, names)),
      cells(await decodeRowGroup(sp, rowGroup, names, null, true)),
    );
  }
});

function cells(group: DecodedGroup): (string | null)[][] {
  return group.flatMap((b) => b.columns.map((c) => Array.from({ length: b.length }, (_, i) => cellText(c, i))));
}
