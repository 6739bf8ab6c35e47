// Which aggregates run in parallel, and over which scans. In scan order (`partitionScan`): an aggregate over one
// large accelerated table (through filters, projections and joins with small build sides: every partition builds
// them again, which measured slower than one thread when they were large) whose groups are few, and whose calls
// merge (SUM, COUNT, MIN, MAX, ANY_VALUE, AVG as a sum and a count: a partial result per partition, folded again).
// By key ranges (`keySplit`): the same probed table split on an ordered key column, with the build sides joined on
// that key split alike, so that each partition joins its own rows; no merge when the groups are by that key. The
// rules run on the coordinating thread only: helpers get the chosen plan and scans (`FragmentTask`).
import type { Catalog, SharedTable, TableProvider } from '../../catalog.js';
import { splitConjuncts } from '../../plan/expr/index.js';
import type { Aggregate, AggregateCall, Join, LogicalPlan, Scan } from '../../plan/logical/index.js';
import { planChildren } from '../../plan/logical/index.js';
import { type DataType, fieldIndex } from '../../plan/types.js';

/** Aggregate calls whose partial results fold with another aggregate (see `partialCalls` and `mergeCall`). */
const MERGEABLE = new Set(['sum', 'count', 'min', 'max', 'any_value', 'avg']);

/**
 * Groups a partial aggregate may hold: the final aggregate hashes every partition's groups again, which costs
 * about what splitting saves once partitions hold a large share of the rows as groups (TPC-H q18's per-order sums).
 */
export const MAX_PARTIAL_GROUPS = 1 << 16;

const INT64: DataType = { id: 'int64' };

/** Nodes in a fixed order (depth first, a CTE's body where it is read): helpers find a node by its position. */
export function planNodes(root: LogicalPlan): LogicalPlan[] {
  const out: LogicalPlan[] = [];
  const seen = new Set<LogicalPlan>();
  const visit = (p: LogicalPlan): void => {
    if (seen.has(p)) return;
    seen.add(p);
    out.push(p);
    if (p.kind === 'cte_scan') visit(p.plan);
    for (const c of planChildren(p)) visit(c);
  };
  visit(root);
  return out;
}

/** Whether every call of `agg` merges and the aggregate has no grouping sets. */
export function mergeable(agg: Aggregate): boolean {
  return (
    agg.groupingSets === undefined &&
    agg.aggregates.every((a) => MERGEABLE.has(a.fn) && !a.distinct && a.args.length <= 1)
  );
}

/**
 * The aggregate each partition runs: `agg` with every AVG split into a SUM and a COUNT of its argument (named
 * `name#sum`, `name#count`), the other calls as they are.
 */
export function partialAggregate(agg: Aggregate): Aggregate {
  if (!agg.aggregates.some((a) => a.fn === 'avg')) return agg;
  const calls = partialCalls(agg.aggregates);
  const g = agg.groupBy.length;
  const fields = [
    ...agg.schema.fields.slice(0, g),
    ...calls.map((c) => ({ name: c.name, qualifier: null, type: c.type, nullable: true })),
  ];
  return { ...agg, aggregates: calls, schema: { fields } };
}

function partialCalls(calls: readonly AggregateCall[]): AggregateCall[] {
  return calls.flatMap((c): AggregateCall[] => {
    if (c.fn !== 'avg') return [c];
    const t = c.args[0]!.type;
    const sumType: DataType = t.id === 'decimal' ? { id: 'decimal', precision: 38, scale: t.scale } : sumTypeOf(t);
    return [
      { ...c, fn: 'sum', type: sumType, name: `${c.name}#sum` },
      { ...c, fn: 'count', type: INT64, name: `${c.name}#count` },
    ];
  });
}

/** SUM's result type for a non-decimal argument (`aggregateType`): integers add as int64, the rest as double. */
function sumTypeOf(t: DataType): DataType {
  return t.id === 'int32' || t.id === 'int64' ? INT64 : { id: 'float64' };
}

/**
 * The call that folds a partial result of `call` (read from a column of the partial aggregate's output, typed as
 * the call's result): SUM and COUNT add, MIN, MAX and ANY_VALUE take theirs again.
 */
export function mergeCall(call: AggregateCall): AggregateCall {
  const fn = call.fn === 'count' ? 'sum' : call.fn;
  const arg = { kind: 'column', qualifier: null, name: call.name, type: call.type } as const;
  return { fn, args: [arg], distinct: false, filter: null, type: call.type, name: call.name };
}

/**
 * Rows a join's build side may read in all (every partition builds it again): dimension tables, and a fact table
 * filtered down. At least MAX_REPLICATED_ROWS, and up to 1/REPLICATED_SHARE of the split table's rows: the threads
 * claim chunks (`ScanRequest.partition.next`), so a helper still building only reads fewer of them (the query is
 * never slower for it than on one thread, only costlier in CPU), and on two threads the probe rows each one is
 * spared (half) outnumber the build rows it reads again. TPC-H q5 builds orders ⋈ customer (1.65M rows read)
 * against lineitem's 6M: 81-104 → 65-72 ms wall, 100-116 → 128-149 ms CPU; a share of 16 kept it on one thread.
 */
const MAX_REPLICATED_ROWS = 1 << 16;
const REPLICATED_SHARE = 3;

/**
 * The scan whose rows are split across threads for `agg`, or null: a scan of a shareable table with at least
 * `minRows` rows, reached from the aggregate's input through filters, projections and the probe (left) side of
 * inner, left, semi, anti and mark joins whose build side reads few rows (`replicatedRows`); when the
 * aggregate's calls merge and its groups are known to be at most MAX_PARTIAL_GROUPS (the product of its key
 * columns' distinct counts).
 */
export function partitionScan(agg: Aggregate, catalog: Catalog, minRows: number): Scan | null {
  if (!mergeable(agg)) return null;
  const scan = probedScan(agg.input, catalog);
  return scan !== null && large(scan, catalog, minRows) && fewGroups(agg, catalog) ? scan : null;
}

/** Whether `scan` reads a shareable table of at least `minRows` rows. */
export function large(scan: Scan, catalog: Catalog, minRows: number): boolean {
  const table = catalog.table(scan.table);
  return table?.shared?.() != null && (table.statistics().rowCount ?? 0) >= minRows;
}

/** Whether `agg`'s groups are known to be at most MAX_PARTIAL_GROUPS (its key columns' distinct counts multiplied). */
function fewGroups(agg: Aggregate, catalog: Catalog): boolean {
  let groups = 1;
  for (const key of agg.groupBy) {
    const source = key.kind === 'column' ? sourceColumn(agg.input, key.qualifier, key.name) : null;
    const distinct = source && catalog.table(source.scan.table)?.statistics().distinctCount?.(source.column);
    groups *= distinct ?? Number.POSITIVE_INFINITY;
  }
  return groups <= MAX_PARTIAL_GROUPS;
}

/** Rows each build side on the way to a split table of `rows` rows may read (see MAX_REPLICATED_ROWS). */
function replicatedRows(rows: number): number {
  return Math.max(MAX_REPLICATED_ROWS, Math.floor(rows / REPLICATED_SHARE));
}

/** Whether every join of `joins` except those of `split` builds from few enough rows (`replicatedRows`). */
export function smallBuilds(scan: Scan, joins: readonly Join[], catalog: Catalog, split?: ReadonlySet<Join>): boolean {
  const limit = replicatedRows(catalog.table(scan.table)?.statistics().rowCount ?? 0);
  return joins.every((j) => split?.has(j) || readRows(j.right, catalog) <= limit);
}

/** The scan at the end of `p`'s probe path (see `partitionScan`), or null when a node on the way cannot split. */
function probedScan(p: LogicalPlan, catalog: Catalog): Scan | null {
  const joins: Join[] = [];
  const scan = probePath(p, joins);
  return scan !== null && smallBuilds(scan, joins, catalog) ? scan : null;
}

/** The scan `probedScan` splits, with the joins on the way (whose right sides are built) added to `joins`. */
export function probePath(p: LogicalPlan, joins: Join[]): Scan | null {
  switch (p.kind) {
    case 'scan':
      return p.limit === null ? p : null;
    case 'filter':
    case 'project':
      return probePath(p.input, joins);
    case 'join': {
      // Right and full joins add the build rows no probe row matched: every partition would add them.
      if (!['inner', 'left', 'semi', 'anti', 'mark'].includes(p.joinType) || p.buildLeft) return null;
      joins.push(p);
      return probePath(p.left, joins);
    }
    default:
      return null;
  }
}

/**
 * An aggregate split by ranges of one ordered key column (`TableStatistics.splitPoints`): the probed scan's rows
 * and, for each join on the way whose keys equal that column with an ordered column of the probed scan of its build
 * side, that scan's rows too, by the same key values (a partition-wise join: TPC-H q03's lineitem and orders by
 * order key). Each partition then joins its own rows only, where `partitionScan` builds every join again per
 * partition.
 */
export interface KeySplit {
  /** The probed scan, whose rows give the split points, and its key column. */
  readonly scan: Scan;
  readonly column: string;
  /** Every scan split by the key ranges (`scan` among them), with its key column. */
  readonly scans: ReadonlyMap<Scan, string>;
  /**
   * Whether a GROUP BY key is the probed scan's key column: no group is in two partitions, so each partition runs
   * the whole aggregate and their rows together are the answer (no merge; any aggregate calls, any number of groups).
   */
  readonly disjoint: boolean;
}

/**
 * The key split of `agg` (see `KeySplit`), or null: the probed scan reads a shareable table of at least `minRows`
 * rows; the joins on the way that are not split build from few rows (`replicatedRows`); and the groups are
 * disjoint, or the calls merge and the groups are few (as for `partitionScan`). For when `partitionScan` finds
 * nothing.
 */
export function keySplit(agg: Aggregate, catalog: Catalog, minRows: number): KeySplit | null {
  if (agg.groupingSets !== undefined) return null;
  const joins: Join[] = [];
  const scan = probePath(agg.input, joins);
  if (scan === null || !large(scan, catalog, minRows)) return null;
  const ordered = (s: Scan, column: string) => {
    const table = catalog.table(s.table);
    return table?.shared?.() != null && table.statistics().splitPoints?.(column, 2) != null;
  };
  // Joins whose build side's probed scan splits on the same key as the probed one; the first such fixes the key.
  let column: string | null = null;
  const scans = new Map<Scan, string>();
  const split = new Set<Join>();
  for (const join of joins) {
    const pair = coPartitioned(join, scan, catalog, ordered);
    if (pair === null || (column !== null && pair.column !== column)) continue;
    column = pair.column;
    scans.set(pair.build, pair.buildColumn);
    split.add(join);
  }
  const groupSources = agg.groupBy.map((k) =>
    k.kind === 'column' ? sourceColumn(agg.input, k.qualifier, k.name) : null,
  );
  // No such join: a GROUP BY key of the probed scan (q18's l_orderkey), for disjoint groups.
  column ??= groupSources.find((g) => g?.scan === scan && ordered(scan, g.column))?.column ?? null;
  if (column === null || !ordered(scan, column) || !smallBuilds(scan, joins, catalog, split)) return null;
  scans.set(scan, column);
  // Only the probed scan's key: a build side's column is NULL on the probe rows a left join leaves unmatched, a
  // group of every partition.
  const disjoint = groupSources.some((g) => g?.scan === scan && g.column === column);
  if (!disjoint && !(mergeable(agg) && fewGroups(agg, catalog))) return null;
  return { scan, column, scans, disjoint };
}

/** Partition `index`'s key range of the split points `bounds` (the first and last open-ended). */
export function keyRange(bounds: readonly number[], index: number): { lo: number; hi: number } {
  return {
    lo: index === 0 ? Number.NEGATIVE_INFINITY : bounds[index - 1]!,
    hi: index === bounds.length ? Number.POSITIVE_INFINITY : bounds[index]!,
  };
}

/**
 * When `join` (on the probe path to `scan`) has a key equality of a column of `scan` with a column of the probed
 * scan of its build side, both ordered: that column, the build scan and its column. The build side's own joins must
 * build from few rows (they are built again per partition).
 */
function coPartitioned(
  join: Join,
  scan: Scan,
  catalog: Catalog,
  ordered: (s: Scan, column: string) => boolean,
): { column: string; build: Scan; buildColumn: string } | null {
  if (join.on === null || join.nullAware) return null;
  const buildJoins: Join[] = [];
  const build = probePath(join.right, buildJoins);
  if (build === null || build === scan || !smallBuilds(build, buildJoins, catalog)) return null;
  for (const c of splitConjuncts(join.on)) {
    if (c.kind !== 'binary' || c.op !== '=' || c.left.kind !== 'column' || c.right.kind !== 'column') continue;
    for (const [a, b] of [
      [c.left, c.right],
      [c.right, c.left],
    ] as const) {
      const probe = sourceColumn(join.left, a.qualifier, a.name);
      const other = sourceColumn(join.right, b.qualifier, b.name);
      if (probe?.scan !== scan || other?.scan !== build) continue;
      if (ordered(scan, probe.column) && ordered(build, other.column))
        return { column: probe.column, build, buildColumn: other.column };
    }
  }
  return null;
}

/** Rows the scans under `p` read in all (infinite when a table's count is unknown or `p` reads a shared CTE). */
function readRows(p: LogicalPlan, catalog: Catalog): number {
  if (p.kind === 'scan') return catalog.table(p.table)?.statistics().rowCount ?? Number.POSITIVE_INFINITY;
  if (p.kind === 'cte_scan' || p.kind === 'recursive_cte' || p.kind === 'work_table_scan')
    return Number.POSITIVE_INFINITY;
  return planChildren(p).reduce((n, c) => n + readRows(c, catalog), 0);
}

/** The scan and table column a column of `p` reads, through filters, projections and joins; null when computed. */
export function sourceColumn(
  p: LogicalPlan,
  qualifier: string | null,
  name: string,
): { scan: Scan; column: string } | null {
  const at = fieldIndex(p.schema, qualifier, name);
  if (at < 0) return null;
  switch (p.kind) {
    case 'scan':
      return { scan: p, column: p.schema.fields[at]!.name };
    case 'filter':
      return sourceColumn(p.input, qualifier, name);
    case 'project': {
      const e = p.exprs[at];
      return e?.kind === 'column' ? sourceColumn(p.input, e.qualifier, e.name) : null;
    }
    case 'join':
      return sourceColumn(p.left, qualifier, name) ?? sourceColumn(p.right, qualifier, name);
    default:
      return null;
  }
}

/** A table as a helper thread registers it: under the name the plan looked it up by. */
export interface NamedSharedTable extends SharedTable {
  readonly name: string;
}

/**
 * The tables the statement's planning looked up (names that resolved to nothing are left out: they resolve to
 * nothing on the helper either), or null when one of them cannot be shared.
 */
export function sharedTables(lookups: ReadonlyMap<string, TableProvider | undefined>): NamedSharedTable[] | null {
  const out: NamedSharedTable[] = [];
  for (const [name, provider] of lookups) {
    if (provider === undefined) continue;
    const shared = provider.shared?.();
    if (shared == null) return null;
    out.push({ ...shared, name });
  }
  return out;
}
