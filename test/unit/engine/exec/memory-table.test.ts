// Accelerated tables skip chunks whose min/max cannot match a pushed filter (as Parquet row groups are pruned),
// and answer exactly as the file-backed table does, at chunk boundaries, for dates, decimals and NULLs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createEngine,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  type Engine,
  loadParquetTable,
} from '../../../../engine/index.js';
import { queryRows } from '../../../helpers/engines.js';
import { type TestData, writeTestData } from '../../../helpers/gen-data.js';

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
