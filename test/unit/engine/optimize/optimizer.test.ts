// Optimizer rules one at a time (every other rule disabled via `disabledRules`), compared as EXPLAIN text.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createTestEngines, queryRows } from '../../../helpers/engines.js';
import { writeTestData } from '../../../helpers/gen-data.js';

const RULES = ['fold-constants', 'push-down-filter', 'push-down-projection', 'push-down-limit'] as const;
const ALL_COLUMNS = 'id, grp, qty, big, f, price, rate, name, cat, d, ts, flag, nothing';

const data = await writeTestData();
const { file, memory } = await createTestEngines(data);
after(() => data.remove());

const only = (rule: string | null) => ({ disabledRules: RULES.filter((r) => r !== rule) });

const cases: [rule: (typeof RULES)[number], sql: string, expected: string[]][] = [
  [
    'fold-constants',
    "SELECT count(*) FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY",
    [
      'Projection: count(*)',
      '  Aggregate: groupBy=[], aggr=[count(*)]',
      "    Filter: lineitem.l_shipdate <= DATE '1998-09-02'",
      '      Scan: lineitem projection=[l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_shipmode] files=2 row_groups=4/4',
    ],
  ],
  [
    'fold-constants',
    'SELECT id FROM items WHERE qty > 2 * 10 + 1',
    [
      'Projection: items.id',
      '  Filter: items.qty > 21',
      `    Scan: items projection=[${ALL_COLUMNS}] files=1 row_groups=5/5`,
    ],
  ],
  [
    'push-down-filter',
    'SELECT id FROM items WHERE id <= 1000',
    [
      'Projection: items.id',
      '  Filter: items.id <= 1000',
      `    Scan: items projection=[${ALL_COLUMNS}] filters=[items.id <= 1000] files=1 row_groups=1/5`,
    ],
  ],
  [
    'push-down-filter',
    'SELECT grp, count(*) FROM items WHERE id > 4000 AND qty = 5 GROUP BY grp',
    [
      'Projection: items.grp, count(*)',
      '  Aggregate: groupBy=[items.grp], aggr=[count(*)]',
      '    Filter: (items.id > 4000) AND (items.qty = 5)',
      `      Scan: items projection=[${ALL_COLUMNS}] filters=[items.id > 4000, items.qty = 5] files=1 row_groups=1/5`,
    ],
  ],
  [
    'push-down-projection',
    'SELECT name FROM items WHERE qty > 10',
    [
      'Projection: items.name',
      '  Filter: items.qty > 10',
      '    Scan: items projection=[qty, name] files=1 row_groups=5/5',
    ],
  ],
  [
    'push-down-projection',
    'SELECT count(*) FROM items',
    [
      'Projection: count(*)',
      '  Aggregate: groupBy=[], aggr=[count(*)]',
      '    Scan: items projection=[] files=1 row_groups=5/5',
    ],
  ],
  [
    'push-down-limit',
    'SELECT id FROM items ORDER BY qty DESC LIMIT 5',
    [
      'Limit: skip=0, fetch=5',
      '  Projection: items.id',
      '    TopK: __sort_0 DESC NULLS FIRST, fetch=5',
      '      Projection: items.id, items.qty AS __sort_0',
      `        Scan: items projection=[${ALL_COLUMNS}] files=1 row_groups=5/5`,
    ],
  ],
  [
    'push-down-limit',
    'SELECT id FROM items LIMIT 7 OFFSET 3',
    [
      'Limit: skip=3, fetch=7',
      '  Projection: items.id',
      `    Scan: items projection=[${ALL_COLUMNS}] limit=10 files=1 row_groups=5/5`,
    ],
  ],
];

for (const [rule, sql, expected] of cases) {
  test(`${rule} alone: ${sql}`, async () => {
    assert.deepEqual(await file.explain(sql, only(rule)), expected);
    assert.notDeepEqual(await file.explain(sql, only(null)), expected, 'the rule changed nothing');
  });
}

test('every rule is named in the list above (an unknown name is an error)', async () => {
  await assert.rejects(
    file.explain('SELECT 1', { disabledRules: ['no-such-rule'] }),
    /unknown optimizer rule no-such-rule/,
  );
  for (const rule of RULES)
    assert.ok(
      cases.some(([r]) => r === rule),
      `no case for ${rule}`,
    );
});

// Rewrites must not change answers: each query gives the same rows with every rule disabled.
const invariant = [
  "SELECT count(*), sum(l_extendedprice) FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY",
  'SELECT id, name FROM items WHERE id BETWEEN 995 AND 1005 ORDER BY id',
  'SELECT grp, count(*), sum(price) FROM items WHERE id > 2500 AND flag GROUP BY grp ORDER BY grp',
  'SELECT id FROM items ORDER BY qty DESC, id LIMIT 5 OFFSET 2',
  'SELECT id FROM items WHERE qty > 10 ORDER BY id LIMIT 7 OFFSET 3',
  'SELECT count(*) FROM items WHERE id < 100 OR id > 4900',
  'SELECT DISTINCT cat FROM items ORDER BY cat LIMIT 2',
  'SELECT k FROM specials WHERE i32 > 4 ORDER BY k',
];
for (const sql of invariant) {
  test(`same rows with and without rules: ${sql}`, async () => {
    for (const engine of [file, memory]) {
      const optimized = await queryRows(engine, sql);
      const plain = await queryRows(engine, sql, only(null));
      assert.deepEqual(plain.rows, optimized.rows);
      assert.ok(optimized.rows.length > 0);
    }
  });
}
