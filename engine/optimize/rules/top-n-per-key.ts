// ORDER BY … LIMIT/OFFSET in a correlated subquery: the first rows of each outer key, as a window, never a re-run
// per outer row. `rest` (pulled up) -> Window row_number() OVER (PARTITION BY the correlation keys ORDER BY the
// subquery's keys) -> Filter skip < row_number <= skip + fetch; the correlated conditions stay above for the join.
import { col, conjoin, type Expr, lit } from '../../plan/expr/index.js';
import { type LogicalPlan, makeFilter, makeProject, type SortKey } from '../../plan/logical/index.js';
import { DEFAULT_FRAME, makeWindow, type WindowCall } from '../../plan/logical/window.js';
import { BOOL, INT64 } from '../../plan/types.js';
import { joinOuterValues, type Outer, splitEquality } from './join-outer-values.js';

/** The row number column, dropped again above its filter. */
const ROW_NUMBER = '__row_number';

/**
 * What partitions `pulled`'s rows per outer row: the inner sides of its correlated equalities, or else the
 * distinct outer values its conditions hold for (joined in; the conditions become NULL-safe equalities on them).
 */
export function partitionByCorrelation(
  pulled: { plan: LogicalPlan; preds: Expr[] },
  o: Outer,
): { plan: LogicalPlan; keys: Expr[]; preds: Expr[] } {
  const pairs = pulled.preds.map(splitEquality);
  if (pairs.every((x) => x !== null))
    return { plan: pulled.plan, keys: pairs.map((x) => x!.inner), preds: pulled.preds };
  return joinOuterValues(pulled.plan, pulled.preds, o);
}

/**
 * The rows `skip < n <= skip + fetch` in `orderBy` order of each correlation key of `plan` (whose correlated
 * conditions `preds` are pulled up): equalities partition by their inner side; other conditions by the distinct
 * outer values they hold for (joined in first). Returns the plan and the conditions to join it by.
 */
export function topNPerKey(
  plan: LogicalPlan,
  preds: readonly Expr[],
  orderBy: readonly SortKey[],
  skip: number,
  fetch: number | null,
  o: Outer,
): { plan: LogicalPlan; preds: Expr[] } {
  const { plan: input, keys: partitionBy, preds: joinBy } = partitionByCorrelation({ plan, preds: [...preds] }, o);
  if (skip === 0 && fetch === null) return { plan: input, preds: joinBy };
  const call: WindowCall = {
    fn: 'row_number',
    args: [],
    partitionBy,
    orderBy,
    frame: DEFAULT_FRAME,
    type: INT64,
    name: ROW_NUMBER,
  };
  const n = col(null, ROW_NUMBER, INT64);
  const bound = (op: '>' | '<=', v: number): Expr => ({
    kind: 'binary',
    op,
    left: n,
    right: lit(v, INT64),
    type: BOOL,
  });
  const keep = [...(skip > 0 ? [bound('>', skip)] : []), ...(fetch === null ? [] : [bound('<=', skip + fetch)])];
  const filtered = makeFilter(makeWindow(input, [call]), conjoin(keep)!);
  const fields = input.schema.fields;
  const out = makeProject(
    filtered,
    fields.map((f) => col(f.qualifier, f.name, f.type)),
    fields,
  );
  return { plan: out, preds: joinBy };
}
