// `planSplitAggregate`: an aggregate's physical plan across helper threads (`ParallelAggregateExec`): split in scan
// order (`partitionScan`), by key ranges (`keySplit`) or by the hash of its keys (`hashSplit`), each partition
// planned by the caller.
import type { Catalog } from '../../catalog.js';
import { InternalError } from '../../errors.js';
import type { Aggregate, Scan } from '../../plan/logical/index.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { HashAggregateExec } from '../operators/hash-aggregate-exec.js';
import { ProjectExec } from '../operators/project-exec.js';
import type { ParallelPlanning, PhysicalPlanContext } from '../plan-physical.js';
import { finishAverages } from './finish-averages.js';
import {
  type KeySplit,
  keyRange,
  keySplit,
  mergeCall,
  partialAggregate,
  partitionScan,
  planNodes,
} from './fragment.js';
import { type HashSplit, hashSplit } from './hash-split.js';
import { ParallelAggregateExec } from './parallel-aggregate-exec.js';

/** One partition's partial aggregate `partial` over the aggregate's input, its scans split as `partition` says. */
export type PlanPartition = (
  partial: Aggregate,
  partition: NonNullable<PhysicalPlanContext['partition']>,
) => PhysicalOperator;

/**
 * `p` across threads, or null when it stays on one thread; `filtered`: dynamic join filters may be routed below it. The statement's shared tables are looked up only for
 * a split (a small query's aggregate, every HTTP request's, builds none).
 */
export function planSplitAggregate(
  p: Aggregate,
  par: ParallelPlanning,
  catalog: Catalog,
  plan: PlanPartition,
  filtered = false,
): PhysicalOperator | null {
  const scan = partitionScan(p, catalog, par.minRows);
  const split = scan === null ? keySplit(p, catalog, par.minRows) : null;
  // Dynamic join filters from above (`filtered`: `probedAggregates`) reach this thread's partition only: a helper
  // would read every row of the input (TPC-H q17's and q20's lineitem sums per part, ~0.6x -> ~7x DuckDB if split).
  const hash = scan === null && split === null && !filtered ? hashSplit(p, catalog, par.minRows) : null;
  if (scan === null && split === null && hash === null) return null;
  if (par.tables() === null) return null;
  if (scan !== null) return planParallelAggregate(p, scan, par, plan);
  if (hash !== null) return planHashSplitAggregate(p, hash, par, plan);
  const parts = par.pool.threads + 1;
  const bounds = catalog.table(split!.scan.table)?.statistics().splitPoints?.(split!.column, parts);
  // Fewer rows than partitions: fewer split points, and one thread.
  return bounds?.length === parts - 1 ? planKeySplitAggregate(p, split!, bounds, par, plan) : null;
}

/**
 * `p` split by the rows of `scan`: one partition per helper thread plus this thread's; each partial aggregate has
 * `p`'s own schema, and the final one folds them (`mergeCall`).
 */
function planParallelAggregate(p: Aggregate, scan: Scan, par: ParallelPlanning, plan: PlanPartition): PhysicalOperator {
  const parts = par.pool.threads + 1;
  const partial = partialAggregate(p);
  const local = (index: number, next?: Int32Array) => plan(partial, { scan, index, count: parts, next });
  const final = (partials: PhysicalOperator) => mergePartials(p, partial, partials);
  const task = { plan: partial, scan: positionIn(partial, scan), parts, tables: par.tables()! };
  const spec = { local, final, task, pool: par.pool, partialSchema: partial.schema, takeBack: par.takeBack };
  return new ParallelAggregateExec({ ...spec, fixedShares: !par.takeBack }, p.schema);
}

/** `p`'s rows from the rows of its partial aggregates (`partial`): folded (`mergeCall`), AVG divided. */
function mergePartials(p: Aggregate, partial: Aggregate, partials: PhysicalOperator): PhysicalOperator {
  const g = p.groupBy.length;
  const column = (i: number): PhysicalExpr => ({ evaluate: (b) => b.columns[i]! });
  const merged = new HashAggregateExec(
    partials,
    p.groupBy.map((_, i) => column(i)),
    partial.aggregates.map((call, j) => ({ call: mergeCall(call), arg: column(g + j), extra: [], filter: null })),
    partial.schema,
    null,
    false,
  );
  return partial === p ? merged : new ProjectExec(merged, finishAverages(p, g), p.schema);
}

/**
 * `p` split by key ranges (`KeySplit`, at the split points `bounds`): one partition per helper thread plus this
 * thread's, each reading the rows of its key range of every split scan. With disjoint groups each partition runs
 * `p` itself and their rows are the answer; otherwise the partials are folded as in `planParallelAggregate`.
 */
function planKeySplitAggregate(
  p: Aggregate,
  split: KeySplit,
  bounds: readonly number[],
  par: ParallelPlanning,
  plan: PlanPartition,
): PhysicalOperator {
  const parts = bounds.length + 1;
  const partial = split.disjoint ? p : partialAggregate(p);
  const local = (index: number) => {
    const keys = { scans: split.scans, ...keyRange(bounds, index) };
    return plan(partial, { scan: split.scan, index, count: parts, keys });
  };
  const final = (partials: PhysicalOperator) => (split.disjoint ? partials : mergePartials(p, partial, partials));
  const scans = [...split.scans].map(([s, column]) => [positionIn(partial, s), column] as const);
  const keys = { bounds, scans };
  const task = { plan: partial, scan: positionIn(partial, split.scan), parts, tables: par.tables()!, keys };
  const spec = { local, final, task, pool: par.pool, partialSchema: partial.schema, takeBack: par.takeBack };
  return new ParallelAggregateExec({ ...spec, fixedShares: true }, p.schema);
}

/**
 * `p` split by the hash of its keys (`HashSplit`): one partition per helper thread plus this thread's, each running
 * `p` itself over its share of the groups; their rows together are the answer.
 */
function planHashSplitAggregate(p: Aggregate, split: HashSplit, par: ParallelPlanning, plan: PlanPartition) {
  const parts = par.pool.threads + 1;
  const hash = split.columns;
  const local = (index: number) => plan(p, { scan: split.scan, index, count: parts, hash });
  const task = { plan: p, scan: positionIn(p, split.scan), parts, tables: par.tables()!, hash };
  const spec = { local, final: (partials: PhysicalOperator) => partials, task, pool: par.pool };
  return new ParallelAggregateExec(
    { ...spec, partialSchema: p.schema, takeBack: par.takeBack, fixedShares: true },
    p.schema,
  );
}

/** `scan`'s position in `planNodes(plan)`: how a helper finds it in its clone of the plan (`runFragment`). */
function positionIn(plan: Aggregate, scan: Scan): number {
  const at = planNodes(plan).indexOf(scan);
  if (at < 0) throw new InternalError('a parallel aggregate whose split scan is not in its plan');
  return at;
}
