// `x op ANY (q)` and `x op ALL (q)` through one aggregate row of q: MIN, MAX, COUNT(*) and COUNT of its column.
//   x < ANY (q)  -> x < max          x > ANY (q)  -> x > min          x <> ANY (q) -> x <> min OR x <> max
//   x op ALL (q) -> NOT (x op' ANY (q)), op' the negated comparison
// q's rows are read once (grouped by its correlation keys when correlated, joined like a scalar aggregate):
// no subquery runs per outer row. Three-valued logic as in SQL: no rows -> ANY false, ALL true; otherwise no
// deciding value and a NULL among x and q's values -> NULL.
import { InternalError } from '../../errors.js';
import { type ComparisonOp, col, type Expr, lit, type SubqueryExpr } from '../../plan/expr/index.js';
import { type Aggregate, type AggregateCall, makeProject } from '../../plan/logical/index.js';
import { BOOL, type DataType, type Field, INT64 } from '../../plan/types.js';

const NEGATED: Record<ComparisonOp, ComparisonOp> = {
  '=': '<>',
  '<>': '=',
  '<': '>=',
  '<=': '>',
  '>': '<=',
  '>=': '<',
};

/** The four columns the rewrite reads, in this order (MIN first: its value over no rows is NULL). */
const COLUMNS = ['__min', '__max', '__nonnull', '__rows'] as const;

/** `sub` as a scalar subquery returning one row: min, max, non-NULL count and row count of its column. */
export function quantifiedAsAggregate(sub: SubqueryExpr): SubqueryExpr {
  const f = sub.plan.schema.fields[0]!;
  const v = col(f.qualifier, f.name, f.type);
  const call = (fn: AggregateCall['fn'], name: string, args: Expr[], type: DataType): AggregateCall => ({
    fn,
    args,
    distinct: false,
    filter: null,
    type,
    name,
  });
  const aggregates = [
    call('min', COLUMNS[0], [v], f.type),
    call('max', COLUMNS[1], [v], f.type),
    call('count', COLUMNS[2], [v], INT64),
    call('count', COLUMNS[3], [], INT64),
  ];
  const fields: Field[] = aggregates.map((a) => ({ name: a.name, qualifier: null, type: a.type, nullable: true }));
  const agg: Aggregate = { kind: 'aggregate', input: sub.plan, groupBy: [], aggregates, schema: { fields } };
  const plan = makeProject(
    agg,
    fields.map((x) => col(null, x.name, x.type)),
    fields,
  );
  return { ...sub, subquery: 'scalar', plan, expr: null, op: undefined, type: f.type };
}

/**
 * The value of `sub` (an ANY or ALL subquery) over the columns of its aggregate row, joined by a left join:
 * `fields` are that row's columns (all NULL for an outer row with no group, read as "no rows").
 */
export function quantifiedValue(sub: SubqueryExpr, fields: readonly Field[]): Expr {
  const [min, max] = columnsOf(fields);
  const all = sub.subquery === 'all';
  const op = all ? NEGATED[sub.op!] : sub.op!;
  const x = sub.expr!;
  // Some value v of q with x op v is true: compare with the extreme that makes it most likely.
  // = ANY (and so <> ALL) is IN (NOT IN): the binder plans those as such, and MIN/MAX cannot decide them.
  if (op === '=') throw new InternalError('= ANY (subquery) is planned as IN');
  const decides =
    op === '<' || op === '<='
      ? cmp(x, op, max)
      : op === '>' || op === '>='
        ? cmp(x, op, min)
        : or(cmp(x, '<>', min), cmp(x, '<>', max));
  return threeValued(sub, decides, all, fields);
}

/**
 * `x [NOT] IN (q)` from `found` (a mark join's column: some row of q equals x) and q's counts: a correlated
 * IN whose NULLs matter, where no null-aware join applies per outer row.
 */
export function inValue(sub: SubqueryExpr, found: Expr, fields: readonly Field[]): Expr {
  return threeValued(sub, found, false, fields);
}

/** CASE: no rows -> `all`; `decides` -> NOT `all`; a NULL among x and q's values -> NULL; else `all`. */
function threeValued(sub: SubqueryExpr, decides: Expr, all: boolean, fields: readonly Field[]): Expr {
  const [, , nonNull, rows] = columnsOf(fields);
  const x = sub.expr!;
  const empty = or(isNull(rows), cmp(rows, '=', lit(0, INT64)));
  const unknown = or(isNull(x), cmp(nonNull, '<', rows));
  const value: Expr = {
    kind: 'case',
    whens: [
      { when: empty, result: lit(all, BOOL) },
      { when: decides, result: lit(!all, BOOL) },
      { when: unknown, result: lit(null, BOOL) },
    ],
    otherwise: lit(all, BOOL),
    type: BOOL,
  };
  return sub.negated ? { kind: 'unary', op: 'not', expr: value, type: BOOL } : value;
}

function columnsOf(fields: readonly Field[]): [Expr, Expr, Expr, Expr] {
  return COLUMNS.map((name) => {
    const f = fields.find((x) => x.name === name)!;
    return col(f.qualifier, f.name, f.type);
  }) as [Expr, Expr, Expr, Expr];
}

const cmp = (l: Expr, o: ComparisonOp, r: Expr): Expr => ({ kind: 'binary', op: o, left: l, right: r, type: BOOL });
const or = (l: Expr, r: Expr): Expr => ({ kind: 'binary', op: 'or', left: l, right: r, type: BOOL });
const isNull = (e: Expr): Expr => ({ kind: 'unary', op: 'is_null', expr: e, type: BOOL });
