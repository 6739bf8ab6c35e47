// The expressions `rewrite-sum-offsets` puts above the shared SUM/COUNT: each offset sum's value, and the check
// that raises the error PostgreSQL raises when some row's `x + c` overflows int32.

import type { BinaryExpr, Expr } from '../../plan/expr/index.js';
import type { AggregateCall, AggregateFn } from '../../plan/logical/index.js';
import { BOOL, INT64 } from '../../plan/types.js';

/** One `SUM(arg)` whose argument is `x + delta` (`decreasing`: `delta - x`). */
export interface SumOffset {
  readonly call: AggregateCall;
  readonly arg: BinaryExpr;
  readonly x: Expr;
  readonly delta: number;
  readonly decreasing: boolean;
}

const int64 = (value: number): Expr => ({ kind: 'literal', value, type: INT64 });
const arith = (op: '+' | '-' | '*', left: Expr, right: Expr): Expr => ({
  kind: 'binary',
  op,
  left,
  right,
  type: INT64,
});

/**
 * SUM(x + d) = SUM(x) + d * COUNT(x); SUM(d - x) = d * COUNT(x) - SUM(x). Both are NULL when no row counts
 * (SUM(x) is). int64 cannot overflow here: |SUM(x)| and |d * COUNT(x)| stay below 2^31 * rows.
 */
export function offsetValue(o: SumOffset, sum: Expr, count: Expr, check: Expr | null): Expr {
  const scaled = arith('*', count, int64(o.delta));
  const value = o.decreasing ? arith('-', scaled, sum) : o.delta === 0 ? sum : arith('+', sum, scaled);
  if (check === null) return value;
  // CASE WHEN <x + c at MAX(x) or MIN(x)> IS NULL THEN NULL ELSE value END: the arm is NULL only where no row
  // counts (MAX(x) is NULL too), and evaluating it raises `integer out of range` where some row's x + c would.
  return {
    kind: 'case',
    whens: [{ when: check, result: { kind: 'literal', value: null, type: INT64 } }],
    otherwise: value,
    type: INT64,
  };
}

/**
 * `x + c` is monotonic in x, so some row overflows iff it does at MIN(x) or MAX(x): the original expressions of
 * the largest and smallest offsets, evaluated there (the arguments' own types and operators, so the error is
 * the one the original sum would raise). Null when no offset can overflow (all zero).
 */
export function offsetCheck(group: readonly SumOffset[], part: (fn: AggregateFn) => Expr): Expr | null {
  const checks: Expr[] = [];
  const at = (o: SumOffset | undefined, fn: 'min' | 'max') => {
    if (o === undefined) return;
    const v = part(fn);
    const arg = o.arg.left === o.x ? { ...o.arg, left: v } : { ...o.arg, right: v };
    checks.push({ kind: 'unary', op: 'is_null', expr: arg, type: BOOL });
  };
  const extreme = (list: SumOffset[], pick: (a: number, b: number) => boolean) =>
    list.reduce<SumOffset | undefined>(
      (best, o) => (best === undefined || pick(o.delta, best.delta) ? o : best),
      undefined,
    );
  const up = group.filter((o) => !o.decreasing);
  const down = group.filter((o) => o.decreasing);
  at(
    extreme(
      up.filter((o) => o.delta > 0),
      (a, b) => a > b,
    ),
    'max',
  );
  at(
    extreme(
      up.filter((o) => o.delta < 0),
      (a, b) => a < b,
    ),
    'min',
  );
  // delta - x grows as x shrinks: the largest delta at MIN(x), the smallest at MAX(x).
  at(
    extreme(down, (a, b) => a > b),
    'min',
  );
  at(
    extreme(down, (a, b) => a < b),
    'max',
  );
  if (checks.length === 0) return null;
  // OR evaluates its right side on every row its left side leaves false, so each check runs on every group.
  return checks.reduce((a, b) => ({ kind: 'binary', op: 'or', left: a, right: b, type: BOOL }));
}
