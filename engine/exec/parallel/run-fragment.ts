// `runFragment`: a helper thread's part of a parallel aggregate. It receives the aggregate as plan data (the
// coordinator's optimized plan, never SQL text), plans it physically over its partition of the split scan (or of
// every scan of a key split), and returns the rows. They are the partial aggregate's: the coordinator folds them
// (a key split with disjoint groups: the aggregate's own rows, kept as they are).
import { makeColumn } from '../../arrow/column.js';
import type { Catalog } from '../../catalog.js';
import { InternalError } from '../../errors.js';
import type { Scan } from '../../plan/logical/index.js';
import type { PhysicalPlanContext } from '../plan-physical.js';
import { planPhysical } from '../plan-physical.js';
import { keyRange, planNodes } from './fragment.js';
import type { FragmentBatch, FragmentTask } from './messages.js';

export async function runFragment(
  task: Omit<FragmentTask, 'tables'>,
  catalog: Catalog,
  signal: AbortSignal,
): Promise<FragmentBatch[]> {
  const op = planPhysical(task.plan, { catalog, ctes: new Map(), partition: partitionOf(task) });
  const out: FragmentBatch[] = [];
  for await (const b of op.execute({ catalog, signal })) {
    // Plain columns (a gathered column is a class instance, which does not cross threads).
    out.push({ length: b.length, columns: b.columns.map((c) => makeColumn(c.type, c.values, c.valid, c.length)) });
  }
  return out;
}

/** The task's partition, its scans found by position in the cloned plan. */
function partitionOf(task: Omit<FragmentTask, 'tables'>): NonNullable<PhysicalPlanContext['partition']> {
  const nodes = planNodes(task.plan);
  const scanAt = (at: number): Scan => {
    const node = nodes[at];
    if (node?.kind !== 'scan') throw new InternalError('a parallel aggregate sent without its split scan');
    return node;
  };
  const { part: index, parts: count, next } = task;
  const scan = scanAt(task.scan);
  if (task.hash !== undefined) return { scan, index, count, hash: task.hash };
  if (task.keys === undefined) return { scan, index, count, next };
  const scans = new Map(task.keys.scans.map(([at, column]) => [scanAt(at), column]));
  return { scan, index, count, keys: { scans, ...keyRange(task.keys.bounds, index) } };
}
