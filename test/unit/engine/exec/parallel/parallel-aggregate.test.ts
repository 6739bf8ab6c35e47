// Parallel aggregates: which aggregates split their scan across a helper thread (EXPLAIN's `partitions=2`), and
// what the split keeps: the one-thread answer, the one-thread error, and a refreshed table's new rows.
// (Every differential case also runs on a splitting engine: test/helpers/engines.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { makeBatch } from '../../../../../engine/arrow/batch.js';
import { makeColumn } from '../../../../../engine/arrow/column.js';
import type { PhysicalOperator } from '../../../../../engine/exec/operator.js';
import { type ExecPool, sharedExecPool } from '../../../../../engine/exec/parallel/exec-pool.js';
import type { FragmentTask } from '../../../../../engine/exec/parallel/messages.js';
import { ParallelAggregateExec } from '../../../../../engine/exec/parallel/parallel-aggregate-exec.js';
import {
  CancelledError,
  createEngine,
  createMapCatalog,
  createMemoryTable,
  type Engine,
  ExecError,
  loadParquetTable,
  type MemoryTableData,
  type TableProvider,
} from '../../../../../engine/index.js';
import type { Aggregate } from '../../../../../engine/plan/logical/index.js';
import { INT32, type Schema } from '../../../../../engine/plan/types.js';
import { queryRows } from '../../../../helpers/engines.js';
import { type TestData, writeTestData } from '../../../../helpers/gen-data.js';

const NEVER = new AbortController().signal;
const ONE_INT: Schema = { fields: [{ name: 'i', qualifier: null, type: INT32, nullable: false }] };

let data: TestData;
let items: MemoryTableData;
let lineitem: MemoryTableData;

before(async () => {
  data = await writeTestData();
  items = await loadParquetTable(data.tables.get('items')!);
  lineitem = await loadParquetTable(data.tables.get('lineitem')!);
});
after(() => data.remove());

function engineOver(tables: Record<string, TableProvider>, threads = 1, minRows = 1): Engine {
  const parallel = { threads, minRows, takeBack: false };
  return createEngine({ catalog: createMapCatalog(new Map(Object.entries(tables))), parallel });
}

const tables = () => ({ items: createMemoryTable(items), lineitem: createMemoryTable(lineitem) });

async function split(engine: Engine, sql: string): Promise<boolean> {
  const lines = await engine.explain(sql);
  return lines.some((l) => l.includes('partitions=2'));
}

describe('which aggregates split', () => {
  it('splits a grouped or global aggregate over one table through filters and projections', async () => {
    const engine = engineOver(tables());
    assert.ok(await split(engine, 'SELECT grp, sum(price), avg(qty), count(*) FROM items WHERE qty > 3 GROUP BY grp'));
    assert.ok(await split(engine, 'SELECT min(d), max(name), any_value(cat) FROM items'));
    // Text keys: a loaded column of few values has a dictionary, which bounds its groups.
    assert.ok(await split(engine, 'SELECT cat, count(*) FROM items GROUP BY cat'));
    // Through joins whose build side is small (every partition builds it): the probe side is split, and a key
    // from the build side is bounded by its own table's statistics.
    const star = `SELECT l_returnflag, count(*), sum(qty) FROM items JOIN lineitem ON items.id = lineitem.l_orderkey
      WHERE items.qty > 3 GROUP BY l_returnflag`;
    assert.ok(await split(engine, star));
    assert.ok(await split(engine, 'SELECT count(*) FROM items LEFT JOIN lineitem ON id = l_orderkey'));
    assert.ok(await split(engine, 'SELECT sum(qty) FROM items WHERE id IN (SELECT l_orderkey FROM lineitem)'));
  });

  it('keeps on one thread what would not pay or not merge', async () => {
    const engine = engineOver(tables());
    const one = [
      // Right and full joins add the unmatched build rows: each partition would add them again.
      'SELECT count(*) FROM items RIGHT JOIN lineitem ON items.id = lineitem.l_orderkey',
      'SELECT count(*) FROM items FULL JOIN lineitem ON items.id = lineitem.l_orderkey',
      // A computed key: no bound on its groups is known, and no column to split its groups by.
      'SELECT qty % 7, count(*) FROM items GROUP BY qty % 7',
      // DISTINCT, ordered and statistical aggregates do not merge from partial results (and have no groups).
      'SELECT count(DISTINCT qty) FROM items',
      'SELECT stddev(f) FROM items',
      'SELECT grp, count(*) FROM items GROUP BY ROLLUP (grp)',
    ];
    for (const sql of one) assert.equal(await split(engine, sql), false, sql);
    // A build side of more than 65,536 rows (the smaller side is built: both are large here) would be built again
    // by each partition; the rows its table holds count, not the ones a filter keeps (estimates are rough).
    // (Keys in descending order: equal ascending keys would split both tables by key ranges, below.)
    const big = createMemoryTable(sharedInts('k', 70_000, true));
    const small = createMemoryTable(sharedInts('k', 60_000, true));
    const withBig = engineOver({ a: big, b: big, c: small });
    assert.equal(await split(withBig, 'SELECT count(*) FROM a JOIN b ON a.k = b.k'), false, 'large build side');
    assert.equal(await split(withBig, 'SELECT count(*) FROM a JOIN b ON a.k = b.k WHERE b.k < 10'), false);
    assert.ok(await split(withBig, 'SELECT count(*) FROM a JOIN c ON a.k = c.k'), 'small build side');
    // Past 65,536 rows, a build side may read up to a third of the split table's rows (each thread is spared more
    // probe rows than it builds again): 70,000 ≤ 1.2 M / 3 = 400,000 < 410,000.
    const withHuge = engineOver({
      h: createMemoryTable(sharedInts('k', 1_200_000, true)),
      b: big,
      d: createMemoryTable(sharedInts('k', 410_000, true)),
    });
    assert.ok(await split(withHuge, 'SELECT count(*) FROM h JOIN b ON h.k = b.k'), 'a third of the probe');
    assert.equal(await split(withHuge, 'SELECT count(*) FROM h JOIN d ON h.k = d.k'), false, 'more than that');
    const sql = 'SELECT count(*) FROM items';
    assert.equal(await split(engineOver(tables(), 0), sql), false, 'threads 0');
    assert.equal(await split(engineOver(tables(), 1, 100_000), sql), false, 'fewer rows than minRows');
    // Columns outside shared memory cannot reach another thread.
    const copied = { ...items, chunks: items.chunks.map((c) => ({ ...c, columns: c.columns.map(unshared) })) };
    assert.equal(await split(engineOver({ items: createMemoryTable(copied) }), sql), false, 'not shared');
  });
});

describe('splits by the hash of its keys', () => {
  it('splits groups too many to merge, or calls that do not merge, by the hash of key columns of the scan', async () => {
    const engine = engineOver(tables());
    const how = async (sql: string) => (await engine.explain(sql)).find((l) => l.includes('partitions='));
    const cases: [string, string][] = [
      // Keys spanning ~2^53 values, or 5,000 × 50: merging partials could hash every row again.
      ['SELECT big, count(*) FROM items GROUP BY big', 'partitions=2 by hash(big)'],
      ['SELECT d, qty, count(*) FROM items GROUP BY d, qty', 'partitions=2 by hash(d, qty)'],
      // Calls that do not merge; a computed key beside a column (the column alone splits the groups).
      ['SELECT grp, count(DISTINCT qty), stddev(f) FROM items GROUP BY grp', 'partitions=2 by hash(grp)'],
      ["SELECT name, qty % 7, string_agg(cat, ',') FROM items GROUP BY 1, 2", 'partitions=2 by hash(name)'],
    ];
    for (const [sql, want] of cases) assert.ok((await how(sql))?.endsWith(want), sql);
    // A key from a join's build side may be NULL-extended (a left join): only probe-side columns split.
    const join = 'SELECT l_returnflag, count(DISTINCT qty) FROM items LEFT JOIN lineitem ON id = l_orderkey GROUP BY 1';
    assert.equal(await how(join), undefined);
    // On the probe side of an inner join, whose build keys may filter it: helpers could not apply those filters.
    const grouped = '(SELECT big, count(DISTINCT qty) AS c FROM items GROUP BY big) s';
    assert.equal(
      await how(`SELECT s.c FROM lineitem JOIN ${grouped} ON s.big = l_orderkey WHERE l_quantity < 2`),
      undefined,
    );
    const left = await how(`SELECT count(*) FROM ${grouped} LEFT JOIN lineitem ON s.big = l_orderkey`);
    assert.ok(left?.endsWith('partitions=2 by hash(big)'), 'a left join filters nothing');
  });
});

describe('what a helper receives', () => {
  it('gets the aggregate as plan data that structured clone keeps whole, never the SQL text', async () => {
    const t = { a: createMemoryTable(sharedInts('k', 100_000)), b: createMemoryTable(sharedInts('k', 70_000)) };
    const cases: [Record<string, TableProvider>, string][] = [
      [tables(), "SELECT grp, avg(price), min(name) FROM items WHERE d >= DATE '1995-01-01' GROUP BY grp"],
      [
        tables(),
        "SELECT l_returnflag, count(*) FROM items JOIN lineitem ON id = l_orderkey WHERE name LIKE 'a%' GROUP BY 1",
      ],
      [t, 'SELECT count(*), sum(a.k) FROM a JOIN b ON a.k = b.k WHERE b.k % 3 = 0'],
    ];
    const pool = sharedExecPool(1);
    const submit = pool.submit;
    const sent: FragmentTask[] = [];
    pool.submit = (task, signal) => {
      sent.push(task);
      return submit.call(pool, task, signal);
    };
    try {
      for (const [tbls, sql] of cases) {
        sent.length = 0;
        const rows = (await queryRows(engineOver(tbls), sql)).rows;
        assert.deepEqual(rows, (await queryRows(engineOver(tbls, 0), sql)).rows, sql);
        assert.equal(sent.length, 1, sql);
        const { plan } = sent[0]!;
        assert.equal('sql' in sent[0]!, false, sql);
        // Plain data: a function would throw, a class instance would come back a plain object (another prototype).
        assert.ok(isDeepStrictEqual(structuredClone(plan), plan), sql);
        assert.equal(plan.kind, 'aggregate');
      }
    } finally {
      pool.submit = submit;
    }
  });
});

describe('splits by key ranges', () => {
  const sort = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort();
  const scans = async (engine: Engine, sql: string) =>
    (await engine.explain(sql)).filter((l) => l.includes('Scan:')).map((l) => l.match(/partitions=.*/)?.[0] ?? '');

  it('splits both sides of a join on keys both tables hold in order, each partition joining its own rows', async () => {
    // A build side of 70,000 rows would be built again per partition if only the probe side split.
    const t = { a: createMemoryTable(sharedInts('k', 100_000)), b: createMemoryTable(sharedInts('k', 70_000)) };
    const sql = 'SELECT count(*), sum(a.k), min(b.k), max(b.k) FROM a JOIN b ON a.k = b.k WHERE b.k % 3 = 0';
    assert.deepEqual(await scans(engineOver(t), sql), ['partitions=2 by k', 'partitions=2 by k']);
    assert.deepEqual((await queryRows(engineOver(t), sql)).rows, (await queryRows(engineOver(t, 0), sql)).rows);
    // A build side not in key order: not split by key, and too large to build again per partition.
    const unordered = { a: t.a, b: createMemoryTable(sharedInts('k', 70_000, true)) };
    assert.deepEqual(await scans(engineOver(unordered), sql), ['', '']);
  });

  it('runs any aggregate per partition when it groups by the split key, and merges otherwise', async () => {
    const engine = engineOver(tables());
    const one = engineOver(tables(), 0);
    // Groups by the key: DISTINCT does not merge, but no group is in two partitions.
    const byKey =
      'SELECT l_orderkey, count(DISTINCT l_quantity), sum(l_quantity), count(*) FROM lineitem GROUP BY l_orderkey';
    assert.deepEqual(await scans(engine, byKey), ['partitions=2 by l_orderkey']);
    assert.deepEqual(sort((await queryRows(engine, byKey)).rows), sort((await queryRows(one, byKey)).rows));
    // A key of a left join's build side is NULL on every unmatched probe row, in both partitions: merged into one
    // NULL group, not two.
    // (b: 70,000 rows, too many to build again per partition, of 35,000 keys, few enough groups to merge.)
    const t = {
      a: createMemoryTable(sharedInts('k', 100_000)),
      b: createMemoryTable(sharedInts('k', 70_000, false, (i) => i >> 1)),
    };
    const left = 'SELECT b.k IS NULL AS unmatched, count(*), sum(a.k) FROM a LEFT JOIN b ON a.k = b.k GROUP BY b.k';
    assert.deepEqual(await scans(engineOver(t), left), ['partitions=2 by k', 'partitions=2 by k']);
    const rows = (await queryRows(engineOver(t), left)).rows;
    assert.deepEqual(sort(rows), sort((await queryRows(engineOver(t, 0), left)).rows));
    assert.deepEqual(
      rows.filter((r) => r[0] === 'true'),
      [['true', '65000', String((100_000 * 99_999 - 35_000 * 34_999) / 2)]],
    );
  });

  it('stays on one thread when the table has fewer rows than partitions (no split points)', async () => {
    const empty = { schema: sharedInts('k', 1).schema, chunks: [] };
    const t = { e: createMemoryTable(empty) };
    const engine = createEngine({
      catalog: createMapCatalog(new Map(Object.entries(t))),
      parallel: { threads: 1, minRows: 0, takeBack: false },
    });
    assert.deepEqual((await queryRows(engine, 'SELECT k, count(*) FROM e GROUP BY k')).rows, []);
  });

  it('runs a partition no helper started on this thread (takeBack on, the default)', async () => {
    const t = { a: createMemoryTable(sharedInts('k', 100_000)), b: createMemoryTable(sharedInts('k', 70_000)) };
    const claiming = createEngine({ catalog: createMapCatalog(new Map(Object.entries(t))), parallel: { threads: 1 } });
    const sql = 'SELECT count(*), sum(a.k) FROM a JOIN b ON a.k = b.k';
    const expected = [['70000', String((70_000 * 69_999) / 2)]];
    for (let i = 0; i < 3; i++) assert.deepEqual((await queryRows(claiming, sql)).rows, expected);
    // A partition no helper started: a fixed share (a key range) runs here, a claimed one has been read already.
    const partition = (i: number): PhysicalOperator => ({
      schema: ONE_INT,
      async *execute() {
        yield makeBatch(ONE_INT, [makeColumn(INT32, Int32Array.of(i), null, 1)], 1);
      },
    });
    const idle = {
      threads: 1,
      submit: () => ({ result: new Promise<never>(() => {}), takeBack: () => true }),
    } as unknown as ExecPool;
    const run = async (fixedShares: boolean) => {
      const spec = { local: partition, final: (p: PhysicalOperator) => p, pool: idle, partialSchema: ONE_INT };
      // The idle pool never reads the task's plan.
      const task = { plan: {} as Aggregate, scan: 0, parts: 2, tables: [] };
      const op = new ParallelAggregateExec({ ...spec, task, takeBack: true, fixedShares }, ONE_INT);
      const out: number[] = [];
      for await (const b of op.execute({ catalog: createMapCatalog(new Map()), signal: NEVER }))
        out.push(...(b.columns[0]!.values as Int32Array));
      return out;
    };
    assert.deepEqual(await run(true), [0, 1]);
    assert.deepEqual(await run(false), [0]);
  });
});

describe('what a split keeps', () => {
  it('answers as one thread does, row for row', async () => {
    // Exact types only: a double's sum depends on the order of its terms (the differential suites compare those
    // within a tolerance, on every case).
    const queries = [
      'SELECT grp, sum(price), avg(price), avg(big), count(price), min(name), max(d) FROM items GROUP BY grp',
      "SELECT cat, count(*), sum(qty), avg(rate) FROM items WHERE d >= DATE '1995-01-01' GROUP BY cat",
      // No row passes: one row of NULLs and a zero count, from partials that saw nothing.
      'SELECT count(*), sum(price), avg(price), min(name) FROM items WHERE qty > 1000',
      'SELECT sum(l_extendedprice * (1 - l_discount)), avg(l_quantity) FROM lineitem',
    ];
    const one = engineOver(tables(), 0);
    const two = engineOver(tables());
    for (const sql of queries) {
      assert.ok(await split(two, sql), sql);
      const sort = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort();
      assert.deepEqual(sort((await queryRows(two, sql)).rows), sort((await queryRows(one, sql)).rows), sql);
    }
  });

  it('answers the same when the threads claim chunks (takeBack on, the default)', async () => {
    const claiming = createEngine({
      catalog: createMapCatalog(new Map(Object.entries(tables()))),
      parallel: { threads: 1, minRows: 1 },
    });
    const one = engineOver(tables(), 0);
    const sql = 'SELECT grp, sum(price), avg(price), count(*), min(name), max(d) FROM items GROUP BY grp';
    assert.ok(await split(claiming, sql));
    const sort = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort();
    // Several runs: which thread reads which chunk changes from run to run, the answer must not.
    const expected = sort((await queryRows(one, sql)).rows);
    for (let i = 0; i < 5; i++) assert.deepEqual(sort((await queryRows(claiming, sql)).rows), expected);
  });

  it('raises the error a partition hits, as one thread raises it, and keeps serving', async () => {
    const engine = engineOver(tables());
    // id 4999 is row 998 of the last 1,000-row chunk: in the helper's half.
    const sql = 'SELECT grp, sum(qty / (id - 4999)) FROM items GROUP BY grp';
    assert.ok(await split(engine, sql));
    await assert.rejects(queryRows(engine, sql), (e) => e instanceof ExecError && /division by zero/.test(e.message));
    const rows = await queryRows(engine, 'SELECT count(*) FROM items');
    assert.deepEqual(rows.rows, [['5000']]);
  });

  it('stops both partitions when the query is cancelled, and the helper takes the next query', async () => {
    const engine = engineOver(tables());
    const sql = 'SELECT grp, sum(price), count(*) FROM items GROUP BY grp';
    assert.ok(await split(engine, sql));
    for (let i = 0; i < 3; i++) {
      const abort = new AbortController();
      const result = await engine.execute(sql, { signal: abort.signal });
      const first = result.batches[Symbol.asyncIterator]().next();
      abort.abort();
      await assert.rejects(first, CancelledError);
    }
    // takeBack is off: a helper still busy with a cancelled partition would leave this waiting.
    assert.equal((await queryRows(engine, sql)).rows.length, 11);
  });

  it('reads a refreshed table: the helper gets the new rows under the same name', async () => {
    const sql = 'SELECT count(*), sum(qty) FROM items';
    const before = await queryRows(engineOver(tables()), sql);
    const half = { ...items, chunks: items.chunks.slice(0, 2), dictionaries: undefined };
    const after = await queryRows(engineOver({ items: createMemoryTable(half) }), sql);
    assert.equal(before.rows[0]![0], '5000');
    assert.equal(after.rows[0]![0], '2000');
    // And back: the helper holds one version per name, so the first data is sent again.
    assert.deepEqual((await queryRows(engineOver(tables()), sql)).rows, before.rows);
  });
});

/**
 * A one-column table of int32 `valueAt(i)` for rows i < n (default i; n-1-i when `descending`) in shared memory,
 * in `chunks` chunks.
 */
function sharedInts(
  name: string,
  n: number,
  descending = false,
  valueAt = (i: number) => i,
  chunks = 1,
): MemoryTableData {
  const values = new Int32Array(new SharedArrayBuffer(n * 4));
  for (let i = 0; i < n; i++) values[i] = valueAt(descending ? n - 1 - i : i);
  const field = { name, qualifier: null, type: { id: 'int32' as const }, nullable: false };
  const rows = Math.ceil(n / chunks);
  return {
    schema: { fields: [field] },
    chunks: Array.from({ length: chunks }, (_, c) => {
      const part = values.subarray(c * rows, Math.min(n, (c + 1) * rows));
      return { length: part.length, columns: [{ type: field.type, values: part, valid: null, length: part.length }] };
    }),
  };
}

/** A column copied out of shared memory into plain ArrayBuffers. */
function unshared<C extends MemoryTableData['chunks'][number]['columns'][number]>(c: C): C {
  const copy = <T extends ArrayBufferView | null>(a: T): T =>
    a === null ? a : ((a as unknown as { slice(): T }).slice() as T);
  const v = c.values;
  if (v === null || Array.isArray(v)) return c;
  const values = 'offsets' in v ? { ...v, offsets: copy(v.offsets), bytes: copy(v.bytes) } : copy(v);
  return { ...c, values, valid: copy(c.valid) };
}
