// `runFragment`: a helper thread's part of a parallel aggregate. It plans the statement as the coordinator did
// (same text, parameters, rules and tables: the same optimized plan), finds the aggregate, and runs it over its
// partition of the split scan (or of every scan of a key split). The rows are the partial aggregate's: the
// coordinator folds them (a key split with disjoint groups: the aggregate's own rows, kept as they are).
import { makeColumn } from '../../arrow/column.js';
import type { Catalog } from '../../catalog.js';
import { InternalError } from '../../errors.js';
import { StatementPlanner } from '../../plan-statement.js';
import type { PhysicalOperator } from '../operator.js';
import { planPhysical } from '../plan-physical.js';
import { keyRange, keySplit, partialAggregate, partitionScan, planNodes } from './fragment.js';
import type { FragmentBatch, FragmentTask } from './messages.js';

const DIFFERENT = 'a parallel aggregate planned differently on a helper thread';

/** Plans kept per helper thread (the same statements come back). */
const PLANS = 128;
const planner = new StatementPlanner(PLANS);

/** Forgets the cached plans: a released table's provider must not stay reachable through their lookups. */
export function forgetFragmentPlans(): void {
  planner.clear();
}

export async function runFragment(
  task: Omit<FragmentTask, 'tables'>,
  catalog: Catalog,
  signal: AbortSignal,
): Promise<FragmentBatch[]> {
  const { plan } = planner.plan(task.sql, task, catalog);
  const agg = planNodes(plan)[task.node];
  if (agg?.kind !== 'aggregate') throw new InternalError(DIFFERENT);
  let op: PhysicalOperator;
  if (task.keys !== undefined) {
    const split = keySplit(agg, catalog, task.minRows);
    if (split === null) throw new InternalError(DIFFERENT);
    const keys = { scans: split.scans, ...keyRange(task.keys, task.part) };
    const partition = { scan: split.scan, index: task.part, count: task.parts, keys };
    op = planPhysical(split.disjoint ? agg : partialAggregate(agg), { catalog, ctes: new Map(), partition });
  } else {
    const scan = partitionScan(agg, catalog, task.minRows);
    if (scan === null) throw new InternalError(DIFFERENT);
    const partition = { scan, index: task.part, count: task.parts, next: task.next };
    op = planPhysical(partialAggregate(agg), { catalog, ctes: new Map(), partition });
  }
  const out: FragmentBatch[] = [];
  for await (const b of op.execute({ catalog, signal })) {
    // Plain columns (a gathered column is a class instance, which does not cross threads).
    out.push({ length: b.length, columns: b.columns.map((c) => makeColumn(c.type, c.values, c.valid, c.length)) });
  }
  return out;
}
