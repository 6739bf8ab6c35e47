// Accelerated tables skip chunks whose min/max cannot match a pushed filter (as Parquet row groups are pruned),
// and answer exactly as the file-backed table does, at chunk boundaries, for dates, decimals and NULLs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isSorted, makeColumn } from '../../../../../engine/arrow/column.js';
import { narrowOf } from '../../../../../engine/arrow/narrow-values.js';
import {
  createEngine,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  type Engine,
  loadParquetTable,
} from '../../../../../engine/index.js';
import { type BinaryOp, col, type Expr, lit } from '../../../../../engine/plan/expr/index.js';
import { BOOL, DATE, type DataType, FLOAT64, INT32, INT64, UTF8 } from '../../../../../engine/plan/types.js';
import { ZONE_ROWS } from '../../../../../engine/storage/memory/column-facts.js';
import { bytesColumn } from '../../../../helpers/batches.js';
import { queryRows } from '../../../../helpers/engines.js';
import { type TestData, writeTestData } from '../../../../helpers/gen-data.js';

const NEVER = new AbortController().signal;
let data: TestData;
let memory: Engine;
let files: Engine;

before(async () => {
  data = await writeTestData();
  const mem = new Map();
  const pq = new Map();
  for (const [name, paths] of data.tables) {
    mem.set(name, createMemoryTable(await loadParquetTable(paths)));
    pq.set(name, await createParquetTable([...paths]));
  }
  memory = createEngine({ catalog: createMapCatalog(mem) });
  files = createEngine({ catalog: createMapCatalog(pq) });
});
after(() => data.remove());

async function scanDetail(sql: string): Promise<string> {
  const rows = await queryRows(memory, `EXPLAIN ${sql}`);
  const line = rows.rows.map((r) => r[0]!).find((l) => l.includes('Scan:'));
  return line?.match(/chunks=\S+/)?.[0] ?? '';
}

describe('memory table zone maps', () => {
  it('skips chunks a filter on a sorted column rules out', async () => {
    assert.equal(await scanDetail('SELECT count(*) FROM items WHERE id < 500'), 'chunks=1/5');
    assert.equal(await scanDetail('SELECT count(*) FROM items WHERE id = 2500 OR id = 4999'), 'chunks=2/5');
    assert.equal(await scanDetail('SELECT count(*) FROM items WHERE qty > 10'), 'chunks=5/5');
    assert.equal(await scanDetail('SELECT count(*) FROM items'), 'chunks=5');
  });

  const QUERIES = [
    'SELECT id FROM items WHERE id = 999 OR id = 1000 ORDER BY id',
    'SELECT count(*) FROM items WHERE id <= 1000',
    'SELECT count(*) FROM items WHERE id > 3999 AND id < 4001',
    'SELECT count(*) FROM items WHERE id BETWEEN 1000 AND 1999',
    "SELECT count(*), min(l_shipdate) FROM lineitem WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-02-01'",
    'SELECT count(*) FROM lineitem WHERE l_quantity < 2.00 AND l_orderkey > 100',
    'SELECT count(*) FROM items WHERE grp IS NULL AND id < 2000',
    'SELECT count(*) FROM items WHERE price > 999999.99',
    "SELECT count(*) FROM items WHERE d < DATE '1900-01-01'",
  ];
  for (const sql of QUERIES) {
    it(`answers as the file-backed table: ${sql}`, async () => {
      assert.deepEqual((await queryRows(memory, sql)).rows, (await queryRows(files, sql)).rows);
    });
  }
});

describe('memory table: scans claiming chunks from a shared counter', () => {
  // Ten chunks of 100 rows: id = row number.
  const chunk = (c: number) => {
    const ids = new Int32Array(new SharedArrayBuffer(400));
    for (let i = 0; i < 100; i++) ids[i] = c * 100 + i;
    return { length: 100, columns: [makeColumn(INT32, ids, null, 100)] };
  };
  const table = createMemoryTable({
    schema: { fields: [{ qualifier: null, name: 'id', type: INT32, nullable: false }] },
    chunks: Array.from({ length: 10 }, (_, c) => chunk(c)),
  });
  const ids = async (it: AsyncIterator<{ length: number; columns: readonly { values: unknown }[] }>) => {
    const out: number[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) out.push(...(r.value.columns[0]!.values as Int32Array));
    return out;
  };

  it('hands every chunk, whole, to exactly one of the scans, in the order they ask', async () => {
    const next = new Int32Array(new SharedArrayBuffer(4));
    const scan = (index: number) =>
      table.scan({ columns: ['id'], filters: [], limit: null, partition: { index, count: 2, next } }, NEVER);
    const a = scan(0)[Symbol.asyncIterator]();
    const b = scan(1)[Symbol.asyncIterator]();
    // a claims chunk 0; b, drained next, claims chunks 1-9; a then finds none left. A fixed split would have given
    // each scan half of every chunk.
    const first = await a.next();
    const fromB = await ids(b);
    const rest = await ids(a);
    const fromA = [...(first.value!.columns[0]!.values as Int32Array), ...rest];
    assert.equal(fromA.length + fromB.length, 1000);
    assert.deepEqual(
      [...fromA, ...fromB].sort((x, y) => x - y),
      Array.from({ length: 1000 }, (_, i) => i),
    );
    assert.deepEqual(
      fromA,
      Array.from({ length: 100 }, (_, i) => i),
    );
    assert.equal(next[0], 12, 'each scan asked once past the last chunk');
  });

  it('still skips the chunks a filter rules out', async () => {
    const next = new Int32Array(new SharedArrayBuffer(4));
    const filters: Expr[] = [
      { kind: 'binary', op: '>=', left: col(null, 'id', INT32), right: lit(950, INT32), type: BOOL },
    ];
    const partition = { index: 0, count: 1, next };
    const it = table.scan({ columns: ['id'], filters, limit: null, partition }, NEVER)[Symbol.asyncIterator]();
    assert.deepEqual(
      await ids(it),
      Array.from({ length: 50 }, (_, i) => 950 + i),
    );
  });
});

describe('memory table: key-range partitions', () => {
  /** One int32 column `k` in chunks of the given values (shared memory), optionally with NULLs where null. */
  const tableOf = (chunks: readonly (number | null)[][]) =>
    createMemoryTable({
      schema: { fields: [{ qualifier: null, name: 'k', type: INT32, nullable: true }] },
      chunks: chunks.map((values) => {
        const v = new Int32Array(new SharedArrayBuffer(values.length * 4));
        values.forEach((x, i) => {
          v[i] = x ?? 0;
        });
        const valid = values.includes(null) ? Uint8Array.from(values, (x) => (x === null ? 0 : 1)) : null;
        return { length: values.length, columns: [makeColumn(INT32, v, valid, values.length)] };
      }),
    });
  const keysIn = async (table: ReturnType<typeof tableOf>, lo: number, hi: number, filters: Expr[] = []) => {
    const out: number[] = [];
    const partition = { index: 0, count: 2, keys: { column: 'k', lo, hi } };
    for await (const b of table.scan({ columns: ['k'], filters, limit: null, partition }, NEVER))
      out.push(...(b.columns[0]!.values as Int32Array).subarray(0, b.length));
    return out;
  };
  // Repeated keys across a chunk boundary, as a fact table's order keys are.
  const ordered = [
    [1, 1, 2, 3, 3, 3],
    [3, 4, 5, 5],
    [7, 8, 9, 9, 9, 10],
  ];

  it('splits rows into runs of about equal length at key values, for columns that never decrease', () => {
    const stats = tableOf(ordered).statistics();
    assert.deepEqual(stats.splitPoints?.('k', 2), [5]);
    assert.deepEqual(stats.splitPoints?.('k', 4), [3, 5, 9]);
    // Sorted in each chunk but not across them, a NULL, or a name the table lacks: none.
    assert.equal(
      tableOf([
        [5, 6],
        [1, 2],
      ])
        .statistics()
        .splitPoints?.('k', 2),
      null,
    );
    assert.equal(
      tableOf([[1, null, 3]])
        .statistics()
        .splitPoints?.('k', 2),
      null,
    );
    assert.equal(stats.splitPoints?.('nope', 2), null);
  });

  it('reads the rows of a key range only, repeated keys on either side of a chunk boundary included', async () => {
    const table = tableOf(ordered);
    const all = ordered.flat();
    for (const [lo, hi] of [
      [Number.NEGATIVE_INFINITY, 3],
      [3, 5],
      [5, 9],
      [9, Number.POSITIVE_INFINITY],
      [6, 7],
    ] as const)
      assert.deepEqual(
        await keysIn(table, lo, hi),
        all.filter((k) => k >= lo && k < hi),
        `[${lo}, ${hi})`,
      );
    // With a pushed filter, its zones and the range both apply.
    const filters: Expr[] = [
      { kind: 'binary', op: '<', left: col(null, 'k', INT32), right: lit(4, INT32), type: BOOL },
    ];
    assert.deepEqual(await keysIn(table, 2, 9, filters), [2, 3, 3, 3, 3]);
  });
});

describe('memory table zones inside a chunk', () => {
  // One chunk of 3.5 zones: id = row number (sorted), name = 'n<id>' (UTF-8 bytes), every 7th score NULL.
  const rows = ZONE_ROWS * 3 + ZONE_ROWS / 2;
  const ids = Int32Array.from({ length: rows }, (_, i) => i);
  const enc = new TextEncoder();
  const offsets = new Int32Array(rows + 1);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < rows; i++) {
    parts.push(enc.encode(`n${i}`));
    offsets[i + 1] = offsets[i]! + parts[i]!.length;
  }
  const bytes = new Uint8Array(offsets[rows]!);
  for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
  const valid = Uint8Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? 0 : 1));
  const table = createMemoryTable({
    schema: {
      fields: [
        { qualifier: null, name: 'id', type: INT32, nullable: false },
        { qualifier: null, name: 'name', type: UTF8, nullable: false },
        { qualifier: null, name: 'score', type: FLOAT64, nullable: true },
      ],
    },
    chunks: [
      {
        length: rows,
        columns: [
          makeColumn(INT32, ids, null, rows),
          makeColumn(UTF8, { offsets, bytes }, null, rows),
          makeColumn(
            FLOAT64,
            Float64Array.from(ids, (x) => x / 2),
            valid,
            rows,
          ),
        ],
      },
    ],
  });
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });

  const id = col(null, 'id', INT32);
  const cmp = (op: BinaryOp, v: number): Expr => ({ kind: 'binary', op, left: id, right: lit(v, INT32), type: BOOL });
  async function batchLengths(filters: Expr[]): Promise<number[]> {
    const lengths: number[] = [];
    for await (const b of table.scan({ columns: ['id', 'name'], filters, limit: null }, new AbortController().signal))
      lengths.push(b.length);
    return lengths;
  }

  it('reads only the rows of sorted zones a comparison may match, and whole zones for an OR', async () => {
    assert.deepEqual(await batchLengths([cmp('=', 5000)]), [1]);
    assert.deepEqual(await batchLengths([cmp('>=', ZONE_ROWS * 3)]), [ZONE_ROWS / 2]);
    const either: Expr = { kind: 'binary', op: 'or', left: cmp('=', 1), right: cmp('=', ZONE_ROWS * 2), type: BOOL };
    assert.deepEqual(await batchLengths([either]), [ZONE_ROWS, ZONE_ROWS]);
    assert.deepEqual(await batchLengths([cmp('<', ZONE_ROWS + 1)]), [ZONE_ROWS + 1]);
    assert.deepEqual(await batchLengths([cmp('>', 100), cmp('<=', ZONE_ROWS * 2 + 5)]), [ZONE_ROWS * 2 + 5 - 100]);
    assert.deepEqual(await batchLengths([cmp('<', 0)]), []);
    assert.deepEqual(await batchLengths([cmp('>', -1)]), [rows]);
    assert.deepEqual(await batchLengths([]), [rows]);
  });

  const QUERIES: [string, (i: number) => boolean][] = [
    ['id = 5000', (i) => i === 5000],
    [`id BETWEEN ${ZONE_ROWS - 2} AND ${ZONE_ROWS + 2}`, (i) => i >= ZONE_ROWS - 2 && i <= ZONE_ROWS + 2],
    [`id = 3 OR id = ${rows - 1}`, (i) => i === 3 || i === rows - 1],
    ['score > 7000 AND id < 14010', (i) => i % 7 !== 0 && i / 2 > 7000 && i < 14010],
    ['score IS NULL AND id > 13000', (i) => i % 7 === 0 && i > 13000],
  ];
  for (const [where, keep] of QUERIES) {
    it(`returns exactly the matching rows, text included: ${where}`, async () => {
      const got = await queryRows(engine, `SELECT id, name FROM t WHERE ${where} ORDER BY id`);
      const want = [...ids].filter(keep).map((i) => [String(i), `n${i}`]);
      assert.deepEqual(got.rows, want);
    });
  }
  it('stops at LIMIT across zone slices', async () => {
    const got = await queryRows(engine, `SELECT id FROM t WHERE id >= ${ZONE_ROWS - 1} LIMIT 3`);
    assert.deepEqual(
      got.rows.map((r) => r[0]),
      [ZONE_ROWS - 1, ZONE_ROWS, ZONE_ROWS + 1].map(String),
    );
  });
});

describe('memory table: binary search inside sorted zones', () => {
  // Two chunks. k: sorted with runs of equal values (each value 3 times), as a double; u: the same values
  // shuffled within each zone (never sorted); d: dates, sorted; kn: sorted but NULL in zone 1 of chunk 0.
  const rows = ZONE_ROWS * 2 + 100;
  const chunk = (first: number) => {
    const k = Float64Array.from({ length: rows }, (_, i) => Math.floor((first + i) / 3));
    const u = Float64Array.from(k);
    for (let z = 0; z < rows; z += ZONE_ROWS) u.subarray(z, Math.min(rows, z + ZONE_ROWS)).reverse();
    const d = Int32Array.from(k, (x) => 10_000 + x);
    const valid = first === 0 ? Uint8Array.from({ length: rows }, (_, i) => (i === ZONE_ROWS + 7 ? 0 : 1)) : null;
    // nz: NULL throughout zone 1 of each chunk (its min and max are unknown: no bound may keep it).
    const allNullZone1 = Uint8Array.from({ length: rows }, (_, i) => (i >= ZONE_ROWS && i < 2 * ZONE_ROWS ? 0 : 1));
    return {
      length: rows,
      columns: [
        makeColumn(FLOAT64, k, null, rows),
        makeColumn(FLOAT64, u, null, rows),
        makeColumn(DATE, d, null, rows),
        makeColumn(INT64, Float64Array.from(k), valid, rows),
        makeColumn(INT32, Int32Array.from(k), allNullZone1, rows),
      ],
    };
  };
  const field = (name: string, type: DataType, nullable = false) => ({ qualifier: null, name, type, nullable });
  const table = createMemoryTable({
    schema: {
      fields: [
        field('k', FLOAT64),
        field('u', FLOAT64),
        field('d', DATE),
        field('kn', INT64, true),
        field('nz', INT32, true),
      ],
    },
    chunks: [chunk(0), chunk(rows)],
  });
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  const all = [chunk(0), chunk(rows)].flatMap((c) => {
    const [k, u, d, kn] = c.columns.map((x) => x.values as Float64Array | Int32Array);
    return Array.from({ length: rows }, (_, i) => ({
      k: k![i]!,
      u: u![i]!,
      d: d![i]!,
      kn: c.columns[3]!.valid?.[i] === 0 ? null : kn![i]!,
      nz: c.columns[4]!.valid?.[i] === 0 ? null : k![i]!,
    }));
  });

  it('marks the scanned columns that never decrease and hold no NULL as sorted, slices too', async () => {
    const marks: string[] = [];
    const kCol = on('k', FLOAT64);
    const filter: Expr = { kind: 'binary', op: '>', left: kCol, right: lit(100, FLOAT64), type: BOOL };
    for (const filters of [[], [filter]]) {
      const scan = table.scan(
        { columns: ['k', 'u', 'd', 'kn', 'nz'], filters, limit: null },
        new AbortController().signal,
      );
      for await (const b of scan) marks.push(b.columns.map((c) => (isSorted(c) ? 'S' : '-')).join(''));
    }
    // k is a double (never marked), u shuffled, d sorted dates, kn sorted int64 with a NULL in chunk 0, nz NULLs.
    assert.deepEqual(marks, ['--S--', '--SS-', '--S--', '--SS-']);
  });

  async function scanned(filters: Expr[]): Promise<number> {
    let n = 0;
    for await (const b of table.scan({ columns: ['k'], filters, limit: null }, new AbortController().signal))
      n += b.length;
    return n;
  }
  const on = (name: string, type: DataType) => col(null, name, type);
  const cmp = (left: Expr, op: BinaryOp, right: Expr): Expr => ({ kind: 'binary', op, left, right, type: BOOL });
  const k = on('k', FLOAT64);

  it('reads just the equal run, from either side of the comparison, with a bigint or a double literal', async () => {
    assert.equal(await scanned([cmp(k, '=', lit(2000, INT32))]), 3);
    assert.equal(await scanned([cmp(lit(2000n, INT64), '=', k)]), 3);
    assert.equal(await scanned([cmp(k, '=', lit(2000.5, FLOAT64))]), 0);
    assert.equal(await scanned([cmp(k, '<', lit(2, INT32)), cmp(k, '>=', lit(1, INT32))]), 3);
    assert.equal(await scanned([cmp(lit(2, INT32), '>', k)]), 6);
    // A run across a zone edge (ZONE_ROWS = 3 * 1365 + 1) and across the chunk edge.
    const edge = Math.floor(ZONE_ROWS / 3);
    assert.equal(await scanned([cmp(k, '=', lit(edge, INT32))]), 3);
    assert.equal(await scanned([cmp(k, '=', lit(Math.floor(rows / 3), INT32))]), 3);
  });

  it('reads whole zones where values are not sorted or hold a NULL, and narrows dates', async () => {
    assert.equal(await scanned([cmp(on('u', FLOAT64), '=', lit(2000, INT32))]), ZONE_ROWS);
    assert.equal(await scanned([cmp(on('kn', INT64), '=', lit(1500, INT32))]), ZONE_ROWS);
    assert.equal(await scanned([cmp(on('kn', INT64), '=', lit(20, INT32))]), 3);
    assert.equal(await scanned([cmp(on('d', DATE), '>=', lit(10_000 + (2 * rows) / 3 - 2, DATE))]), 6);
  });

  const QUERIES: [string, (r: (typeof all)[number]) => boolean][] = [
    ['k = 2000', (r) => r.k === 2000],
    ['k >= 1364 AND k <= 1366', (r) => r.k >= 1364 && r.k <= 1366],
    ['k > 2800 AND u < 2805', (r) => r.k > 2800 && r.u < 2805],
    ['u = 2000 AND k = 2000', (r) => r.u === 2000 && r.k === 2000],
    ['kn >= 1364 AND kn < 1368', (r) => r.kn !== null && r.kn >= 1364 && r.kn < 1368],
    ["d < DATE '1997-05-19' AND k > 1", (r) => r.d < 10_000 && r.k > 1],
    ['k < -1 OR k = 5', (r) => r.k === 5],
    ['nz >= 0', (r) => r.nz !== null],
    ['nz < 100000 AND k > 10', (r) => r.nz !== null && r.k > 10],
    ['nz = 1500 AND k = 1500', (r) => r.nz === 1500],
  ];
  for (const [where, keep] of QUERIES) {
    it(`returns exactly the matching rows: ${where}`, async () => {
      const got = await queryRows(engine, `SELECT count(*) AS n, sum(k) AS s FROM t WHERE ${where}`);
      const want = all.filter(keep);
      assert.deepEqual(got.rows, [
        [String(want.length), want.length === 0 ? null : String(want.reduce((a, r) => a + r.k, 0))],
      ]);
    });
  }
});

describe('memory table: text dictionaries', () => {
  const schema = { fields: [{ name: 's', qualifier: null, type: UTF8, nullable: false }] };
  const dictionary = { values: bytesColumn(['a', 'b', 'c']).values as never, size: 3 };
  /** Rows matching IN ('a', 'c') in a fresh table (codes attach to its own column objects) given `codes`. */
  const count = async (codes: Uint8Array[]) => {
    const chunks = [
      ['a', 'b', 'a'],
      ['b', 'c', 'c'],
    ].map((v) => ({ length: v.length, columns: [bytesColumn(v)] }));
    const t = createMemoryTable({ schema, chunks, dictionaries: [{ dictionary, codes }] });
    const engine = createEngine({ catalog: createMapCatalog(new Map([['t', t]])) });
    return (await queryRows(engine, "SELECT count(*) FROM t WHERE s IN ('a', 'c')")).rows;
  };

  it('reads rows by their codes', async () => {
    assert.deepEqual(await count([Uint8Array.of(0, 1, 0), Uint8Array.of(1, 2, 2)]), [['4']]);
    // Codes that say otherwise are believed (the loader's codes are the rows' values): they are what is read.
    assert.deepEqual(await count([Uint8Array.of(1, 1, 1), Uint8Array.of(1, 1, 1)]), [['0']]);
  });

  it('leaves out codes that do not match their chunk row for row', async () => {
    assert.deepEqual(await count([Uint8Array.of(1, 1), Uint8Array.of(1, 1, 1, 1)]), [['4']]);
  });
});

describe('memory table: narrow copies of small-integer columns', () => {
  it('are loaded for decimal columns of small integers, not for wider ones, and reach scanned batches', async () => {
    const t = createMemoryTable(await loadParquetTable(data.tables.get('lineitem')!));
    const batches = t.scan(
      { columns: ['l_quantity', 'l_discount', 'l_extendedprice'], filters: [], limit: null },
      NEVER,
    );
    for await (const b of batches) {
      const [quantity, discount, price] = b.columns.map((c) => narrowOf(c.values));
      assert.ok(quantity instanceof Int16Array, 'l_quantity (1.00-50.00, scaled) in two bytes');
      assert.ok(discount instanceof Int8Array, 'l_discount (0.00-0.10, scaled) in one byte');
      assert.equal(price, null);
      assert.deepEqual([...quantity], [...(b.columns[0]!.values as Float64Array)]);
    }
  });

  it('are what filters compare', async () => {
    const schema = { fields: [{ name: 'x', qualifier: null, type: FLOAT64, nullable: false }] };
    const count = async (narrow: Int8Array) => {
      // Not in order: a sorted chunk is cut by binary search, without a comparison per row.
      const chunks = [{ length: 4, columns: [makeColumn(FLOAT64, Float64Array.of(3, 1, 4, 2), null, 4)] }];
      const t = createMemoryTable({ schema, chunks, narrow: [[narrow]] });
      const engine = createEngine({ catalog: createMapCatalog(new Map([['t', t]])) });
      return (await queryRows(engine, 'SELECT count(*) FROM t WHERE x > 2')).rows;
    };
    assert.deepEqual(await count(Int8Array.of(3, 1, 4, 2)), [['2']]);
    // A copy that says otherwise is believed (the loader's copies hold the rows' values): it is what is read.
    assert.deepEqual(await count(Int8Array.of(9, 9, 9, 9)), [['4']]);
  });
});
