// Optimizer rules over Union, SetOp and grouping-set Aggregates: plan text after one rule, and the same rows
// with and without the rules. Filters above a set operation only arise from derived tables, so those plans
// are built by hand over Values inputs.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { planPhysical } from '../../../../engine/exec/plan-physical.js';
import { cellText, createMapCatalog } from '../../../../engine/index.js';
import { pushDownFilter } from '../../../../engine/optimize/rules/push-down-filter.js';
import { pushDownLimit } from '../../../../engine/optimize/rules/push-down-limit.js';
import { pushDownProjection } from '../../../../engine/optimize/rules/push-down-projection.js';
import { explainLines } from '../../../../engine/plan/explain.js';
import type { Expr } from '../../../../engine/plan/expr/index.js';
import { type LogicalPlan, makeFilter, makeLimit, makeProject } from '../../../../engine/plan/logical/index.js';
import { BOOL, type Field, INT32 } from '../../../../engine/plan/types.js';
import { createTestEngines, queryRows } from '../../../helpers/engines.js';
import { writeTestData } from '../../../helpers/gen-data.js';

const data = await writeTestData();
const { file, memory } = await createTestEngines(data);
after(() => data.remove());

const RULES = ['fold-constants', 'push-down-filter', 'push-down-projection', 'push-down-limit'];
const noRules = { disabledRules: RULES };
const ctx = { evaluateConstant: () => assert.fail('no constants to fold') };

const lit = (v: number | null): Expr => ({ kind: 'literal', value: v, type: INT32 });
const col = (qualifier: string | null, name: string): Expr => ({ kind: 'column', qualifier, name, type: INT32 });
const field = (qualifier: string | null, name: string): Field => ({ name, qualifier, type: INT32, nullable: true });

/** `SELECT x AS <name>, y FROM (VALUES …) AS <alias>` over two int columns. */
function arm(alias: string, name: string, rows: (number | null)[][]): LogicalPlan {
  const values: LogicalPlan = {
    kind: 'values',
    rows: rows.map((r) => r.map(lit)),
    schema: { fields: [field(alias, 'x'), field(alias, 'y')] },
  };
  return makeProject(values, [col(alias, 'x'), col(alias, 'y')], [field(alias, name), field(alias, 'y')]);
}

const left = arm('l', 'a', [
  [1, 10],
  [2, 20],
  [2, 20],
  [null, 30],
]);
const right = arm('r', 'b', [
  [2, 20],
  [3, 40],
  [null, 30],
]);
const out = { fields: [field(null, 'a'), field(null, 'y')] };
const aAtMost2: Expr = { kind: 'binary', op: '<=', left: col(null, 'a'), right: lit(2), type: BOOL };
const union: LogicalPlan = { kind: 'union', inputs: [left, right], schema: out };
const except: LogicalPlan = { kind: 'set_op', op: 'except', all: true, left, right, schema: out };

async function rows(plan: LogicalPlan): Promise<string[]> {
  const op = planPhysical(plan, { catalog: createMapCatalog(new Map()), ctes: new Map() });
  const got: string[] = [];
  const run = { catalog: createMapCatalog(new Map()), signal: new AbortController().signal };
  for await (const b of op.execute(run)) {
    for (let i = 0; i < b.length; i++) got.push(b.columns.map((c) => cellText(c, i) ?? 'NULL').join('|'));
  }
  return got.sort();
}

const planCases: [name: string, rule: typeof pushDownFilter, plan: LogicalPlan, expected: string[]][] = [
  [
    'a filter over UNION ALL reaches every arm, over its own column names',
    pushDownFilter,
    makeFilter(union, aAtMost2),
    [
      'Union',
      '  Projection: l.x AS a, l.y',
      '    Filter: l.x <= 2',
      '      Values: rows=4',
      '  Projection: r.x AS b, r.y',
      '    Filter: r.x <= 2',
      '      Values: rows=3',
    ],
  ],
  [
    'a filter over EXCEPT ALL moves onto the left input only',
    pushDownFilter,
    makeFilter(except, aAtMost2),
    [
      'SetOp: EXCEPT ALL',
      '  Projection: l.x AS a, l.y',
      '    Filter: l.x <= 2',
      '      Values: rows=4',
      '  Projection: r.x AS b, r.y',
      '    Values: rows=3',
    ],
  ],
  [
    'a limit over UNION ALL is copied into each arm',
    pushDownLimit,
    makeLimit(union, 1, 2),
    [
      'Limit: skip=1, fetch=2',
      '  Union',
      '    Limit: skip=0, fetch=3',
      '      Projection: l.x AS a, l.y',
      '        Values: rows=4',
      '    Limit: skip=0, fetch=3',
      '      Projection: r.x AS b, r.y',
      '        Values: rows=3',
    ],
  ],
  [
    'projection pruning keeps every column of a set operation',
    pushDownProjection,
    makeProject(except, [col(null, 'a')], [field(null, 'a')]),
    [
      'Projection: a',
      '  SetOp: EXCEPT ALL',
      '    Projection: l.x AS a, l.y',
      '      Values: rows=4',
      '    Projection: r.x AS b, r.y',
      '      Values: rows=3',
    ],
  ],
];

for (const [name, rule, plan, expected] of planCases) {
  test(`${rule.name}: ${name}`, async () => {
    const rewritten = rule.apply(plan, ctx);
    assert.deepEqual(explainLines(rewritten), expected);
    assert.deepEqual(await rows(rewritten), await rows(plan));
  });
}

test('EXCEPT ALL over the hand-built inputs: l - r keeps one (2, 20) and (1, 10)', async () => {
  assert.deepEqual(await rows(except), ['1|10', '2|20']);
  assert.deepEqual(await rows(makeFilter(union, aAtMost2)), ['1|10', '2|20', '2|20', '2|20']);
});

// Rewrites must not change answers over set operations and grouping sets.
const invariant = [
  'SELECT grp FROM items WHERE id < 300 UNION SELECT qty FROM items WHERE id > 4800 ORDER BY 1',
  'SELECT cat, grp FROM items WHERE id < 2000 INTERSECT ALL SELECT cat, grp FROM items WHERE qty > 20 ORDER BY 1, 2',
  "SELECT cat, flag, count(*) FROM items GROUP BY cat, ROLLUP (flag) HAVING cat = 'beta' AND flag IS NULL ORDER BY 3",
  'SELECT grp, count(*), GROUPING(grp) FROM items WHERE id > 100 GROUP BY CUBE (grp) HAVING grp IS NULL ORDER BY 2',
  'SELECT count(*) FROM items HAVING 1 = 0',
];
for (const sql of invariant) {
  test(`same rows with and without rules: ${sql}`, async () => {
    for (const engine of [file, memory]) {
      assert.deepEqual((await queryRows(engine, sql, noRules)).rows, (await queryRows(engine, sql)).rows);
    }
  });
}

test('LIMIT over UNION ALL returns as many rows with the limit pushed into the arms', async () => {
  const sql = 'SELECT id FROM items UNION ALL SELECT k FROM specials LIMIT 3 OFFSET 4998';
  for (const engine of [file, memory]) {
    const optimized = await queryRows(engine, sql);
    assert.deepEqual(optimized.rows, (await queryRows(engine, sql, noRules)).rows);
    assert.deepEqual(optimized.rows, [['4999'], ['5000'], ['1']]);
  }
});
