// Queries running interleaved on one thread (an engine shared by concurrent callers) must not see each other's
// filter selections: an aggregate reads its filter's selection after an await, when the other query has run.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  createEngine,
  createMapCatalog,
  createMemoryTable,
  type Engine,
  loadParquetTable,
} from '../../../../../engine/index.js';
import { queryRows } from '../../../../helpers/engines.js';
import { type TestData, writeTestData } from '../../../../helpers/gen-data.js';

let data: TestData;
let engine: Engine;

before(async () => {
  data = await writeTestData();
  const tables = new Map();
  for (const [name, paths] of data.tables) tables.set(name, createMemoryTable(await loadParquetTable(paths)));
  engine = createEngine({ catalog: createMapCatalog(tables) });
});
after(() => data.remove());

it('interleaved filter-then-aggregate queries answer as they do one at a time', async () => {
  // Most rows pass each filter (the aggregate reads the selection), and the two filters keep different rows.
  const sqls = [
    'SELECT l_returnflag, count(*), sum(l_quantity), sum(l_extendedprice) FROM lineitem WHERE l_quantity > 2 GROUP BY 1 ORDER BY 1',
    'SELECT l_returnflag, count(*), sum(l_quantity), sum(l_extendedprice) FROM lineitem WHERE l_quantity < 48 GROUP BY 1 ORDER BY 1',
  ];
  const alone = [];
  for (const sql of sqls) alone.push((await queryRows(engine, sql)).rows);
  assert.notDeepEqual(alone[0], alone[1]);
  for (let round = 0; round < 3; round++) {
    const together = await Promise.all([...sqls, ...sqls].map((sql) => queryRows(engine, sql)));
    assert.deepEqual(
      together.map((r) => r.rows),
      [...alone, ...alone],
    );
  }
});
