// Optimizer rules over a Window node (built directly: SQL cannot yet put a Filter or Limit above one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { optimize } from '../../../../../engine/optimize/optimizer.js';
import { explainLines } from '../../../../../engine/plan/explain.js';
import { col, type Expr, type LiteralExpr, lit } from '../../../../../engine/plan/expr/index.js';
import {
  type LogicalPlan,
  makeFilter,
  makeLimit,
  makeProject,
  makeScan,
} from '../../../../../engine/plan/logical/index.js';
import { DEFAULT_FRAME, makeWindow, type WindowCall } from '../../../../../engine/plan/logical/window.js';
import { BOOL, field, INT32, INT64 } from '../../../../../engine/plan/types.js';

const RULES = ['fold-constants', 'push-down-filter', 'push-down-projection', 'push-down-limit'];
const scan = makeScan('t', 't', { fields: ['id', 'grp', 'qty', 'unused'].map((n) => field(n, INT32, true, 't')) });
const id = col('t', 'id', INT32);
const grp = col('t', 'grp', INT32);
const qty = col('t', 'qty', INT32);
const rank: WindowCall = {
  fn: 'rank',
  args: [],
  partitionBy: [grp],
  orderBy: [{ expr: qty, ascending: true, nullsFirst: false }],
  frame: DEFAULT_FRAME,
  type: INT64,
  name: 'r',
};
const window = makeWindow(scan, [rank]);
const r = col(null, 'r', INT64);
const eq = (a: Expr, b: Expr): Expr => ({ kind: 'binary', op: '=', left: a, right: b, type: BOOL });
const and = (a: Expr, b: Expr): Expr => ({ kind: 'binary', op: 'and', left: a, right: b, type: BOOL });
const top = (p: LogicalPlan) => makeProject(p, [id, r], [field('id', INT32), field('r', INT64)]);

// Only fold-constants evaluates constants, and it is disabled in every case.
const only = (rule: string) => ({
  disabled: RULES.filter((x) => x !== rule),
  evaluateConstant: (): LiteralExpr => assert.fail('no constant folding here'),
});

const cases: [rule: string, plan: LogicalPlan, expected: string[]][] = [
  [
    'push-down-filter',
    top(makeFilter(window, and(eq(grp, lit(1, INT32)), and(eq(r, lit(1, INT64)), eq(qty, lit(2, INT32)))))),
    [
      'Projection: t.id, r',
      '  Filter: (r = 1) AND (t.qty = 2)',
      '    Window: rank() OVER (PARTITION BY t.grp ORDER BY t.qty ASC NULLS LAST)',
      '      Filter: t.grp = 1',
      '        Scan: t projection=[id, grp, qty, unused] filters=[t.grp = 1]',
    ],
  ],
  [
    'push-down-projection',
    top(window),
    [
      'Projection: t.id, r',
      '  Window: rank() OVER (PARTITION BY t.grp ORDER BY t.qty ASC NULLS LAST)',
      '    Scan: t projection=[id, grp, qty]',
    ],
  ],
  [
    'push-down-limit',
    makeLimit(top(window), 0, 5),
    [
      'Limit: skip=0, fetch=5',
      '  Projection: t.id, r',
      '    Window: rank() OVER (PARTITION BY t.grp ORDER BY t.qty ASC NULLS LAST)',
      '      Scan: t projection=[id, grp, qty, unused]',
    ],
  ],
];

for (const [rule, plan, expected] of cases) {
  test(`${rule} over a Window`, () => assert.deepEqual(explainLines(optimize(plan, only(rule))), expected));
}
