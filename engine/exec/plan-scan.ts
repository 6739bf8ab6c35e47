// `planScan`: a logical scan as a `ScanExec`, with its share of a split aggregate's rows and its TopK bounds.
import type { ScanRequest } from '../catalog.js';
import { PlanError } from '../errors.js';
import { type Expr, transformExpr } from '../plan/expr/index.js';
import type { Scan } from '../plan/logical/index.js';
import type { PhysicalOperator } from './operator.js';
import { ScanExec } from './operators/scan-exec.js';
import { HashPartitionExec } from './parallel/hash-partition-exec.js';
import type { PhysicalPlanContext } from './plan-physical.js';

/** The scan `p`: under a hash split, only the rows whose keys hash to this partition. */
export function planScan(p: Scan, ctx: PhysicalPlanContext): PhysicalOperator {
  const provider = ctx.catalog.table(p.table);
  if (!provider) throw new PlanError(`table "${p.table}" does not exist`);
  const columns = p.columns ?? p.tableSchema.fields.map((f) => f.name);
  const filters = p.filters.map(unqualify);
  const partition = scanPartition(p, ctx.partition);
  const dynamicFilters = ctx.scanBounds?.get(p)?.filters;
  const scan = new ScanExec(provider, { columns, filters, limit: p.limit, partition, dynamicFilters }, p.schema);
  const hash = ctx.partition?.scan === p ? ctx.partition.hash : undefined;
  if (hash === undefined) return scan;
  const keys = hash.map((c) => p.schema.fields.findIndex((f) => f.name === c));
  return new HashPartitionExec(scan, keys, ctx.partition!.index, ctx.partition!.count);
}

/** What the scan `p` asks for of `partition` (`ScanRequest.partition`), if it is split. */
export function scanPartition(p: Scan, partition: PhysicalPlanContext['partition']): ScanRequest['partition'] {
  if (partition === undefined) return undefined;
  const { index, count, next, keys } = partition;
  if (partition.hash !== undefined) return undefined;
  if (keys === undefined) return partition.scan === p ? { index, count, next } : undefined;
  const column = keys.scans.get(p);
  return column === undefined ? undefined : { index, count, keys: { column, lo: keys.lo, hi: keys.hi } };
}

// A cached plan hands its scans the same filter objects on every run: unqualified once, they stay the same
// objects, so what providers memoize per filter (column names, zone bounds) is found again.
const unqualified = new WeakMap<Expr, Expr>();

/** Providers see filters over their own unqualified column names. */
export function unqualify(e: Expr): Expr {
  let out = unqualified.get(e);
  if (out === undefined) {
    out = transformExpr(e, (x) => (x.kind === 'column' ? { ...x, qualifier: null } : x));
    unqualified.set(e, out);
  }
  return out;
}
