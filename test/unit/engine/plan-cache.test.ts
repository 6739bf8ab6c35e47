// The engine's plan cache: repeated statements reuse their plan and answer exactly as a fresh plan does;
// parameter values never share a plan; a changed catalog re-plans.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type Catalog,
  createEngine,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  loadParquetTable,
  type TableProvider,
} from '../../../engine/index.js';
import { type CachedPlan, PlanCache } from '../../../engine/plan-cache.js';
import { queryRows } from '../../helpers/engines.js';
import { makeTempDir, writeBig } from '../../helpers/fixtures.js';
import { type TestData, writeTestData } from '../../helpers/gen-data.js';

let data: TestData;
let tables: Map<string, TableProvider>;

before(async () => {
  data = await writeTestData();
  tables = new Map();
  for (const [name, paths] of data.tables) tables.set(name, createMemoryTable(await loadParquetTable(paths)));
});
after(() => data.remove());

// Joins, subqueries, a CTE, window functions, set operations, EXPLAIN: plans of every shape.
const QUERIES = [
  'SELECT grp, count(*) AS n, sum(qty) AS q FROM items GROUP BY grp ORDER BY grp',
  'SELECT i.id, l.l_quantity FROM items i JOIN lineitem l ON i.id = l.l_linenumber WHERE i.qty > 40 ORDER BY 1, 2 LIMIT 20',
  'SELECT id FROM items WHERE qty > (SELECT avg(qty) FROM items) ORDER BY id LIMIT 10',
  'SELECT id FROM items i WHERE EXISTS (SELECT 1 FROM lineitem l WHERE l.l_linenumber = i.grp) ORDER BY id LIMIT 10',
  'WITH t AS (SELECT cat, max(price) AS p FROM items GROUP BY cat) SELECT * FROM t ORDER BY cat',
  'SELECT id, row_number() OVER (PARTITION BY grp ORDER BY id) AS r FROM items ORDER BY id LIMIT 15',
  'SELECT grp FROM items UNION SELECT l_linenumber FROM lineitem ORDER BY 1',
  'EXPLAIN SELECT count(*) FROM items WHERE qty > 10',
];

describe('plan cache', () => {
  it('answers repeated statements exactly as a fresh plan does', async () => {
    const cached = createEngine({ catalog: createMapCatalog(tables) });
    const fresh = createEngine({ catalog: createMapCatalog(tables), planCacheEntries: 0 });
    for (const sql of QUERIES) {
      const expected = await queryRows(fresh, sql);
      for (let run = 0; run < 3; run++) assert.deepEqual(await queryRows(cached, sql), expected, `${sql} (run ${run})`);
    }
    assert.equal(cached.cachedPlans, QUERIES.length);
    assert.equal(fresh.cachedPlans, 0);
  });

  it('never shares a plan between parameter values', async () => {
    const engine = createEngine({ catalog: createMapCatalog(tables) });
    const sql = 'SELECT count(*) AS n FROM items WHERE grp = $1';
    const fresh = createEngine({ catalog: createMapCatalog(tables), planCacheEntries: 0 });
    for (const params of [[1], [2], [1], ['2'], [null]]) {
      const expected = await queryRows(fresh, sql, { params });
      assert.deepEqual(await queryRows(engine, sql, { params }), expected, JSON.stringify(params));
    }
    const named = 'SELECT count(*) AS n FROM items WHERE grp = :g AND qty > :q';
    const a = await queryRows(engine, named, { params: { g: 1, q: 10 } });
    const b = await queryRows(engine, named, { params: { g: 1, q: 40 } });
    assert.notDeepEqual(a.rows, b.rows);
  });

  it('does not cache a statement that failed', async () => {
    const engine = createEngine({ catalog: createMapCatalog(tables) });
    await assert.rejects(engine.execute('SELECT nope FROM items'));
    assert.equal(engine.cachedPlans, 0);
  });

  it('re-plans when a table is replaced, added or dropped', async () => {
    const dir = await makeTempDir();
    const small = await createParquetTable([await writeBig(join(dir, 'small.parquet'), 10)]);
    const large = await createParquetTable([await writeBig(join(dir, 'large.parquet'), 20)]);
    const live = new Map<string, TableProvider>([['t', small]]);
    const catalog: Catalog = { table: (name) => live.get(name), tableNames: () => [...live.keys()] };
    const engine = createEngine({ catalog });
    const sql = 'SELECT count(*) AS n, max(id) AS m FROM t';
    assert.deepEqual((await queryRows(engine, sql)).rows, [['10', '9']]);
    assert.deepEqual((await queryRows(engine, sql)).rows, [['10', '9']]);
    live.set('t', large);
    assert.deepEqual((await queryRows(engine, sql)).rows, [['20', '19']]);
    live.delete('t');
    await assert.rejects(engine.execute(sql), /table "t" does not exist/);
    await assert.rejects(engine.execute('SELECT * FROM u'), /table "u" does not exist/);
    live.set('u', small);
    assert.deepEqual((await queryRows(engine, 'SELECT count(*) AS n FROM u')).rows, [['10']]);
  });

  it('reports the tables a statement read, lower-cased, and that it only read', async () => {
    const engine = createEngine({ catalog: createMapCatalog(tables) });
    const r = await engine.execute('SELECT count(*) FROM ITEMS i JOIN lineitem l ON i.id = l.l_linenumber');
    assert.deepEqual(r.tables, ['items', 'lineitem']);
    assert.deepEqual((await engine.execute('SELECT 1')).tables, []);
    assert.equal(r.readOnly, true);
    assert.equal((await engine.execute('EXPLAIN SELECT * FROM items')).readOnly, true);
  });
});

describe('PlanCache', () => {
  const catalog = createMapCatalog(new Map());
  const plan = (name: string): CachedPlan => ({
    plan: { kind: 'empty', name } as unknown as CachedPlan['plan'],
    explain: false,
    readOnly: true,
    tables: [],
    lookups: new Map(),
    tableNames: null,
  });

  it('evicts the least recently used plan, a hit counting as a use', () => {
    const cache = new PlanCache(2);
    const a = plan('a');
    cache.set('a', a);
    cache.set('b', plan('b'));
    assert.equal(cache.get('a', catalog), a);
    cache.set('c', plan('c'));
    assert.equal(cache.get('b', catalog), undefined);
    assert.equal(cache.get('a', catalog), a);
    // Hits on the newest entry leave it newest: the next set evicts c, not a.
    assert.equal(cache.get('a', catalog), a);
    cache.set('d', plan('d'));
    assert.equal(cache.get('c', catalog), undefined);
    assert.equal(cache.get('a', catalog), a);
    assert.equal(cache.size, 2);
  });
});
