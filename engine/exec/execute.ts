// `executePlan` runs an optimized plan; `evaluateConstant` serves the optimizer's constant folding.

import { type Batch, makeBatch } from '../arrow/batch.js';
import { exactAt, strings } from '../arrow/column.js';
import type { Catalog } from '../catalog.js';
import type { Expr, LiteralExpr, LiteralValue } from '../plan/expr/index.js';
import { parseIntervalText } from '../plan/interval-text.js';
import type { LogicalPlan } from '../plan/logical/index.js';
import type { ExecContext } from './context.js';
import { compileExpr } from './expr/physical-expr.js';
import type { PhysicalOperator } from './operator.js';
import { type ParallelPlanning, planPhysical } from './plan-physical.js';

export interface ExecuteResult {
  readonly schema: LogicalPlan['schema'];
  readonly batches: AsyncIterable<Batch>;
}

export function executePlan(
  plan: LogicalPlan,
  ctx: { catalog: Catalog; signal: AbortSignal; parallel?: ParallelPlanning },
): ExecuteResult {
  const root = planPhysical(plan, { catalog: ctx.catalog, ctes: new Map(), parallel: ctx.parallel });
  const execCtx: ExecContext = { catalog: ctx.catalog, signal: ctx.signal };
  return { schema: plan.schema, batches: new PlanBatches(root, execCtx) };
}

/**
 * A plan's batches, pulled lazily. A class rather than an object literal with a `[Symbol.asyncIterator]` key:
 * V8 defines a computed key in a literal through its slow runtime path on every call (perf: ~5% of a worker's
 * time serving point lookups, with the spread of the result in `Engine.execute`).
 */
class PlanBatches implements AsyncIterable<Batch> {
  constructor(
    readonly root: PhysicalOperator,
    readonly ctx: ExecContext,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<Batch> {
    return this.root.execute(this.ctx)[Symbol.asyncIterator]();
  }
}

/** Evaluates a column-free expression on one row and returns it as a literal. */
export function evaluateConstant(e: Expr): LiteralExpr {
  const col = compileExpr(e, { fields: [] }).evaluate(makeBatch({ fields: [] }, [], 1));
  if (col.type.id === 'null' || (col.valid !== null && col.valid[0] === 0))
    return { kind: 'literal', value: null, type: e.type };
  let value: LiteralValue;
  switch (col.type.id) {
    case 'utf8':
      value = strings(col)[0]!;
      break;
    case 'interval':
      // Interval columns hold text; interval literals hold the three fields.
      value = parseIntervalText(strings(col)[0]!);
      break;
    case 'bool':
      value = (col.values as Uint8Array)[0] === 1;
      break;
    case 'int64':
    case 'decimal':
      value = exactAt(col, 0);
      break;
    default:
      value = (col.values as Int32Array | Float64Array)[0]!;
  }
  // An expression typed interval whose kernel answered text (a CASE or COALESCE over interval columns).
  if (e.type.id === 'interval' && typeof value === 'string') value = parseIntervalText(value);
  return { kind: 'literal', value, type: e.type };
}
