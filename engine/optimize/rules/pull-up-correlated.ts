// Pulling a subquery's correlated conditions up to its top, so that they can become a join condition: through
// filters, projections (which pass the columns the conditions read), aggregates (equalities become group keys;
// other conditions join the distinct outer values first) and inner joins.
import { NotSupportedError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import {
  type ColumnExpr,
  col,
  columnsOf,
  conjoin,
  type Expr,
  type LiteralValue,
  lit,
  someExpr,
  splitConjuncts,
  transformExpr,
} from '../../plan/expr/index.js';
import {
  type Aggregate,
  type LogicalPlan,
  makeFilter,
  makeJoin,
  makeProject,
  withInputs,
} from '../../plan/logical/index.js';
import { BOOL, type DataType, type Field } from '../../plan/types.js';

export interface Pulled {
  readonly plan: LogicalPlan;
  /** Conditions with outer references, over `plan`'s output columns. */
  readonly preds: Expr[];
}

const isCorrelated = (e: Expr) => someExpr(e, (x) => x.kind === 'outer_column');

/** What pulling up needs from the enclosing query: its rows (for conditions other than equalities). */
export interface Outer {
  readonly outer: LogicalPlan;
  readonly alias: string;
}

/** `p` without its correlated conditions, and those conditions over `p`'s output columns and outer columns. */
export function pullUpCorrelated(p: LogicalPlan, o: Outer): Pulled {
  switch (p.kind) {
    case 'filter': {
      const below = pullUpCorrelated(p.input, o);
      const local: Expr[] = [];
      const preds = [...below.preds];
      for (const c of splitConjuncts(p.predicate)) (isCorrelated(c) ? preds : local).push(c);
      return { plan: local.length ? makeFilter(below.plan, conjoin(local)!) : below.plan, preds };
    }
    case 'project': {
      const below = pullUpCorrelated(p.input, o);
      if (below.preds.length === 0) return { plan: withInputs(p, [below.plan]), preds: [] };
      return passThroughProject(p, below);
    }
    case 'aggregate': {
      const below = pullUpCorrelated(p.input, o);
      if (below.preds.length === 0) return { plan: withInputs(p, [below.plan]), preds: [] };
      return groupByCorrelation(p, below, o);
    }
    case 'sort': {
      const below = pullUpCorrelated(p.input, o);
      return below.preds.length === 0 ? { plan: withInputs(p, [below.plan]), preds: [] } : below;
    }
    case 'limit': {
      const below = pullUpCorrelated(p.input, o);
      if (below.preds.length > 0) throw new NotSupportedError('LIMIT in a correlated subquery is not supported yet');
      return { plan: withInputs(p, [below.plan]), preds: [] };
    }
    case 'join': {
      const l = pullUpCorrelated(p.left, o);
      const r = pullUpCorrelated(p.right, o);
      const onCorrelated = p.on !== null && isCorrelated(p.on);
      if (l.preds.length + r.preds.length === 0 && !onCorrelated)
        return { plan: withInputs(p, [l.plan, r.plan]), preds: [] };
      if (p.joinType !== 'inner')
        throw new NotSupportedError('a correlated reference inside an outer join of a subquery is not supported yet');
      const local: Expr[] = [];
      const preds = [...l.preds, ...r.preds];
      for (const c of p.on ? splitConjuncts(p.on) : []) (isCorrelated(c) ? preds : local).push(c);
      return { plan: makeJoin('inner', l.plan, r.plan, conjoin(local)), preds };
    }
    default:
      return { plan: p, preds: [] };
  }
}

/** Keeps a projection's output while adding the inner columns the pulled conditions read. */
function passThroughProject(p: LogicalPlan & { kind: 'project' }, below: Pulled): Pulled {
  const exprs = [...p.exprs];
  const fields = [...p.schema.fields];
  const mapped = new Map<string, ColumnExpr>();
  for (const c of below.preds.flatMap((e) => columnsOf(e))) {
    const k = `${c.qualifier}.${c.name}`;
    if (mapped.has(k)) continue;
    let at = exprs.findIndex((e) => e.kind === 'column' && e.name === c.name && e.qualifier === c.qualifier);
    if (at < 0) {
      const clash = fields.some((f) => f.name === c.name && f.qualifier === c.qualifier);
      exprs.push(c);
      fields.push({
        name: clash ? `__corr_${fields.length}` : c.name,
        qualifier: clash ? null : c.qualifier,
        type: c.type,
        nullable: true,
      });
      at = exprs.length - 1;
    }
    const f = fields[at]!;
    mapped.set(k, col(f.qualifier, f.name, f.type));
  }
  const preds = below.preds.map((e) =>
    transformExpr(e, (x) => (x.kind === 'column' ? (mapped.get(`${x.qualifier}.${x.name}`) ?? x) : x)),
  );
  return { plan: makeProject(below.plan, exprs, fields), preds };
}

/** Correlated equalities under an aggregate: the inner side becomes a group key, compared after grouping. */
function groupByCorrelation(p: Aggregate, below: Pulled, o: Outer): Pulled {
  if (!below.preds.every((c) => c.kind === 'binary' && c.op === '=' && splitEquality(c.left, c.right)))
    return groupByOuterRows(p, below, o);
  const groupBy = [...p.groupBy];
  const groupFields = p.schema.fields.slice(0, p.groupBy.length);
  const aggFields = p.schema.fields.slice(p.groupBy.length);
  const preds: Expr[] = [];
  for (const c of below.preds) {
    const pair = c.kind === 'binary' && c.op === '=' ? splitEquality(c.left, c.right) : null;
    if (!pair)
      throw new NotSupportedError(
        `a correlated condition other than an equality under an aggregate is not supported yet: ${exprText(c)}`,
      );
    let at = groupBy.findIndex((g) => exprText(g) === exprText(pair.inner));
    if (at < 0) {
      groupBy.push(pair.inner);
      const e = pair.inner;
      groupFields.push(
        e.kind === 'column'
          ? { name: e.name, qualifier: e.qualifier, type: e.type, nullable: true }
          : { name: `__corr_${groupBy.length}`, qualifier: null, type: e.type, nullable: true },
      );
      at = groupBy.length - 1;
    }
    const f = groupFields[at]!;
    preds.push({ kind: 'binary', op: '=', left: col(f.qualifier, f.name, f.type), right: pair.outer, type: BOOL });
  }
  const agg: Aggregate = { ...p, input: below.plan, groupBy, schema: { fields: [...groupFields, ...aggFields] } };
  return { plan: agg, preds };
}

/**
 * Other correlated conditions under an aggregate (`WHERE t.k < outer.k`): the distinct outer values are joined
 * to the subquery's rows by those conditions and become group keys, compared by equality after grouping.
 */
function groupByOuterRows(p: Aggregate, below: Pulled, o: Outer): Pulled {
  const seen = new Map<string, Expr & { kind: 'outer_column' }>();
  for (const c of below.preds)
    someExpr(c, (x) => {
      if (x.kind === 'outer_column') seen.set(`${x.qualifier}.${x.name}`, x);
      return false;
    });
  const outerCols = [...seen.values()];
  const keys = outerCols.map((c) => col(c.qualifier, c.name, c.type));
  const distinctFields: Field[] = outerCols.map((c) => ({
    name: c.name,
    qualifier: c.qualifier,
    type: c.type,
    nullable: true,
  }));
  const distinct: Aggregate = {
    kind: 'aggregate',
    input: o.outer,
    groupBy: keys,
    aggregates: [],
    schema: { fields: distinctFields },
  };
  const values = makeProject(
    distinct,
    keys,
    distinctFields.map((f) => ({ ...f, qualifier: o.alias })),
  );
  const toValues = (e: Expr) => transformExpr(e, (x) => (x.kind === 'outer_column' ? col(o.alias, x.name, x.type) : x));
  const input = makeJoin('inner', below.plan, values, conjoin(below.preds.map(toValues)));
  const groupBy = [...p.groupBy, ...outerCols.map((c) => col(o.alias, c.name, c.type))];
  const groupFields = [
    ...p.schema.fields.slice(0, p.groupBy.length),
    ...outerCols.map((c): Field => ({ name: c.name, qualifier: o.alias, type: c.type, nullable: true })),
  ];
  const aggFields = p.schema.fields.slice(p.groupBy.length);
  const agg: Aggregate = { ...p, input, groupBy, schema: { fields: [...groupFields, ...aggFields] } };
  const nullable = (c: Expr & { kind: 'outer_column' }) =>
    o.outer.schema.fields.find((f) => f.name === c.name && f.qualifier === c.qualifier)?.nullable ?? true;
  const preds = outerCols.flatMap((c) => sameValue(col(o.alias, c.name, c.type), c, nullable(c)));
  return { plan: agg, preds };
}

/**
 * `a = b`, or where NULLs occur `a IS NOT DISTINCT FROM b` spelled as two hashable equalities,
 * `coalesce(a, z) = coalesce(b, z) AND (a IS NULL) = (b IS NULL)` (z any value of the type): an outer row whose
 * correlated column is NULL must find its own group.
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

function splitEquality(a: Expr, b: Expr): { inner: Expr; outer: Expr } | null {
  const outerOnly = (e: Expr) => isCorrelated(e) && columnsOf(e).length === 0;
  const innerOnly = (e: Expr) => !isCorrelated(e);
  if (innerOnly(a) && outerOnly(b)) return { inner: a, outer: b };
  if (innerOnly(b) && outerOnly(a)) return { inner: b, outer: a };
  return null;
}
