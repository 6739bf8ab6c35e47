// `mapPlanExprs` applies an expression rewrite to every expression a plan node holds.
import type { Expr } from '../plan/expr/index.js';
import type { LogicalPlan } from '../plan/logical/index.js';

export function mapPlanExprs(p: LogicalPlan, f: (e: Expr) => Expr): LogicalPlan {
  switch (p.kind) {
    case 'filter':
      return { ...p, predicate: f(p.predicate) };
    case 'project':
      return { ...p, exprs: p.exprs.map(f) };
    case 'aggregate':
      return {
        ...p,
        groupBy: p.groupBy.map(f),
        aggregates: p.aggregates.map((a) => ({ ...a, args: a.args.map(f), filter: a.filter ? f(a.filter) : null })),
      };
    case 'sort':
      return { ...p, keys: p.keys.map((k) => ({ ...k, expr: f(k.expr) })) };
    case 'values':
      return { ...p, rows: p.rows.map((r) => r.map(f)) };
    case 'scan':
      return { ...p, filters: p.filters.map(f) };
    case 'join':
      return p.on ? { ...p, on: f(p.on) } : p;
    case 'limit':
    case 'cte_scan':
    case 'recursive_cte':
    case 'work_table_scan':
    case 'union':
    case 'set_op':
    case 'insert':
    case 'create_table':
    case 'drop_table':
    case 'create_schema':
      return p;
    case 'window':
      return {
        ...p,
        calls: p.calls.map((c) => ({
          ...c,
          args: c.args.map(f),
          partitionBy: c.partitionBy.map(f),
          orderBy: c.orderBy.map((k) => ({ ...k, expr: f(k.expr) })),
        })),
      };
  }
}
