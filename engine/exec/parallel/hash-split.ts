// `hashSplit`: an aggregate whose groups are split across threads by the hash of some GROUP BY keys, for a large
// input that neither a split in scan order (few groups, calls that merge) nor a key-range split covers: every
// thread reads the whole input and aggregates the rows whose keys hash to its partition (`HashPartitionExec`), so
// no group is in two partitions and their rows together are the answer: any number of groups, any calls
// (COUNT(DISTINCT) included), no merge. The partition filter sits right above the scan, so filters and joins on
// the way run on each thread's share only.
import type { Catalog } from '../../catalog.js';
import { type Aggregate, type Join, type LogicalPlan, planChildren, type Scan } from '../../plan/logical/index.js';
import { probeFilterable } from '../dynamic-filters.js';
import { large, probePath, smallBuilds, sourceColumn } from './fragment.js';

export interface HashSplit {
  /** The probed scan, read whole by every partition. */
  readonly scan: Scan;
  /** Its columns that are GROUP BY keys (at least one): rows are partitioned by their hash. */
  readonly columns: readonly string[];
}

/**
 * The hash split of `agg`, or null: grouped, without grouping sets, over the probed scan (`probePath`) of a
 * shareable table of at least `minRows` rows, the joins on the way building from few rows, and at least one GROUP
 * BY key a column of that scan (a key through a join's build side may be NULL-extended: left out).
 */
export function hashSplit(agg: Aggregate, catalog: Catalog, minRows: number): HashSplit | null {
  if (agg.groupingSets !== undefined || agg.groupBy.length === 0) return null;
  const joins: Join[] = [];
  const scan = probePath(agg.input, joins);
  if (scan === null || !large(scan, catalog, minRows) || !smallBuilds(scan, joins, catalog)) return null;
  const columns = new Set<string>();
  for (const k of agg.groupBy) {
    const source = k.kind === 'column' ? sourceColumn(agg.input, k.qualifier, k.name) : null;
    if (source?.scan === scan) columns.add(source.column);
  }
  return columns.size === 0 ? null : { scan, columns: [...columns] };
}

/**
 * The aggregates on the probe side of a join that may filter it by its build keys (`probeFilterable`; the
 * physical planner marks the same subtrees `probed`): those are not hash-split (see `planSplitAggregate`).
 */
export function probedAggregates(root: LogicalPlan): Set<Aggregate> {
  const out = new Set<Aggregate>();
  const visit = (p: LogicalPlan, probed: boolean): void => {
    if (probed && p.kind === 'aggregate') out.add(p);
    if (p.kind === 'cte_scan') visit(p.plan, probed);
    const children = planChildren(p);
    children.forEach((c, i) => {
      visit(c, probed || (p.kind === 'join' && i === 0 && probeFilterable(p)));
    });
  };
  visit(root, false);
  return out;
}
