// push-down-projection: scans read only the columns some operator above them uses.
import { type ColumnExpr, columnsOf, type Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, withInputs } from '../../plan/logical/index.js';
import { windowSchema } from '../../plan/logical/window.js';
import type { Field } from '../../plan/types.js';
import type { OptimizerRule } from '../rule.js';

export const pushDownProjection: OptimizerRule = {
  name: 'push-down-projection',
  apply: (plan) => prune(plan, null),
};

/** `needed` = columns the parent reads from `p` (`null` = all of them). */
function prune(p: LogicalPlan, needed: ColumnExpr[] | null): LogicalPlan {
  switch (p.kind) {
    case 'scan': {
      if (needed === null) return p;
      const names = new Set(needed.filter((c) => c.qualifier === null || c.qualifier === p.alias).map((c) => c.name));
      const kept = p.tableSchema.fields.filter((f) => names.has(f.name));
      return { ...p, columns: kept.map((f) => f.name), schema: { fields: kept } };
    }
    case 'values':
      return p;
    case 'filter':
      return { ...p, input: prune(p.input, withCols(needed, [p.predicate])) };
    case 'sort':
      return {
        ...p,
        input: prune(
          p.input,
          withCols(
            needed,
            p.keys.map((k) => k.expr),
          ),
        ),
      };
    case 'limit':
      return { ...p, input: prune(p.input, needed) };
    case 'project': {
      // Columns nobody above reads are dropped (a derived table's unused outputs), the rest drive the input.
      const keep = needed === null ? null : p.schema.fields.map((f) => needed.some((c) => refersTo(c, f)));
      if (keep === null || keep.every(Boolean))
        return mergeProjections({ ...p, input: prune(p.input, withCols([], p.exprs)) });
      const exprs = p.exprs.filter((_, i) => keep[i]);
      const fields = p.schema.fields.filter((_, i) => keep[i]);
      return mergeProjections({ ...p, exprs, schema: { fields }, input: prune(p.input, withCols([], exprs)) });
    }
    case 'join': {
      const wanted = withCols(needed, p.on ? [p.on] : []);
      return withInputs(p, [prune(p.left, wanted), prune(p.right, wanted)]);
    }
    case 'cte_scan':
    case 'recursive_cte':
    case 'work_table_scan':
    case 'create_table':
    case 'drop_table':
    case 'create_schema':
      return p;
    // A write stores every column of its input.
    case 'insert':
      return { ...p, input: prune(p.input, null) };
    // Set operations match arms by position and compare whole rows: every arm column stays.
    case 'union':
      return { ...p, inputs: p.inputs.map((i) => prune(i, null)) };
    case 'set_op':
      return { ...p, left: prune(p.left, null), right: prune(p.right, null) };
    // Window: its input keeps every column the calls read, plus those the parent reads
    case 'window': {
      const exprs = p.calls.flatMap((c) => [...c.args, ...c.partitionBy, ...c.orderBy.map((k) => k.expr)]);
      const input = prune(p.input, withCols(needed, exprs));
      return { ...p, input, schema: windowSchema(input.schema, p.calls) };
    }
    case 'aggregate': {
      const exprs = [...p.groupBy, ...p.aggregates.flatMap((a) => (a.filter ? [...a.args, a.filter] : a.args))];
      return { ...p, input: prune(p.input, withCols([], exprs)) };
    }
  }
}

/** A projection that only picks (and renames) columns of the projection below it becomes one projection. */
function mergeProjections(p: LogicalPlan & { kind: 'project' }): LogicalPlan {
  const below = p.input;
  if (below.kind !== 'project') return p;
  const picked: Expr[] = [];
  for (const e of p.exprs) {
    if (e.kind !== 'column') return p;
    const at = below.schema.fields.findIndex((f) => refersTo(e, f));
    if (at < 0) return p;
    picked.push(below.exprs[at]!);
  }
  return { ...p, exprs: picked, input: below.input };
}

function refersTo(c: ColumnExpr, f: Field): boolean {
  return c.name === f.name && (c.qualifier === null || c.qualifier === f.qualifier);
}

function withCols(needed: ColumnExpr[] | null, exprs: readonly Expr[]): ColumnExpr[] | null {
  if (needed === null) return null;
  const out = [...needed];
  for (const e of exprs) columnsOf(e, out);
  return out;
}
