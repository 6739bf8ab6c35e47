// Refresh loads over real Parquet files: full and append (time column, new files), refresh SQL, its errors,
// cancellation; the tables built answer as DuckDB does over the rows they should hold.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { duckText } from '../../../bench/lib/result-rows.js';
import { DatasetError, type DatasetSpec } from '../../../catalog/datasets.js';
import type { MemoryTableEntry } from '../../../catalog/providers/memory.js';
import {
  checkRefreshSql,
  closeIdleLoader,
  loadForRefresh,
  RefreshError,
  type RefreshRequest,
} from '../../../catalog/refresh.js';
import { literalOf, newerRowsSql, selectedFields } from '../../../catalog/refresh-sql.js';
import { catalogFromSnapshot, type TableEntry } from '../../../catalog/snapshot.js';
import { createEngine, createMapCatalog, createParquetTable, writeParquetFile } from '../../../engine/index.js';
import { queryRows } from '../../helpers/engines.js';

const KINDS = ['a', 'b', 'c', 'x'];
const T0 = Date.UTC(2026, 0, 1) * 1000; // microseconds
let dir: string;
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;

/** `n` rows from id `first`, one second apart from second `first` after T0 (`shift` seconds earlier). */
async function writeRows(name: string, first: number, n: number, shift = 0): Promise<string> {
  const path = join(dir, name);
  const ids = Array.from({ length: n }, (_, i) => first + i);
  await writeParquetFile(
    path,
    [
      { name: 'id', type: { id: 'int32' }, values: ids },
      { name: 'ts', type: { id: 'timestamp', tz: null }, values: ids.map((id) => T0 + (id - shift) * 1_000_000) },
      { name: 'kind', type: { id: 'utf8' }, values: ids.map((id) => KINDS[id % 4]!) },
      {
        name: 'amount',
        type: { id: 'decimal', precision: 15, scale: 2 },
        values: ids.map((id) => (id % 10 === 0 ? null : (id * 37) % 10_000)),
      },
    ],
    { rowGroupRows: 1000 },
  );
  return path;
}

const spec = (from: string): DatasetSpec => ({ name: 'trips', from: `file:${from}`, accelerated: true });

async function refresh(request: Omit<RefreshRequest, 'spec'> & { from?: string }) {
  return loadForRefresh({ spec: spec(request.from ?? join(dir, 'feed')), ...request }, dir);
}

async function floeRows(entry: TableEntry, sql: string): Promise<(string | null)[][]> {
  const engine = createEngine({ catalog: await catalogFromSnapshot({ tables: [entry] }), parallel: { threads: 0 } });
  return (await queryRows(engine, sql)).rows;
}

async function duckRows(sql: string): Promise<(string | null)[][]> {
  return (await duck.runAndReadAll(sql)).getRows().map((r) => r.map(duckText));
}

/** The same queries over the built table (`trips`) and over `source`, a DuckDB relation of the rows it should hold. */
async function assertSameAsDuckDb(entry: TableEntry, source: string, columns = 'id, ts, kind, amount') {
  const queries = [
    `SELECT ${columns} FROM trips ORDER BY id`,
    'SELECT count(*), count(DISTINCT id), min(id), max(id) FROM trips',
    'SELECT kind, count(*) FROM trips GROUP BY kind ORDER BY kind',
  ];
  for (const sql of queries) {
    const expected = await duckRows(sql.replace('FROM trips', `FROM (${source}) AS trips`));
    assert.deepEqual(await floeRows(entry, sql), expected, sql);
  }
}

const parquet = (...names: string[]) => `read_parquet([${names.map((n) => `'${join(dir, n)}'`).join(', ')}])`;
const data = (entry: TableEntry) => (entry as MemoryTableEntry).data;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-refresh-'));
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  await writeRows('all/p1.parquet', 0, 3000);
  await writeRows('all/p2.parquet', 3000, 2500);
});
after(async () => {
  duck.closeSync();
  await rm(dir, { recursive: true, force: true });
});

describe('full refresh', () => {
  it('loads every row and column without refresh SQL', async () => {
    const result = await refresh({ mode: 'full', from: join(dir, 'all') });
    assert.equal(result.rows, 5500);
    assert.equal(result.loadedRows, 5500);
    assert.equal(result.entry.kind, 'memory');
    assert.ok(data(result.entry).dictionaries?.[2], 'kind has a dictionary');
    await assertSameAsDuckDb(result.entry, `SELECT * FROM ${parquet('all/p1.parquet', 'all/p2.parquet')}`);
  });

  it('loads the rows and columns refresh SQL selects', async () => {
    const refreshSql = "SELECT id, kind, amount FROM trips WHERE kind <> 'x' AND id >= 1500";
    const result = await refresh({ mode: 'full', from: join(dir, 'all'), refreshSql });
    assert.deepEqual(
      data(result.entry).schema.fields.map((f) => f.name),
      ['id', 'kind', 'amount'],
    );
    assert.equal(result.rows, 3000);
    const source = `SELECT id, kind, amount FROM ${parquet('all/p1.parquet', 'all/p2.parquet')} WHERE kind <> 'x' AND id >= 1500`;
    await assertSameAsDuckDb(result.entry, source, 'id, kind, amount');
  });

  it('takes * with a WHERE, and a WHERE no row passes', async () => {
    const star = await refresh({
      mode: 'full',
      from: join(dir, 'all'),
      refreshSql: 'SELECT * FROM trips WHERE amount IS NULL;',
    });
    assert.equal(star.rows, 550);
    await assertSameAsDuckDb(
      star.entry,
      `SELECT * FROM ${parquet('all/p1.parquet', 'all/p2.parquet')} WHERE amount IS NULL`,
    );
    const none = await refresh({
      mode: 'full',
      from: join(dir, 'all'),
      refreshSql: 'SELECT id FROM trips WHERE id < 0',
    });
    assert.equal(none.rows, 0);
    assert.deepEqual(await floeRows(none.entry, 'SELECT count(*) FROM trips'), [['0']]);
  });
});

describe('refresh SQL checks', () => {
  const cases: [string, RegExp][] = [
    ['SELEC id FROM trips', /^refresh_sql does not parse: syntax error at line 1/],
    ['SELECT nope FROM trips', /^refresh_sql: column "nope" does not exist; available columns: id, ts, kind, amount/],
    ['SELECT * FROM other', /^refresh_sql may read only the dataset "trips": table "other" does not exist/],
    ['SELECT t.id FROM trips t JOIN trips u ON t.id = u.id', /^refresh_sql may not use joins or subqueries: /],
    ['SELECT * FROM trips WHERE id IN (SELECT id FROM trips)', /^refresh_sql may not use joins or subqueries/],
    ['SELECT kind, count(*) FROM trips GROUP BY kind', /^refresh_sql may not use aggregates, GROUP BY or DISTINCT/],
    ['SELECT DISTINCT kind FROM trips', /^refresh_sql may not use aggregates, GROUP BY or DISTINCT/],
    ['SELECT * FROM trips ORDER BY id', /^refresh_sql may not use ORDER BY/],
    ['SELECT * FROM trips LIMIT 10', /^refresh_sql may not use LIMIT/],
    ['SELECT id FROM trips UNION ALL SELECT id FROM trips', /^refresh_sql may not use UNION, INTERSECT or EXCEPT/],
    ['SELECT id + 1 FROM trips', /^refresh_sql may select only the dataset's columns by name/],
    ['SELECT id AS trip FROM trips', /^refresh_sql may select only the dataset's columns by name/],
    ['SELECT id, id FROM trips', /^refresh_sql may select only the dataset's columns by name/],
    ['SELECT 1', /^refresh_sql may not use rows that are not the dataset’s/],
    ['DELETE FROM trips', /^refresh_sql: DELETE is not allowed in a read-only SQL context; refresh_sql must be/],
  ];
  // The checks on this thread (as the loader thread runs them), and two of them as checkRefreshSql runs them.
  const source = () => createParquetTable([join(dir, 'all/p1.parquet')]);
  const check = async (sql: string) => {
    const table = await source();
    const engine = createEngine({ catalog: createMapCatalog(new Map([['trips', table]])), parallel: { threads: 0 } });
    return selectedFields(engine, sql, 'trips', table.schema);
  };
  for (const [sql, message] of cases) {
    it(`rejects ${sql}`, async () => {
      await assert.rejects(check(sql), (e: Error) => {
        assert.ok(e instanceof RefreshError);
        assert.match(e.message, message);
        return true;
      });
    });
  }

  it('accepts plain columns, *, a WHERE, an alias or a subquery of that shape', async () => {
    const names = async (sql: string) => (await check(sql)).map((f) => f.name).join(' ');
    assert.equal(await names('SELECT kind, id FROM trips WHERE amount > 10'), 'kind id');
    assert.equal(await names('select * from TRIPS'), 'id ts kind amount');
    assert.equal(await names("SELECT t.ts FROM trips AS t WHERE t.kind = 'a'"), 'ts');
    assert.equal(await names('SELECT * FROM (SELECT id, ts FROM trips WHERE id > 3) s WHERE s.id < 9'), 'id ts');
    assert.equal(await names('WITH w AS (SELECT id FROM trips) SELECT id FROM w'), 'id');
  });

  it('checkRefreshSql binds on the loader thread and says what is wrong', async () => {
    await checkRefreshSql(
      spec(join(dir, 'all')),
      "SELECT id FROM trips WHERE ts > TIMESTAMP '2026-01-01 00:10:00'",
      dir,
    );
    await assert.rejects(checkRefreshSql(spec(join(dir, 'all')), 'SELECT id FROM trips WHERE nope', dir), {
      name: 'RefreshError',
      message: /^refresh_sql: column "nope" does not exist/,
    });
  });

  it('prunes row groups with the refresh WHERE and the time filter', async () => {
    const table = await createParquetTable([join(dir, 'all/p1.parquet'), join(dir, 'all/p2.parquet')]);
    const engine = createEngine({ catalog: createMapCatalog(new Map([['trips', table]])), parallel: { threads: 0 } });
    const sql = newerRowsSql(
      'SELECT id, ts FROM trips WHERE id < 4000 -- a comment',
      'ts',
      "TIMESTAMP '2026-01-01 00:50:00'",
    );
    const scan = (await engine.explain(sql)).find((l) => l.includes('Scan:'));
    assert.match(scan ?? '', /row_groups=1\/6/);
  });

  it('fails a load with bad refresh SQL as a refresh failure, and a missing source as a source one', async () => {
    await assert.rejects(
      refresh({ mode: 'full', from: join(dir, 'all'), refreshSql: 'SELECT max(id) FROM trips' }),
      (e) => {
        assert.ok(e instanceof DatasetError);
        assert.equal(e.failure, 'refresh');
        assert.match(e.message, /^datasets\[0\] \(trips\): refresh_sql may not use aggregates/);
        return true;
      },
    );
    await assert.rejects(refresh({ mode: 'full', from: join(dir, 'nowhere'), index: 3 }), (e) => {
      assert.ok(e instanceof DatasetError);
      assert.equal(e.failure, 'source');
      assert.match(e.message, /^datasets\[3\] \(trips\): no such file or folder/);
      return true;
    });
  });
});

describe('the newest loaded value as a literal', () => {
  it('keeps only rows strictly after it, for every kind of time column', async () => {
    const path = join(dir, 'types.parquet');
    await writeParquetFile(path, [
      { name: 'i64', type: { id: 'int64' }, values: [1n, 9007199254740993n, 5n] },
      { name: 'd', type: { id: 'date' }, values: [1, 20000, 3] },
      { name: 'tz', type: { id: 'timestamp', tz: 'UTC' }, values: [1e12 + 1, 2e12 + 7, 3] },
      { name: 'f', type: { id: 'float64' }, values: [0.1, 1 / 3, 0.2] },
      { name: 's', type: { id: 'utf8' }, values: ["it's", 'z', 'c'] },
      { name: 'dec', type: { id: 'decimal', precision: 20, scale: 3 }, values: [1, 123456, 7] },
    ]);
    const table = await createParquetTable([path]);
    const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])), parallel: { threads: 0 } });
    const count = async (sql: string) => (await queryRows(engine, `SELECT count(*) FROM (${sql}) AS q`)).rows[0]![0];
    for (const column of ['i64', 'd', 'tz', 'f', 's', 'dec']) {
      const result = await engine.execute(`SELECT max(${column}) FROM t`);
      let newest: string | null = null;
      for await (const b of result.batches) newest = literalOf(b.columns[0]!);
      assert.equal(await count(newerRowsSql('SELECT * FROM t', column, newest)), '0', column);
      assert.equal(await count(`SELECT * FROM t WHERE ${column} >= ${newest}`), '1', column);
      assert.equal(await count(newerRowsSql('SELECT * FROM t;', column, null)), '3', column);
    }
  });
});

describe('append refresh with a time column', () => {
  const f = (n: number) => `time/f${n}.parquet`;
  const upTo = (...names: string[]) => `SELECT * FROM ${parquet(...names)}`;
  /** The rows an append of `next` adds to `loaded` (a DuckDB relation): those after the newest loaded. */
  const appended = (loaded: string, next: string, where = 'true') =>
    `${loaded} UNION ALL SELECT * FROM (SELECT * FROM ${parquet(next)} WHERE ${where}) ` +
    `WHERE ts > (SELECT max(ts) FROM (${loaded}))`;

  it('appends each new row exactly once over several rounds, sharing the old rows', async () => {
    const from = join(dir, 'time');
    await writeRows(f(1), 0, 2000);
    const first = await refresh({ mode: 'append', timeColumn: 'ts', from });
    assert.deepEqual([first.rows, first.loadedRows], [2000, 2000]);

    await writeRows(f(2), 2000, 1500);
    const second = await refresh({ mode: 'append', timeColumn: 'ts', from, previous: first.entry });
    assert.deepEqual([second.rows, second.loadedRows], [3500, 1500]);
    await assertSameAsDuckDb(second.entry, upTo(f(1), f(2)));
    assertShares(first.entry, second.entry);

    const third = await refresh({ mode: 'append', timeColumn: 'ts', from, previous: second.entry });
    assert.deepEqual([third.rows, third.loadedRows], [3500, 0]);
    assert.equal(third.entry, second.entry);

    // Rows 3300..3499 again (not newer: left out) and 1500 new ones.
    await writeRows(f(3), 3300, 1700);
    const fourth = await refresh({ mode: 'append', timeColumn: 'ts', from, previous: third.entry });
    assert.deepEqual([fourth.rows, fourth.loadedRows], [5000, 1500]);
    await assertSameAsDuckDb(fourth.entry, appended(upTo(f(1), f(2)), f(3)));
    assert.ok(data(fourth.entry).dictionaries?.[2], 'kind keeps its dictionary');
    assertShares(second.entry, fourth.entry);
  });

  it('combines the time filter with the refresh SQL', async () => {
    const from = join(dir, 'time');
    const refreshSql = "SELECT id, ts, kind, amount FROM trips WHERE kind <> 'x' AND id % 3 <> 0";
    const where = "kind <> 'x' AND id % 3 <> 0";
    const first = await refresh({
      mode: 'append',
      timeColumn: 'TS',
      from: join(dir, 'time', 'f1.parquet'),
      refreshSql,
    });
    const loaded = `SELECT * FROM ${parquet(f(1))} WHERE ${where}`;
    await assertSameAsDuckDb(first.entry, loaded);
    // The files the first test wrote one round at a time, named by globs.
    const next = await refresh({
      mode: 'append',
      timeColumn: 'TS',
      from: join(dir, 'time', 'f[12].parquet'),
      refreshSql,
      previous: first.entry,
    });
    const both = `SELECT * FROM ${parquet(f(1), f(2))} WHERE ${where}`;
    await assertSameAsDuckDb(next.entry, both);
    const last = await refresh({ mode: 'append', timeColumn: 'TS', from, refreshSql, previous: next.entry });
    await assertSameAsDuckDb(last.entry, appended(both, f(3), where));
  });

  it('needs the time column among the columns loaded', async () => {
    const from = join(dir, 'time');
    await assert.rejects(refresh({ mode: 'append', timeColumn: 'ts', from, refreshSql: 'SELECT id FROM trips' }), {
      failure: 'refresh',
      message: /time_column "ts" is not among the columns loaded \(id\); refresh_sql must select it/,
    });
  });
});

const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);

/** `after` holds `before`'s first chunk as the same memory: a write through one shows through the other. */
function assertShares(before: TableEntry, after: TableEntry): void {
  const old = data(before).chunks[0]!.columns[0]!.values as Int32Array;
  const now = data(after).chunks[0]!.columns[0]!.values as Int32Array;
  assert.ok(now.buffer instanceof SharedArrayBuffer);
  const kept = old[0]!;
  old[0] = 424242;
  assert.equal(now[0], 424242);
  old[0] = kept;
}

describe('append refresh without a time column', () => {
  it('appends the rows of new files once, and nothing when there is none', async () => {
    const from = join(dir, 'files');
    await writeRows('files/f1.parquet', 0, 1200);
    const first = await refresh({ mode: 'append', from });
    assert.deepEqual(
      (first.entry as MemoryTableEntry).loadedFiles?.map((f) => f.location),
      [join(from, 'f1.parquet')],
    );

    // Older times than the loaded ones: files, not times, decide.
    await writeRows('files/f2.parquet', 5000, 800, 10_000);
    const second = await refresh({ mode: 'append', from, previous: first.entry });
    assert.deepEqual([second.rows, second.loadedRows], [2000, 800]);
    await assertSameAsDuckDb(second.entry, `SELECT * FROM ${parquet('files/f1.parquet', 'files/f2.parquet')}`);
    assertShares(first.entry, second.entry);

    const again = await refresh({ mode: 'append', from, previous: second.entry });
    assert.deepEqual([again.rows, again.loadedRows], [2000, 0]);
    assert.equal(again.entry, second.entry);

    await writeRows('files/f1.parquet', 0, 1300);
    await assert.rejects(refresh({ mode: 'append', from, previous: second.entry }), (e) => {
      assert.ok(e instanceof DatasetError);
      assert.equal(e.failure, 'refresh');
      assert.match(e.message, /f1\.parquet changed since it was loaded \(\d+ bytes, now \d+\).*run a full refresh/);
      return true;
    });
  });

  it('loads in full when the previous entry does not list its files', async () => {
    const from = join(dir, 'files', 'f2.parquet');
    const first = await refresh({ mode: 'full', from });
    const { loadedFiles: _, ...bare } = first.entry as MemoryTableEntry;
    const again = await refresh({ mode: 'append', from, previous: bare });
    assert.deepEqual([again.rows, again.loadedRows], [800, 800]);
  });
});

describe('append refresh of changed columns', () => {
  it('fails when the refresh SQL now selects other columns', async () => {
    const from = join(dir, 'all');
    const first = await refresh({ mode: 'full', from, refreshSql: 'SELECT id, kind FROM trips' });
    await assert.rejects(
      refresh({
        mode: 'append',
        from,
        timeColumn: 'id',
        refreshSql: 'SELECT id, ts FROM trips',
        previous: first.entry,
      }),
      (e) => {
        assert.ok(e instanceof DatasetError);
        assert.equal(e.failure, 'refresh');
        assert.match(
          e.message,
          /the columns changed since the last load \(id integer, kind text; now id integer, ts timestamp\).*run a full refresh/,
        );
        return true;
      },
    );
  });

  it('fails when the source now has other columns', async () => {
    const from = join(dir, 'wider');
    await writeRows('wider/f1.parquet', 0, 100);
    const first = await refresh({ mode: 'append', timeColumn: 'id', from });
    const other = [
      { name: 'id', type: { id: 'int32' }, values: [1000] },
      { name: 'extra', type: { id: 'utf8' }, values: ['e'] },
    ] as const;
    // Beside the loaded file: the files no longer form one table, whatever the refresh.
    await writeParquetFile(join(from, 'f2.parquet'), other);
    await assert.rejects(refresh({ mode: 'append', from, previous: first.entry }), {
      failure: 'source',
      message: /cannot read: Parquet file .*f2\.parquet does not match the schema of .*f1\.parquet/,
    });
    // Instead of it: a time-column append sees other columns.
    await rm(join(from, 'f2.parquet'));
    await writeParquetFile(join(from, 'f1.parquet'), other);
    await assert.rejects(refresh({ mode: 'append', timeColumn: 'id', from, previous: first.entry }), {
      failure: 'refresh',
      message:
        /the columns changed since the last load \(id integer, ts timestamp, kind text, amount numeric\(15,2\); now id integer, extra text\)/,
    });
  });
});

describe('cancelling a refresh', () => {
  it('ends its thread, rejects with the abort reason and leaves the serving entry as it was', async () => {
    await writeRows('big/b.parquet', 0, 400_000);
    const from = join(dir, 'big');
    const previous = (await refresh({ mode: 'full', from: join(dir, 'all') })).entry;
    const before = data(previous).chunks;
    // The loader thread the loads above shared, kept for the next load (loader-lease.ts), ends first.
    await closeIdleLoader();
    const idle = threads();
    // Aborted at once, and once the loader thread is up and at work.
    for (const busyMs of [-1, 300]) {
      const controller = new AbortController();
      const loading = refresh({ mode: 'full', from, previous, signal: controller.signal });
      if (busyMs < 0) controller.abort();
      else {
        while (threads() === idle) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, busyMs));
        controller.abort();
      }
      await assert.rejects(loading, { name: 'AbortError' });
      assert.equal(threads(), idle, 'the loader thread and its helpers are gone');
    }
    assert.equal(data(previous).chunks, before);
    await assert.rejects(refresh({ mode: 'full', from, signal: AbortSignal.abort() }), { name: 'AbortError' });
    // A refresh after them runs as usual.
    assert.equal((await refresh({ mode: 'full', from, refreshSql: 'SELECT id FROM trips WHERE id < 10' })).rows, 10);
  });
});
