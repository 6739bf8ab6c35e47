// Pulling a subquery's correlated conditions up to its top, so that they can become a join condition: through
// filters, projections (which pass the columns the conditions read), aggregates (equalities become group keys;
// other conditions join the distinct outer values first), LIMIT/OFFSET (the first rows per correlation key) and
// joins (outer ones: pull-up-outer-join.ts).
import { NotSupportedError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import {
  type ColumnExpr,
  col,
  columnsOf,
  conjoin,
  type Expr,
  splitConjuncts,
  transformExpr,
} from '../../plan/expr/index.js';
import {
  type Aggregate,
  type Limit,
  type LogicalPlan,
  makeFilter,
  makeJoin,
  makeProject,
  type Project,
  withInputs,
} from '../../plan/logical/index.js';
import { makeWindow } from '../../plan/logical/window.js';
import { BOOL, type Field } from '../../plan/types.js';
import { mapPlanExprs } from '../map-exprs.js';
import { isCorrelated, type Outer, outerValues, splitEquality } from './join-outer-values.js';
import { pullUpOuterJoin } from './pull-up-outer-join.js';
import { pullUpSetOp, pullUpValues } from './pull-up-set-op.js';
import { partitionByCorrelation, topNPerKey } from './top-n-per-key.js';

export interface Pulled {
  readonly plan: LogicalPlan;
  /** Conditions with outer references, over `plan`'s output columns. */
  readonly preds: Expr[];
}

export type { Outer };

/** `p` without its correlated conditions, and those conditions over `p`'s output columns and outer columns. */
export function pullUpCorrelated(p: LogicalPlan, o: Outer): Pulled {
  switch (p.kind) {
    case 'filter': {
      const below = pullUpCorrelated(p.input, o);
      // HAVING over an aggregate without GROUP BY also judges the one row of an outer row no rows correlate with.
      if (below.preds.length > 0 && p.input.kind === 'aggregate' && p.input.groupBy.length === 0)
        throw new NotSupportedError('HAVING in a correlated subquery without GROUP BY is not supported yet');
      const local: Expr[] = [];
      const preds = [...below.preds];
      for (const c of splitConjuncts(p.predicate)) (isCorrelated(c) ? preds : local).push(c);
      return { plan: local.length ? makeFilter(below.plan, conjoin(local)!) : below.plan, preds };
    }
    case 'project': {
      const below = pullUpCorrelated(p.input, o);
      if (p.exprs.some(isCorrelated)) return projectOuterValues(p, below, o);
      if (below.preds.length === 0) return { plan: withInputs(p, [below.plan]), preds: [] };
      return passThroughProject(p, below, o);
    }
    case 'aggregate': {
      const below = pullUpCorrelated(p.input, o);
      const reads = aggregateExprs(p).some(isCorrelated);
      if (reads) rejectOuterAggregates(p);
      if (below.preds.length === 0 && !reads) return { plan: withInputs(p, [below.plan]), preds: [] };
      if (p.groupingSets) throw new NotSupportedError('GROUPING SETS in a correlated subquery are not supported yet');
      return reads ? groupByOuterRows(p, below, o) : groupByCorrelation(p, below, o);
    }
    case 'sort': {
      const below = pullUpCorrelated(p.input, o);
      return below.preds.length === 0 ? { plan: withInputs(p, [below.plan]), preds: [] } : below;
    }
    case 'limit':
      return pullUpLimit(p, o);
    case 'values':
      return p.rows.some((r) => r.some(isCorrelated)) ? pullUpValues(p, o) : { plan: p, preds: [] };
    case 'union':
    case 'set_op': {
      const arms = (p.kind === 'union' ? p.inputs : [p.left, p.right]).map((x) => pullUpCorrelated(x, o));
      if (arms.every((a) => a.preds.length === 0))
        return {
          plan: withInputs(
            p,
            arms.map((a) => a.plan),
          ),
          preds: [],
        };
      return pullUpSetOp(p, arms, o);
    }
    case 'window': {
      const below = pullUpCorrelated(p.input, o);
      if (below.preds.length === 0) return { plan: withInputs(p, [below.plan]), preds: [] };
      const keyed = partitionByCorrelation(below, o);
      const calls = p.calls.map((c) => ({ ...c, partitionBy: [...keyed.keys, ...c.partitionBy] }));
      return { plan: makeWindow(keyed.plan, calls), preds: keyed.preds };
    }
    case 'join': {
      const l = pullUpCorrelated(p.left, o);
      const r = pullUpCorrelated(p.right, o);
      const onCorrelated = p.on !== null && isCorrelated(p.on);
      if (l.preds.length + r.preds.length === 0 && !onCorrelated)
        return { plan: withInputs(p, [l.plan, r.plan]), preds: [] };
      if (p.joinType !== 'inner') return pullUpOuterJoin(p, l, r, o);
      const local: Expr[] = [];
      const preds = [...l.preds, ...r.preds];
      for (const c of p.on ? splitConjuncts(p.on) : []) (isCorrelated(c) ? preds : local).push(c);
      return { plan: makeJoin('inner', l.plan, r.plan, conjoin(local)), preds };
    }
    default:
      return { plan: p, preds: [] };
  }
}

/**
 * LIMIT/OFFSET over the subquery's rows (`Limit -> [Project] -> [Sort] -> rest`): with correlated conditions in
 * `rest`, the first rows per correlation key (top-n-per-key.ts); the ORDER BY keys order each key's rows.
 */
function pullUpLimit(p: Limit, o: Outer): Pulled {
  const top = p.input.kind === 'project' && p.input.input.kind === 'sort' ? p.input : null;
  const node = top ? top.input : p.input;
  const sort = node.kind === 'sort' ? node : null;
  const below = pullUpCorrelated(sort ? sort.input : node, o);
  if (below.preds.length === 0) {
    const sorted = sort ? withInputs(sort, [below.plan]) : below.plan;
    return { plan: withInputs(p, [top ? withInputs(top, [sorted]) : sorted]), preds: [] };
  }
  const perKey = topNPerKey(below.plan, below.preds, sort?.keys ?? [], p.skip, p.fetch, o);
  return top ? passThroughProject(top, perKey, o) : perKey;
}

/**
 * A projection reading outer columns (`SELECT t.a * 2 …`): the rows meet the distinct outer values first (by the
 * conditions pulled up so far) and the projection reads those, joined back by a NULL-safe equality.
 */
function projectOuterValues(p: Project, below: Pulled, o: Outer): Pulled {
  const v = outerValues([...below.preds, ...p.exprs], o);
  const joined = makeJoin('inner', below.plan, v.plan, conjoin(below.preds.map(v.toValues)));
  return passThroughProject({ ...p, exprs: p.exprs.map(v.toValues) }, { plan: joined, preds: v.preds }, o);
}

/** Keeps a projection's output while adding the inner columns the pulled conditions read. */
function passThroughProject(p: Project, below: Pulled, o: Outer): Pulled {
  const exprs = [...p.exprs];
  const fields = [...p.schema.fields];
  const mapped = new Map<string, ColumnExpr>();
  for (const c of below.preds.flatMap((e) => columnsOf(e))) {
    const k = `${c.qualifier}.${c.name}`;
    if (mapped.has(k)) continue;
    let at = exprs.findIndex((e) => e.kind === 'column' && e.name === c.name && e.qualifier === c.qualifier);
    if (at < 0) {
      exprs.push(c);
      fields.push(freshField(o, c));
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

/** The names of the columns pulling up with each `Outer` has added (under the qualifier `<alias>_c`). */
const added = new WeakMap<Outer, Set<string>>();

/**
 * A column pulling up adds for a condition to read (`e`'s value), under a name no other column has: a copy of the
 * enclosing query's rows (outer values) may bring its qualifiers into the subquery. Columns this pass made
 * (qualified with the alias) keep their names.
 */
function freshField(o: Outer, e: Expr): Field {
  if (e.kind === 'column' && e.qualifier?.startsWith(o.alias))
    return { name: e.name, qualifier: e.qualifier, type: e.type, nullable: true };
  const used = added.get(o) ?? new Set<string>();
  added.set(o, used);
  const base = e.kind === 'column' ? e.name : '__corr';
  let name = base;
  for (let k = 1; used.has(name) || name === '__corr'; k++) name = `${base}_${k}`;
  used.add(name);
  return { name, qualifier: `${o.alias}_c`, type: e.type, nullable: true };
}

/** Correlated equalities under an aggregate: the inner side becomes a group key, compared after grouping. */
function groupByCorrelation(p: Aggregate, below: Pulled, o: Outer): Pulled {
  if (!below.preds.every((c) => splitEquality(c))) return groupByOuterRows(p, below, o);
  const groupBy = [...p.groupBy];
  const groupFields = p.schema.fields.slice(0, p.groupBy.length);
  const aggFields = p.schema.fields.slice(p.groupBy.length);
  const preds: Expr[] = [];
  for (const c of below.preds) {
    const pair = splitEquality(c);
    if (!pair)
      throw new NotSupportedError(
        `a correlated condition other than an equality under an aggregate is not supported yet: ${exprText(c)}`,
      );
    let at = groupBy.findIndex((g) => exprText(g) === exprText(pair.inner));
    if (at < 0) {
      groupBy.push(pair.inner);
      groupFields.push(freshField(o, pair.inner));
      at = groupBy.length - 1;
    }
    const f = groupFields[at]!;
    preds.push({ kind: 'binary', op: '=', left: col(f.qualifier, f.name, f.type), right: pair.outer, type: BOOL });
  }
  const agg: Aggregate = { ...p, input: below.plan, groupBy, schema: { fields: [...groupFields, ...aggFields] } };
  return { plan: agg, preds };
}

/**
 * SQL gives an aggregate whose arguments read only outer columns (`max(outer.k)`) to the outer query, which
 * then aggregates: floe does not bind it so, and refuses it rather than answer per inner row.
 */
function rejectOuterAggregates(p: Aggregate): void {
  for (const a of p.aggregates) {
    const parts = [...a.args, ...(a.filter ? [a.filter] : [])];
    if (parts.some(isCorrelated) && parts.every((e) => columnsOf(e).length === 0))
      throw new NotSupportedError(
        `an aggregate of only outer columns in a subquery (${a.name}, an outer query's aggregate) is not supported yet`,
      );
  }
}

function aggregateExprs(p: Aggregate): Expr[] {
  const out: Expr[] = [];
  mapPlanExprs(p, (e) => {
    out.push(e);
    return e;
  });
  return out;
}

/**
 * Other correlated conditions under an aggregate (`WHERE t.k < outer.k`): the distinct outer values are joined
 * to the subquery's rows by those conditions and become group keys, compared by equality after grouping.
 */
function groupByOuterRows(p: Aggregate, below: Pulled, o: Outer): Pulled {
  // Aggregate arguments may read outer columns too (`max(t.v + outer.k)`): they read the values instead.
  const v = outerValues([...below.preds, ...aggregateExprs(p)], o);
  const joined = {
    plan: makeJoin('inner', below.plan, v.plan, conjoin(below.preds.map(v.toValues))),
    keys: v.keys,
    preds: v.preds,
  };
  p = mapPlanExprs(p, v.toValues) as Aggregate;
  const groupBy = [...p.groupBy, ...joined.keys];
  const keyFields = joined.keys.map((k): Field => {
    const c = k as ColumnExpr;
    return { name: c.name, qualifier: c.qualifier, type: c.type, nullable: true };
  });
  const groupFields = [...p.schema.fields.slice(0, p.groupBy.length), ...keyFields];
  const aggFields = p.schema.fields.slice(p.groupBy.length);
  const agg: Aggregate = { ...p, input: joined.plan, groupBy, schema: { fields: [...groupFields, ...aggFields] } };
  return { plan: agg, preds: joined.preds };
}
