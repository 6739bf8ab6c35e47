// `planPhysical`: one operator per logical node; the scan's provider is looked up in the catalog here.
import { InternalError, PlanError } from '../errors.js';
import { type Expr, transformExpr } from '../plan/expr/index.js';
import type { LogicalPlan } from '../plan/logical/index.js';
import type { ExecContext } from './context.js';
import { compileExpr } from './expr/physical-expr.js';
import type { PhysicalOperator } from './operator.js';
import { FilterExec } from './operators/filter-exec.js';
import { HashAggregateExec } from './operators/hash-aggregate-exec.js';
import { LimitExec } from './operators/limit-exec.js';
import { ProjectExec } from './operators/project-exec.js';
import { ScanExec } from './operators/scan-exec.js';
import { SortExec } from './operators/sort-exec.js';
import { ValuesExec } from './operators/values-exec.js';

export function planPhysical(p: LogicalPlan, ctx: Pick<ExecContext, 'catalog'>): PhysicalOperator {
  switch (p.kind) {
    case 'scan': {
      const provider = ctx.catalog.table(p.table);
      if (!provider) throw new PlanError(`table "${p.table}" does not exist`);
      const columns = p.columns ?? p.tableSchema.fields.map((f) => f.name);
      const filters = p.filters.map(unqualify);
      return new ScanExec(provider, { columns, filters, limit: p.limit }, p.schema);
    }
    case 'values':
      return new ValuesExec(
        p.schema,
        p.rows.map((r) => r.map((e) => compileExpr(e, { fields: [] }))),
      );
    case 'filter': {
      const input = planPhysical(p.input, ctx);
      return new FilterExec(input, compileExpr(p.predicate, input.schema));
    }
    case 'project': {
      const input = planPhysical(p.input, ctx);
      return new ProjectExec(
        input,
        p.exprs.map((e) => compileExpr(e, input.schema)),
        p.schema,
      );
    }
    case 'aggregate': {
      const input = planPhysical(p.input, ctx);
      const groupBy = p.groupBy.map((e) => compileExpr(e, input.schema));
      const aggs = p.aggregates.map((call) => ({
        call,
        arg: call.args[0] ? compileExpr(call.args[0], input.schema) : null,
        extra: call.args.slice(1).map((e) => compileExpr(e, input.schema)),
        filter: call.filter ? compileExpr(call.filter, input.schema) : null,
      }));
      return new HashAggregateExec(input, groupBy, aggs, p.schema);
    }
    case 'sort': {
      const input = planPhysical(p.input, ctx);
      const keys = p.keys.map((k) => ({
        expr: compileExpr(k.expr, input.schema),
        ascending: k.ascending,
        nullsFirst: k.nullsFirst,
      }));
      return new SortExec(input, keys, p.fetch);
    }
    case 'limit':
      return new LimitExec(planPhysical(p.input, ctx), p.skip, p.fetch);
    default:
      throw new InternalError(`no physical operator for ${(p as LogicalPlan).kind}`);
  }
}

/** Providers see filters over their own unqualified column names. */
function unqualify(e: Expr): Expr {
  return transformExpr(e, (x) => (x.kind === 'column' ? { ...x, qualifier: null } : x));
}
