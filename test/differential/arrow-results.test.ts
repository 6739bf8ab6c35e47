// The `arrow` result format against DuckDB: typed results read back by apache-arrow equal DuckDB's rows and types.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as arrow from 'apache-arrow';
import { compareRows, orderColumns } from '../../bench/lib/result-rows.js';
import type { Batch, Engine } from '../../engine/index.js';
import { createSerializer } from '../../server/serialize/serializer.js';
import { arrowTextRows, duckTypeOf } from '../helpers/arrow-rows.js';
import { createDuckDbOracle, type Oracle } from '../helpers/duckdb-oracle.js';
import { createTestEngines, type TestEngines } from '../helpers/engines.js';
import { type TestData, writeTestData } from '../helpers/gen-data.js';

let data: TestData;
let engines: TestEngines;
let duckdb: Oracle;

before(async () => {
  data = await writeTestData();
  engines = await createTestEngines(data);
  duckdb = await createDuckDbOracle(data);
});
after(async () => {
  await duckdb?.close();
  await data?.remove();
});

/** `sql`'s result through the `arrow` serializer, read back with apache-arrow. */
async function arrowResult(engine: Engine, sql: string): Promise<arrow.Table> {
  const result = await engine.execute(sql);
  const s = createSerializer('arrow');
  const parts: (string | Uint8Array)[] = [s.begin(result.schema)];
  for await (const batch of result.batches as AsyncIterable<Batch>) parts.push(s.batch(batch));
  parts.push(s.end());
  return arrow.tableFromIPC(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
}

// Each case has one type per column that DuckDB gives too, so the Arrow schema is compared with DuckDB's.
const CASES = [
  'SELECT * FROM items ORDER BY id',
  'SELECT * FROM specials ORDER BY k',
  'SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_returnflag, l_shipdate, l_shipmode FROM lineitem ORDER BY l_orderkey, l_linenumber',
  'SELECT l_returnflag, l_linestatus, sum(l_quantity) AS qty, count(*) AS n, min(l_shipdate) AS first FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2',
];

describe('arrow results vs DuckDB', () => {
  for (const sql of CASES) {
    for (const kind of ['file', 'memory'] as const) {
      it(`${kind}: ${sql}`, async () => {
        const table = await arrowResult(engines[kind], sql);
        const expected = await duckdb.query(sql);
        assert.deepEqual(
          table.schema.fields.map((f) => duckTypeOf(f.type)),
          expected.types,
        );
        const actual = arrowTextRows(table);
        const names = actual.names;
        const floats = expected.types.map((t) => t === 'DOUBLE');
        const order = orderColumns(sql, names) ?? true;
        const problem = compareRows(actual, { names, floats, rows: expected.rows }, order);
        assert.equal(problem, null, problem ?? '');
      });
    }
  }
});
