// prune-group-keys: GROUP BY keeps only the columns no other key determines, when the provider knows the key
// columns (accelerated tables check theirs on first use; Parquet files know none). The answers are checked against
// DuckDB in test/differential/group-keys.test.ts; here, which plans change, and the key facts themselves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeColumn } from '../../../../../engine/arrow/column.js';
import {
  createEngine,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  type Engine,
  loadParquetTable,
  type TableProvider,
} from '../../../../../engine/index.js';
import { FLOAT64, INT32, INT64 } from '../../../../../engine/plan/types.js';
import { type TestData, writeTestData } from '../../../../helpers/gen-data.js';

let data: TestData;
let memory: Engine;
let files: Engine;
let items: TableProvider;

before(async () => {
  data = await writeTestData();
  const mem = new Map<string, TableProvider>();
  const pq = new Map<string, TableProvider>();
  for (const [name, paths] of data.tables) {
    mem.set(name, createMemoryTable(await loadParquetTable(paths)));
    pq.set(name, await createParquetTable([...paths]));
  }
  items = mem.get('items')!;
  memory = createEngine({ catalog: createMapCatalog(mem) });
  files = createEngine({ catalog: createMapCatalog(pq) });
});
after(() => data.remove());

const groupBy = async (engine: Engine, sql: string) =>
  (await engine.explain(sql)).find((l) => l.includes('Aggregate:'))?.match(/groupBy=\[[^\]]*\]/)?.[0];

describe('prune-group-keys', () => {
  it('groups by the key column alone and takes the columns it determines with any_value', async () => {
    const sql = 'SELECT name, id, price, count(*) FROM items GROUP BY name, id, price';
    assert.equal(await groupBy(memory, sql), 'groupBy=[items.id]');
    const lines = await memory.explain(sql);
    assert.ok(lines[0]!.startsWith('Projection: any_value(name) AS name, items.id, any_value(price) AS price'));
    assert.equal(await groupBy(files, sql), 'groupBy=[items.name, items.id, items.price]', 'files know no keys');
  });

  it('follows inner join and filter equalities to the other table', async () => {
    const join = 'SELECT j.grp, i.name, count(*) FROM items i JOIN items j ON j.grp = i.id GROUP BY j.grp, i.name';
    assert.equal(await groupBy(memory, join), 'groupBy=[j.grp]');
    const where = 'SELECT j.grp, i.name, count(*) FROM items i, items j WHERE j.grp = i.id GROUP BY j.grp, i.name';
    assert.equal(await groupBy(memory, where), 'groupBy=[j.grp]');
  });

  it('keeps keys that no plain key column determines', async () => {
    for (const sql of [
      'SELECT grp, name, count(*) FROM items GROUP BY grp, name',
      'SELECT id + 0, name, count(*) FROM items GROUP BY id + 0, name',
      'SELECT i.id, j.name, count(*) FROM items i LEFT JOIN items j ON j.id = i.grp GROUP BY i.id, j.name',
    ]) {
      assert.doesNotMatch((await groupBy(memory, sql)) ?? '', /^groupBy=\[[^,]*\]$/, sql);
    }
  });
});

describe('memory table key columns', () => {
  it('knows sorted unique integers, not columns with NULLs, repeats or text', () => {
    const stats = items.statistics();
    assert.equal(stats.unique?.('id'), true);
    assert.equal(stats.unique?.('grp'), false);
    assert.equal(stats.unique?.('qty'), false);
    assert.equal(stats.unique?.('name'), false);
  });

  const table = (type: typeof INT32, values: number[], valid: Uint8Array | null = null) =>
    createMemoryTable({
      schema: { fields: [{ qualifier: null, name: 'k', type, nullable: valid !== null }] },
      chunks: [
        {
          length: values.length,
          columns: [
            makeColumn(
              type,
              type === INT32 ? Int32Array.from(values) : Float64Array.from(values),
              valid,
              values.length,
            ),
          ],
        },
      ],
    }).statistics();

  it('checks unsorted values against a bitmap of their range', () => {
    assert.equal(table(INT32, [5, 3, 9, -2, 0]).unique?.('k'), true);
    assert.equal(table(INT32, [5, 3, 9, 3, 0]).unique?.('k'), false);
    assert.equal(table(INT64, [2 ** 40 + 7, 2 ** 40, 2 ** 40 + 3]).unique?.('k'), true);
    assert.equal(table(INT32, [1, 2, 3], Uint8Array.from([1, 0, 1])).unique?.('k'), false);
    // A range far wider than the rows: unknown, so false.
    assert.equal(table(INT32, [1_000_000_000, 3, 7]).unique?.('k'), false);
    assert.equal(table(FLOAT64, [1, 2, 3]).unique?.('k'), false, 'not an integer type');
  });
});
