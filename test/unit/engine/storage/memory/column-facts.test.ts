// Zone facts: one pass per chunk column recording min, max, NULLs and order per 4,096 rows, made by the loader
// once and read by every thread for zone maps, value ranges, keys and sorted chunks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { createMemoryTable, loadParquetTable } from '../../../../../engine/index.js';
import { DATE, type DataType, decimal, FLOAT64, INT32, UTF8 } from '../../../../../engine/plan/types.js';
import {
  chunkInOrder,
  columnInOrder,
  INCREASING,
  SORTED,
  UNSORTED,
  valueRangeOf,
  ZONE_ROWS,
  type ZoneFacts,
  zoneFacts,
} from '../../../../../engine/storage/memory/column-facts.js';
import type { MemoryTableData } from '../../../../../engine/storage/memory/memory-table.js';
import { bytesColumn } from '../../../../helpers/batches.js';
import { type TestData, writeTestData } from '../../../../helpers/gen-data.js';

const ints = (values: number[], type: DataType = INT32, valid: Uint8Array | null = null): Column =>
  makeColumn(type, Int32Array.from(values), valid, values.length);
const facts = (col: Column): ZoneFacts => {
  const f = zoneFacts(col, col.length);
  assert.ok(f !== null);
  return f;
};
const perZone = (f: ZoneFacts) => ({ lo: [...f.lo], hi: [...f.hi], nulls: [...f.nulls], order: [...f.order] });
const range = (n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => at(i));

describe('zoneFacts', () => {
  it('records min, max, NULLs and order per zone of ZONE_ROWS rows', () => {
    const n = 3 * ZONE_ROWS + 5;
    // Zone 0 increases, zone 1 repeats a value, zone 2 goes down once, zone 3 (5 rows) holds a NULL.
    const values = range(n, (i) => i);
    values[ZONE_ROWS + 7] = values[ZONE_ROWS + 6]!;
    values[2 * ZONE_ROWS + 100] = -50;
    const valid = new Uint8Array(n).fill(1);
    valid[n - 2] = 0;
    values[n - 2] = 1e9; // behind the NULL: not a value
    assert.deepEqual(perZone(facts(ints(values, INT32, valid))), {
      lo: [0, ZONE_ROWS, -50, 3 * ZONE_ROWS],
      hi: [ZONE_ROWS - 1, 2 * ZONE_ROWS - 1, 3 * ZONE_ROWS - 1, n - 1],
      nulls: [0, 0, 0, 1],
      order: [INCREASING, SORTED, UNSORTED, UNSORTED],
    });
  });

  it('keeps the min and max right after the order breaks, at the first row or with a NULL first', () => {
    assert.deepEqual(perZone(facts(ints([5, 1, 9, -3, 7]))), { lo: [-3], hi: [9], nulls: [0], order: [UNSORTED] });
    const valid = Uint8Array.of(0, 1, 1, 1);
    assert.deepEqual(perZone(facts(ints([100, 4, 2, 8], INT32, valid))), {
      lo: [2],
      hi: [8],
      nulls: [1],
      order: [UNSORTED],
    });
  });

  it('marks an all-NULL zone with lo above hi, and a table of no rows with no zones', () => {
    const f = facts(ints([1, 2], INT32, Uint8Array.of(0, 0)));
    assert.ok(f.lo[0]! > f.hi[0]!);
    assert.equal(f.nulls[0], 2);
    assert.equal(facts(ints([])).lo.length, 0);
  });

  it('covers float64, decimal and date columns, not text; a NaN gives none', () => {
    assert.deepEqual(perZone(facts(makeColumn(FLOAT64, Float64Array.of(0.5, 2.5), null, 2))).order, [INCREASING]);
    assert.deepEqual(perZone(facts(makeColumn(decimal(15, 2), Float64Array.of(150, 150), null, 2))).order, [SORTED]);
    assert.deepEqual(perZone(facts(ints([19000, 18999], DATE))).lo, [18999]);
    assert.equal(zoneFacts(bytesColumn(['a', 'b']), 2), null);
    assert.equal(zoneFacts(makeColumn(FLOAT64, Float64Array.of(1, Number.NaN, 3), null, 3), 3), null);
    assert.equal(zoneFacts(makeColumn(FLOAT64, Float64Array.of(3, 1, Number.NaN), null, 3), 3), null);
  });
});

describe('order and ranges read off zone facts', () => {
  const twoZones = (at: (i: number) => number, type: DataType = INT32) => ints(range(2 * ZONE_ROWS, at), type);

  it('chunkInOrder compares each zone with where the one before ended', () => {
    const increasing = twoZones((i) => i);
    assert.ok(chunkInOrder(increasing, facts(increasing), INCREASING));
    // Zone 1 starts where zone 0 ended: sorted, not strictly increasing.
    const touching = twoZones((i) => (i < ZONE_ROWS ? i : i - 1));
    assert.ok(chunkInOrder(touching, facts(touching), SORTED));
    assert.ok(!chunkInOrder(touching, facts(touching), INCREASING));
    // Each zone increases, but zone 1 starts below zone 0's end.
    const overlapping = twoZones((i) => (i < ZONE_ROWS ? i : i - 2));
    assert.ok(!chunkInOrder(overlapping, facts(overlapping), SORTED));
  });

  it('chunkInOrder wants integers, dates or decimals without a validity array, over the whole values array', () => {
    const withValid = ints([1, 2, 3], INT32, Uint8Array.of(1, 1, 1));
    assert.ok(!chunkInOrder(withValid, facts(withValid), SORTED));
    const float = makeColumn(FLOAT64, Float64Array.of(1, 2, 3), null, 3);
    assert.ok(!chunkInOrder(float, facts(float), SORTED));
    const cut = makeColumn(INT32, Int32Array.of(1, 2, 3, 0), null, 3);
    assert.ok(!chunkInOrder(cut, zoneFacts(cut, 3), SORTED), 'a values array longer than the column');
    assert.ok(!chunkInOrder(ints([1, 2]), null, SORTED));
    assert.ok(chunkInOrder(ints([1, 2], DATE), facts(ints([1, 2], DATE)), INCREASING));
  });

  it('columnInOrder follows the chunks in order, passing over empty ones', () => {
    const chunks = [ints([1, 2]), ints([]), ints([2, 5])];
    const f = chunks.map((c) => zoneFacts(c, c.length));
    assert.ok(columnInOrder(chunks, f, SORTED));
    assert.ok(!columnInOrder(chunks, f, INCREASING));
    const apart = [ints([1, 2]), ints([3, 5])];
    assert.ok(columnInOrder(apart, apart.map(facts), INCREASING));
    const back = [ints([1, 4]), ints([3, 5])];
    assert.ok(!columnInOrder(back, back.map(facts), SORTED));
  });

  it('valueRangeOf spans every chunk of an integer or date column, NULLs aside, at most the rows', () => {
    const chunks = [ints([10, 12], INT32, Uint8Array.of(1, 1)), ints([1000, 11], INT32, Uint8Array.of(0, 1))];
    assert.equal(valueRangeOf(chunks, chunks.map(facts), 100), 3);
    assert.equal(valueRangeOf(chunks, chunks.map(facts), 2), 2);
    const nulls = [ints([1, 2], INT32, Uint8Array.of(0, 0))];
    assert.equal(valueRangeOf(nulls, nulls.map(facts), 2), null);
    const money = [makeColumn(decimal(15, 2), Float64Array.of(1, 2), null, 2)];
    assert.equal(valueRangeOf(money, money.map(facts), 2), null);
    assert.equal(valueRangeOf([], [], 0), null);
  });
});

describe('memory table statistics from zone facts', () => {
  let data: TestData;
  before(async () => {
    data = await writeTestData();
  });
  after(() => data.remove());

  it('the loader makes the zone facts a thread would, and the statistics are the same either way', async () => {
    for (const name of ['items', 'lineitem', 'specials']) {
      const loaded = await loadParquetTable(data.tables.get(name)!);
      const zones = loaded.zones;
      assert.ok(zones !== undefined);
      for (const [at] of loaded.schema.fields.entries()) {
        for (const [i, c] of loaded.chunks.entries())
          assert.deepEqual(zones[at]![i], zoneFacts(c.columns[at]!, c.length));
      }
      const stats = (d: MemoryTableData) => {
        const s = createMemoryTable(d).statistics();
        return d.schema.fields.map((f) => [
          f.name,
          s.distinctCount?.(f.name),
          s.unique?.(f.name),
          s.splitPoints?.(f.name, 3),
        ]);
      };
      const computed = stats({ ...loaded, zones: undefined });
      assert.deepEqual(stats(loaded), computed);
      const keyOf = (c: string) => computed.find((s) => s[0] === c)?.[2];
      if (name === 'items') assert.equal(keyOf('id'), true);
      if (name === 'specials') assert.equal(keyOf('k'), true);
      if (name === 'lineitem') assert.equal(keyOf('l_orderkey'), false);
    }
  });

  it('reads the facts it is given (the loader computed them from the rows)', () => {
    const schema = { fields: [{ name: 'k', qualifier: null, type: INT32, nullable: false }] };
    const column = ints([3, 1, 2, 1]);
    const chunks = [{ length: 4, columns: [column] }];
    const unique = (zones?: MemoryTableData['zones']) =>
      createMemoryTable({ schema, chunks, zones }).statistics().unique!('k');
    assert.equal(unique(), false, 'computed: 1 twice');
    const claimed: ZoneFacts = {
      lo: Float64Array.of(1),
      hi: Float64Array.of(3),
      nulls: Float64Array.of(0),
      order: Uint8Array.of(INCREASING),
    };
    assert.equal(unique([[claimed]]), true);
  });

  it('text columns have none and ask nothing of them', () => {
    const schema = { fields: [{ name: 's', qualifier: null, type: UTF8, nullable: false }] };
    const t = createMemoryTable({ schema, chunks: [{ length: 2, columns: [bytesColumn(['b', 'a'])] }] });
    assert.equal(t.statistics().unique!('s'), false);
    assert.equal(t.statistics().splitPoints!('s', 2), null);
  });
});
