// `planPhysical`: one operator per logical node; the scan's provider is looked up in the catalog here.
import { InternalError, PlanError } from '../errors.js';
import { conjoin, type Expr, sideOfExpr, splitConjuncts, transformExpr } from '../plan/expr/index.js';
import type { Join, LogicalPlan } from '../plan/logical/index.js';
import { type Schema, sameType } from '../plan/types.js';
import type { ExecContext } from './context.js';
import { compileExpr, type PhysicalExpr } from './expr/physical-expr.js';
import type { PhysicalOperator } from './operator.js';
import { CteScanExec, SharedResult } from './operators/cte-scan-exec.js';
import { FilterExec } from './operators/filter-exec.js';
import { HashAggregateExec } from './operators/hash-aggregate-exec.js';
import { JoinExec } from './operators/join-exec.js';
import { LimitExec } from './operators/limit-exec.js';
import { ProjectExec } from './operators/project-exec.js';
import { ScanExec } from './operators/scan-exec.js';
import { SetOpExec } from './operators/set-op-exec.js';
import { SortExec } from './operators/sort-exec.js';
import { UnionExec } from './operators/union-exec.js';
import { ValuesExec } from './operators/values-exec.js';
import { planWindow } from './operators/window-exec.js';

/** Planning state: the catalog, and one shared computation per multiply-referenced CTE. */
export interface PhysicalPlanContext extends Pick<ExecContext, 'catalog'> {
  readonly ctes: Map<number, SharedResult>;
}

export function planPhysical(p: LogicalPlan, ctx: PhysicalPlanContext): PhysicalOperator {
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
      return new HashAggregateExec(input, groupBy, aggs, p.schema, p.groupingSets ?? null);
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
    case 'join':
      return planJoin(p, ctx);
    case 'cte_scan': {
      let shared = ctx.ctes.get(p.id);
      if (!shared) {
        shared = new SharedResult(planPhysical(p.plan, ctx));
        ctx.ctes.set(p.id, shared);
      }
      return new CteScanExec(shared, p.schema);
    }
    case 'union':
      return new UnionExec(
        p.inputs.map((i) => planPhysical(i, ctx)),
        p.schema,
      );
    case 'set_op':
      return new SetOpExec(planPhysical(p.left, ctx), planPhysical(p.right, ctx), p.op, p.all, p.schema);
    case 'window':
      return planWindow(p, planPhysical(p.input, ctx));
    default:
      throw new InternalError(`no physical operator for ${(p as LogicalPlan).kind}`);
  }
}

/** Equalities between one side and the other become hash keys; the rest of the condition is checked per pair. */
function planJoin(p: Join, ctx: PhysicalPlanContext): PhysicalOperator {
  const left = planPhysical(p.left, ctx);
  const right = planPhysical(p.right, ctx);
  const leftKeys: PhysicalExpr[] = [];
  const rightKeys: PhysicalExpr[] = [];
  const residual: Expr[] = [];
  for (const c of p.on ? splitConjuncts(p.on) : []) {
    const pair = c.kind === 'binary' && c.op === '=' ? keyPair(c.left, c.right, left.schema, right.schema) : null;
    if (pair) {
      leftKeys.push(compileExpr(pair[0], left.schema));
      rightKeys.push(compileExpr(pair[1], right.schema));
    } else residual.push(c);
  }
  if (p.nullAware && leftKeys.length === 0) throw new InternalError('a null-aware join needs its IN equality as a key');
  const both = { fields: [...left.schema.fields, ...right.schema.fields] };
  const rest = conjoin(residual);
  const spec = {
    joinType: p.joinType,
    leftKeys,
    rightKeys,
    residual: rest ? compileExpr(rest, both) : null,
    nullAware: p.nullAware,
    singleMatch: p.singleMatch,
  };
  return new JoinExec(left, right, spec, p.schema);
}

/** `[leftSide, rightSide]` when each operand reads columns of one side only (and not both from the same). */
function keyPair(a: Expr, b: Expr, left: Schema, right: Schema): [Expr, Expr] | null {
  // Keys hash their stored values: both sides must have one type (decimals of one scale).
  if (!sameType(a.type, b.type)) return null;
  const sa = sideOfExpr(a, left.fields, right.fields);
  const sb = sideOfExpr(b, left.fields, right.fields);
  if (sa === 'left' && sb === 'right') return [a, b];
  if (sa === 'right' && sb === 'left') return [b, a];
  return null;
}

/** Providers see filters over their own unqualified column names. */
function unqualify(e: Expr): Expr {
  return transformExpr(e, (x) => (x.kind === 'column' ? { ...x, qualifier: null } : x));
}
