// Correlated conditions other than equalities: the enclosing query's distinct values of the columns they read are
// joined to the subquery's rows by them, so each outer value has its own rows, found again by a NULL-safe equality.
import {
  col,
  columnsOf,
  conjoin,
  type Expr,
  type LiteralValue,
  lit,
  type OuterColumnExpr,
  someExpr,
  transformExpr,
} from '../../plan/expr/index.js';
import { type Aggregate, type LogicalPlan, makeJoin, makeProject } from '../../plan/logical/index.js';
import { BOOL, type DataType, type Field } from '../../plan/types.js';

/** What pulling up needs from the enclosing query: its rows (for conditions other than equalities). */
export interface Outer {
  readonly outer: LogicalPlan;
  readonly alias: string;
}

export interface OuterValuesJoined {
  /** The subquery's rows joined to the distinct outer values their conditions hold for. */
  readonly plan: LogicalPlan;
  /** The outer values' columns in `plan` (qualified with the alias): a partition or group key per outer row. */
  readonly keys: Expr[];
  /** How an outer row finds its key again: NULL-safe equalities of `keys` with the outer columns. */
  readonly preds: Expr[];
}

export const isCorrelated = (e: Expr) => someExpr(e, (x) => x.kind === 'outer_column');

/** The distinct values of the outer columns `exprs` read, and how to read them instead of the outer columns. */
export interface OuterValues {
  /** One row per distinct combination, its columns qualified with the alias. */
  readonly plan: LogicalPlan;
  readonly keys: Expr[];
  /** NULL-safe equalities of `keys` with the outer columns. */
  readonly preds: Expr[];
  /** `e` reading the values' columns instead of outer columns. */
  readonly toValues: (e: Expr) => Expr;
}

/** How many sets of outer values each `Outer` has made: each after the first gets its own alias. */
const made = new WeakMap<Outer, number>();

export function outerValues(exprs: readonly Expr[], outer: Outer): OuterValues {
  const n = (made.get(outer) ?? 0) + 1;
  made.set(outer, n);
  const o = n === 1 ? outer : { ...outer, alias: `${outer.alias}_${n}` };
  const seen = new Map<string, OuterColumnExpr>();
  for (const c of exprs)
    someExpr(c, (x) => {
      if (x.kind === 'outer_column') seen.set(`${x.qualifier}.${x.name}`, x);
      return false;
    });
  const field = (c: OuterColumnExpr) =>
    o.outer.schema.fields.find((f) => f.name === c.name && f.qualifier === c.qualifier);
  // References further up than the enclosing query stay outer: the next level out pulls them up in turn.
  const outerCols = [...seen.values()].filter((c) => field(c));
  // Each value column needs its own name under the one alias: `t1.id` and `t2.id` both read would otherwise
  // become the same column, and a condition comparing them would compare one with itself.
  const names = valueNames(outerCols);
  const valueCol = (c: OuterColumnExpr) => col(o.alias, names.get(`${c.qualifier}.${c.name}`)!, c.type);
  const keys = outerCols.map((c) => col(c.qualifier, c.name, c.type));
  const fields: Field[] = outerCols.map((c) => ({
    name: c.name,
    qualifier: c.qualifier,
    type: c.type,
    nullable: true,
  }));
  const distinct: Aggregate = { kind: 'aggregate', input: o.outer, groupBy: keys, aggregates: [], schema: { fields } };
  const plan = makeProject(
    distinct,
    keys,
    outerCols.map((c, i) => ({ ...fields[i]!, name: valueCol(c).name, qualifier: o.alias })),
  );
  return {
    plan,
    keys: outerCols.map(valueCol),
    preds: outerCols.flatMap((c) => sameValue(valueCol(c), c, field(c)!.nullable)),
    toValues: (e) =>
      transformExpr(e, (x) => (x.kind === 'outer_column' && names.has(`${x.qualifier}.${x.name}`) ? valueCol(x) : x)),
  };
}

/** A distinct name per outer column: its own where no other column read shares it, else qualified by its table. */
function valueNames(cols: readonly OuterColumnExpr[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const c of cols) {
    const shared = cols.some((d) => d !== c && d.name === c.name);
    const base = shared ? `${c.qualifier}_${c.name}` : c.name;
    let name = base;
    for (let k = 1; taken.has(name); k++) name = `${base}_${k}`;
    taken.add(name);
    names.set(`${c.qualifier}.${c.name}`, name);
  }
  return names;
}

/** `plan`'s rows joined to the distinct outer values for which `preds` (with outer references) hold. */
export function joinOuterValues(plan: LogicalPlan, preds: readonly Expr[], o: Outer): OuterValuesJoined {
  const v = outerValues(preds, o);
  const joined = makeJoin('inner', plan, v.plan, conjoin(preds.map(v.toValues)));
  return { plan: joined, keys: v.keys, preds: v.preds };
}

/**
 * `a = b`, or where NULLs occur `a IS NOT DISTINCT FROM b` spelled as two hashable equalities,
 * `coalesce(a, z) = coalesce(b, z) AND (a IS NULL) = (b IS NULL)` (z any value of the type): an outer row whose
 * correlated column is NULL must find its own rows.
 */
function sameValue(a: Expr, b: Expr, nullable: boolean): Expr[] {
  const eq = (l: Expr, r: Expr): Expr => ({ kind: 'binary', op: '=', left: l, right: r, type: BOOL });
  const zero = zeroOf(a.type);
  if (!nullable || zero === undefined) return [eq(a, b)];
  const orZero = (e: Expr): Expr => ({ kind: 'call', name: 'coalesce', args: [e, lit(zero, e.type)], type: e.type });
  const isNull = (e: Expr): Expr => ({ kind: 'unary', op: 'is_null', expr: e, type: BOOL });
  return [eq(orZero(a), orZero(b)), eq(isNull(a), isNull(b))];
}

function zeroOf(t: DataType): LiteralValue | undefined {
  if (t.id === 'utf8') return '';
  if (t.id === 'bool') return false;
  if (t.id === 'interval') return { months: 0, days: 0, micros: 0 };
  return t.id === 'null' ? undefined : 0;
}

/** `inner = outer` split into its sides, when one reads only the subquery and the other only outer columns. */
export function splitEquality(c: Expr): { inner: Expr; outer: Expr } | null {
  if (c.kind !== 'binary' || c.op !== '=') return null;
  const outerOnly = (e: Expr) => isCorrelated(e) && columnsOf(e).length === 0;
  const innerOnly = (e: Expr) => !isCorrelated(e);
  if (innerOnly(c.left) && outerOnly(c.right)) return { inner: c.left, outer: c.right };
  if (innerOnly(c.right) && outerOnly(c.left)) return { inner: c.right, outer: c.left };
  return null;
}
