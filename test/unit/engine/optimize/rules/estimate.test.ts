// Selectivity estimates of LIKE patterns, which decide join sides: a pattern must find a word of four or more
// characters keeps few rows (Q9's '%green%' keeps 5% of part), a short floating one is left at a quarter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectivity } from '../../../../../engine/optimize/rules/estimate.js';
import { col, type Expr, lit } from '../../../../../engine/plan/expr/index.js';
import { BOOL, UTF8 } from '../../../../../engine/plan/types.js';

const like = (pattern: string, negated = false): Expr => ({
  kind: 'like',
  expr: col(null, 'p_name', UTF8),
  pattern: lit(pattern, UTF8),
  negated,
  caseInsensitive: false,
  escape: '\\',
  type: BOOL,
});

test('LIKE keeps 5% with a literal prefix or a word of four characters, a quarter otherwise', () => {
  assert.equal(selectivity(like('forest%')), 0.05);
  assert.equal(selectivity(like('%green%')), 0.05);
  assert.equal(selectivity(like('%BRASS')), 0.05);
  assert.equal(selectivity(like('%special%requests%')), 0.05);
  assert.equal(selectivity(like('%ab%')), 0.25);
  assert.equal(selectivity(like('_x_y%')), 0.25);
  assert.equal(selectivity(like('%green%', true)), 0.95);
  assert.equal(selectivity(like('%ab%', true)), 0.75);
});
