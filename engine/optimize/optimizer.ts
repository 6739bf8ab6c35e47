// The optimizer: runs its rules in order, checks the schema after each, and times them.
import { InternalError } from '../errors.js';
import { type LogicalPlan, transformPlan } from '../plan/logical/index.js';
import { sameType } from '../plan/types.js';
import type { OptimizerContext, OptimizerRule } from './rule.js';
import { decorrelateSubqueries } from './rules/decorrelate-subqueries.js';
import { foldConstants } from './rules/fold-constants.js';
import { pruneGroupKeys } from './rules/prune-group-keys.js';
import { pushDownFilter } from './rules/push-down-filter.js';
import { pushDownLimit } from './rules/push-down-limit.js';
import { pushDownProjection } from './rules/push-down-projection.js';
import { removeDependentGroupKeys } from './rules/remove-dependent-group-keys.js';
import { reorderJoins } from './rules/reorder-joins.js';
import { rewriteSumOffsets } from './rules/rewrite-sum-offsets.js';
import { swapJoinSides } from './rules/swap-join-sides.js';

/**
 * Order matters: subqueries become joins first, so that every later rule sees plain joins; constants are folded first so that pushed filters carry literals the Parquet pruner can
 * compare with statistics; filters move before projection is computed (they add needed columns); the
 * limit goes last, once no filter can still move under it.
 */
export const RULES: readonly OptimizerRule[] = [
  decorrelateSubqueries,
  foldConstants,
  pushDownFilter,
  reorderJoins,
  swapJoinSides,
  removeDependentGroupKeys,
  pruneGroupKeys,
  rewriteSumOffsets,
  pushDownProjection,
  pushDownLimit,
];

export interface OptimizeOptions extends OptimizerContext {
  readonly disabled?: readonly string[];
  /** Receives each rule's time in milliseconds. */
  readonly onTiming?: (rule: string, ms: number) => void;
}

export function optimize(plan: LogicalPlan, options: OptimizeOptions): LogicalPlan {
  // A write's source query is optimized as any query; the rules never see the write itself.
  if (plan.kind === 'insert') return { ...plan, input: optimize(plan.input, options) };
  if (plan.kind === 'create_table' || plan.kind === 'drop_table' || plan.kind === 'create_schema') return plan;
  const disabled = new Set(options.disabled ?? []);
  for (const name of disabled) {
    if (!RULES.some((r) => r.name === name)) throw new InternalError(`unknown optimizer rule ${name}`);
  }
  plan = optimizeSharedCtes(plan, options);
  for (const rule of RULES) {
    if (disabled.has(rule.name)) continue;
    const start = performance.now();
    const next = rule.apply(plan, options);
    options.onTiming?.(rule.name, performance.now() - start);
    assertSameSchema(rule.name, plan, next);
    plan = next;
  }
  return plan;
}

/**
 * Rules treat a shared CTE as a leaf; its body is optimized here, once for all its references. A recursive
 * query is a leaf too: each of its terms is optimized on its own (the recursive term keeps its work-table scan).
 */
function optimizeSharedCtes(plan: LogicalPlan, options: OptimizeOptions): LogicalPlan {
  const bodies = new Map<number, LogicalPlan>();
  return transformPlan(plan, (p) => {
    if (p.kind === 'recursive_cte')
      return { ...p, anchor: optimize(p.anchor, options), recursive: optimize(p.recursive, options) };
    if (p.kind !== 'cte_scan') return p;
    let body = bodies.get(p.id);
    if (!body) {
      body = optimize(p.plan, options);
      bodies.set(p.id, body);
    }
    return { ...p, plan: body };
  });
}

function assertSameSchema(rule: string, before: LogicalPlan, after: LogicalPlan): void {
  const a = before.schema.fields;
  const b = after.schema.fields;
  const same = a.length === b.length && a.every((f, i) => f.name === b[i]!.name && sameType(f.type, b[i]!.type));
  if (!same) throw new InternalError(`optimizer rule ${rule} changed the output schema`);
}
