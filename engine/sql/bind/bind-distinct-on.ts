// DISTINCT ON: keeps the first row of each group in ORDER BY order, planned as row_number() = 1 over a Window.
import { PlanError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import type { Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeFilter, type SortKey } from '../../plan/logical/index.js';
import { DEFAULT_FRAME, makeWindow, type WindowCall, windowCallText } from '../../plan/logical/window.js';
import { BOOL, INT64 } from '../../plan/types.js';
import type { Ast } from '../parse.js';

/** Whether the SELECT is `SELECT DISTINCT ON (…)`. */
export function isDistinctOn(ast: Ast): boolean {
  return (
    String(ast.distinct?.type ?? '')
      .replace(/\s/g, '')
      .toUpperCase() === 'DISTINCTON'
  );
}

/**
 * PostgreSQL's rule: the ORDER BY may start with the DISTINCT ON expressions in any order, but once it
 * lists anything else, every DISTINCT ON expression must already have appeared. Positions index the projection.
 */
export function checkDistinctOnOrder(on: readonly number[], orderBy: readonly number[]): void {
  const pending = new Set(on);
  let skipped = false;
  for (const at of orderBy) {
    if (!on.includes(at)) skipped = true;
    else if (skipped && pending.has(at)) fail();
    else pending.delete(at);
  }
  if (skipped && pending.size > 0) fail();
}

function fail(): never {
  throw new PlanError('SELECT DISTINCT ON expressions must match initial ORDER BY expressions');
}

/**
 * Over the projection `plan`: number the rows of each DISTINCT ON group in `orderBy` order and keep row 1.
 * The output adds one column (the row number) after the projection's; the caller projects it away.
 */
export function distinctOnPlan(plan: LogicalPlan, on: readonly number[], orderBy: readonly SortKey[]): LogicalPlan {
  const columnAt = (at: number): Expr => {
    const f = plan.schema.fields[at]!;
    return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
  };
  const call: WindowCall = {
    fn: 'row_number',
    args: [],
    partitionBy: on.map(columnAt),
    orderBy,
    frame: DEFAULT_FRAME,
    type: INT64,
    name: '',
  };
  const name = windowCallText(call, exprText);
  const rowNumber: Expr = { kind: 'column', qualifier: null, name, type: INT64 };
  const first: Expr = {
    kind: 'binary',
    op: '=',
    left: rowNumber,
    right: { kind: 'literal', value: 1, type: INT64 },
    type: BOOL,
  };
  return makeFilter(makeWindow(plan, [{ ...call, name }]), first);
}
