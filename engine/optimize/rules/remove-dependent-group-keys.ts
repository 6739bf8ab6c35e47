// remove-dependent-group-keys: a GROUP BY expression computed only from other GROUP BY columns (`ClientIP - 1`
// beside `ClientIP`), or a constant beside other keys, leaves the key and is computed once per group in a
// projection above (ClickHouse's optimize_group_by_function_keys): the hash table compares one key instead of
// four (ClientIP, ClientIP - 1, - 2, - 3 over 1 M rows: 2.2x -> 1.2x DuckDB). A projection above restores the
// aggregate's columns in their order, under their names.

import { exprText } from '../../plan/expr/display.js';
import { columnsOf, type Expr, someExpr } from '../../plan/expr/index.js';
import { type Aggregate, type LogicalPlan, makeProject } from '../../plan/logical/index.js';
import type { OptimizerRule } from '../rule.js';
import { mapAggregatesReadWhole } from './aggregates-read-whole.js';

export const removeDependentGroupKeys: OptimizerRule = {
  name: 'remove-dependent-group-keys',
  // The projection evaluates each removed key on every group's values, so it raises where evaluating it on every
  // row would (the same values), unless a LIMIT stops it early: no rewrite there.
  apply: (plan) => mapAggregatesReadWhole(plan, removeKeys),
};

/**
 * Types whose equal values (as GROUP BY compares them) are the same value to every function. Not float64: 0 and
 * -0 group together, yet 1 / x tells them apart.
 */
const IDENTICAL_WHEN_EQUAL = new Set(['bool', 'int32', 'int64', 'decimal', 'utf8', 'date', 'timestamp']);

/** Whether key `e` is determined by the plain column keys `columns` (by their text): it reads only those. */
function isDependent(e: Expr, columns: ReadonlySet<string>): boolean {
  if (e.kind === 'column') return false;
  if (someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'outer_column')) return false;
  return columnsOf(e).every((c) => columns.has(exprText(c)) && IDENTICAL_WHEN_EQUAL.has(c.type.id));
}

function removeKeys(agg: Aggregate): LogicalPlan | null {
  if (agg.groupingSets !== undefined || agg.groupBy.length < 2) return null;
  const columns = new Set(agg.groupBy.filter((e) => e.kind === 'column').map(exprText));
  const dropped = agg.groupBy.map((e) => isDependent(e, columns));
  // At least one key stays: grouping no rows by no key would answer one row instead of none.
  if (!dropped.includes(true) || dropped.every((d) => d)) return null;
  const g = agg.groupBy.length;
  const fields = agg.schema.fields;
  const inner: Aggregate = {
    ...agg,
    groupBy: agg.groupBy.filter((_, i) => !dropped[i]),
    schema: { fields: [...fields.slice(0, g).filter((_, i) => !dropped[i]), ...fields.slice(g)] },
  };
  // A plain column key keeps its name and qualifier in the aggregate's output, so a removed key reads as is there.
  const exprs = fields.map(
    (f, i): Expr =>
      i < g && dropped[i] ? agg.groupBy[i]! : { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type },
  );
  return makeProject(inner, exprs, fields);
}
