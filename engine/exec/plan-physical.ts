import type { Catalog } from '../catalog.js';
import { InternalError } from '../errors.js';
import { type ColumnExpr, conjoin, type Expr, sideOfExpr, splitConjuncts } from '../plan/expr/index.js';
import type { Aggregate, Join, LogicalPlan, Scan } from '../plan/logical/index.js';
import { type Schema, sameType } from '../plan/types.js';
import type { ExecContext } from './context.js';
import {
  applyFilters,
  fieldAt,
  keySets,
  NO_FILTERS,
  type PendingFilter,
  probeFilterable,
  readsWholeTable,
  routeFilters,
  wholeTableScan,
} from './dynamic-filters.js';
import { compileExpr, type PhysicalExpr } from './expr/physical-expr.js';
import { mayRaiseOnRows } from './expr/short-circuit.js';
import type { PhysicalOperator } from './operator.js';
import { BuildLeftSemiExec } from './operators/build-left-semi-exec.js';
import { CteScanExec, SharedResult } from './operators/cte-scan-exec.js';
import { DdlExec } from './operators/ddl-exec.js';
import { CollectKeysExec } from './operators/dynamic-filter.js';
import { FilterExec } from './operators/filter-exec.js';
import { HashAggregateExec } from './operators/hash-aggregate-exec.js';
import { InsertExec } from './operators/insert-exec.js';
import { JoinExec } from './operators/join-exec.js';
import { LimitExec } from './operators/limit-exec.js';
import { ProjectExec } from './operators/project-exec.js';
import { RecursiveCteExec } from './operators/recursive-cte-exec.js';
import { SetOpExec } from './operators/set-op-exec.js';
import { SortExec } from './operators/sort-exec.js';
import type { TopKBound } from './operators/top-k-bound.js';
import { UnionExec } from './operators/union-exec.js';
import { ValuesExec } from './operators/values-exec.js';
import { planWindow } from './operators/window-exec.js';
import { WorkTable, WorkTableScanExec } from './operators/work-table-scan-exec.js';
import type { ExecPool } from './parallel/exec-pool.js';
import type { NamedSharedTable } from './parallel/fragment.js';
import { planSplitAggregate } from './parallel/plan-split.js';
import { filterSpec } from './plan-filter.js';
import { planLateColumns } from './plan-late-columns.js';
import { planScan, scanPartition, unqualify } from './plan-scan.js';
import { topKScanBound } from './plan-top-k.js';

/** Planning state: the catalog, and one shared computation per multiply-referenced CTE. */
export interface PhysicalPlanContext extends Pick<ExecContext, 'catalog'> {
  readonly ctes: Map<number, SharedResult>;
  /** The working tables of the recursive queries being planned, by CTE id (their recursive terms read them). */
  readonly workTables?: ReadonlyMap<number, WorkTable>;
  /**
   * Planning the probe side of a join that may filter it by its build keys (`probedAggregates`): aggregates below
   * are not hash-split, since a helper thread cannot apply those filters.
   */
  readonly probed?: boolean;
  /** Set when aggregates may run in parallel (a statement's coordinating thread). */
  readonly parallel?: ParallelPlanning;
  /** The scan whose rows are split, and the partition planned (a partial aggregate's subtree; `ScanRequest`). */
  readonly partition?: {
    readonly scan: Scan;
    readonly index: number;
    readonly count: number;
    readonly next?: Int32Array;
    /** A key split (`KeySplit`): every scan split, by its key column, and this partition's key range. */
    readonly keys?: { readonly scans: ReadonlyMap<Scan, string>; readonly lo: number; readonly hi: number };
    /** A hash split (`HashSplit`): `scan` is read whole, its rows kept by the hash of these columns. */
    readonly hash?: readonly string[];
  };
  /** The dynamic filters of the TopKs above, by the scan each bounds (`plan-top-k.ts`). */
  readonly scanBounds?: ReadonlyMap<Scan, TopKBound>;
}

/** What a parallel aggregate needs from the statement being run. */
export interface ParallelPlanning {
  readonly pool: ExecPool;
  readonly minRows: number;
  /** Whether this thread runs the partitions no helper has started (`EngineOptions.parallel`). */
  readonly takeBack: boolean;
  /** The statement's tables as helpers rebuild them; null when one cannot be shared. */
  tables(): readonly NamedSharedTable[] | null;
}

/** Plans `p`; `filters` are dynamic join filters from a join above, placed as low in `p` as they can go. */
export function planPhysical(
  p: LogicalPlan,
  ctx: PhysicalPlanContext,
  filters: readonly PendingFilter[] = NO_FILTERS,
): PhysicalOperator {
  if (filters.length === 0) return planNode(p, ctx, NO_BELOW);
  const { here, below } = routeFilters(p, filters);
  return applyFilters(planNode(p, ctx, below), here, p.kind === 'scan' ? p.filters : []);
}

const NO_BELOW: readonly (readonly PendingFilter[])[] = [];

function planNode(
  p: LogicalPlan,
  ctx: PhysicalPlanContext,
  below: readonly (readonly PendingFilter[])[],
): PhysicalOperator {
  const input = (i: number, child: LogicalPlan) => planPhysical(child, ctx, below[i] ?? NO_FILTERS);
  switch (p.kind) {
    case 'scan':
      return planScan(p, ctx);
    case 'values':
      return new ValuesExec(
        p.schema,
        p.rows.map((r) => r.map((e) => compileExpr(e, { fields: [] }))),
      );
    case 'filter': {
      const child = input(0, p.input);
      return new FilterExec(child, filterSpec(p.predicate, child.schema));
    }
    case 'project': {
      const child = input(0, p.input);
      return new ProjectExec(
        child,
        p.exprs.map((e) => compileExpr(e, child.schema)),
        p.schema,
      );
    }
    case 'aggregate': {
      const par = ctx.parallel;
      if (par !== undefined) {
        const filters = below[0] ?? NO_FILTERS;
        const split = planSplitAggregate(
          p,
          par,
          ctx.catalog,
          (partial, partition) =>
            planAggregate(partial, planPhysical(p.input, { ...ctx, parallel: undefined, partition }, filters)),
          ctx.probed === true || filters.length > 0,
        );
        if (split !== null) return split;
      }
      // Dynamic join filters routed below drop rows the table's count includes: no count then.
      const rows = (below[0] ?? NO_FILTERS).length === 0 ? wholeTableRows(p.input, ctx) : null;
      return planAggregate(p, input(0, p.input), rows);
    }
    case 'sort': {
      const late =
        (below[0] ?? NO_FILTERS).length === 0 ? planLateColumns(p, ctx, (s) => s.filters.map(unqualify)) : null;
      if (late !== null) return late;
      const top = topKScanBound(p);
      const scanBounds = top === null ? undefined : new Map(ctx.scanBounds).set(top.scan, top.bound);
      const child = top === null ? input(0, p.input) : planPhysical(p.input, { ...ctx, scanBounds }, below[0]);
      const keys = p.keys.map((k) => ({
        expr: compileExpr(k.expr, child.schema),
        ascending: k.ascending,
        nullsFirst: k.nullsFirst,
      }));
      return new SortExec(child, keys, p.fetch, top?.bound);
    }
    case 'limit':
      return new LimitExec(input(0, p.input), p.skip, p.fetch);
    case 'join':
      return planJoin(p, ctx, below);
    case 'cte_scan': {
      let shared = ctx.ctes.get(p.id);
      if (!shared) {
        shared = new SharedResult(planPhysical(p.plan, ctx));
        ctx.ctes.set(p.id, shared);
      }
      return new CteScanExec(shared, p.schema);
    }
    case 'recursive_cte': {
      // Each term runs whole on this thread: the recursive one again per iteration, so nothing in it is split.
      const workTable = new WorkTable();
      const workTables = new Map(ctx.workTables).set(p.id, workTable);
      const anchor = planPhysical(p.anchor, { ...ctx, parallel: undefined });
      const recursive = planPhysical(p.recursive, { ...ctx, parallel: undefined, workTables });
      return new RecursiveCteExec(anchor, recursive, workTable, { name: p.name, all: p.all }, p.schema);
    }
    case 'work_table_scan': {
      const workTable = ctx.workTables?.get(p.id);
      if (!workTable) throw new InternalError(`no working table for recursive query "${p.name}"`);
      return new WorkTableScanExec(workTable, p.schema);
    }
    case 'union':
      return new UnionExec(
        p.inputs.map((i) => planPhysical(i, ctx)),
        p.schema,
      );
    case 'set_op':
      return new SetOpExec(input(0, p.left), input(1, p.right), p.op, p.all, p.schema);
    case 'window':
      return planWindow(p, input(0, p.input));
    case 'insert':
      return new InsertExec(input(0, p.input), p);
    case 'create_table':
    case 'drop_table':
    case 'create_schema':
      return new DdlExec(p);
    default:
      throw new InternalError(`no physical operator for ${(p as LogicalPlan).kind}`);
  }
}

/**
 * The row count of the table `p` reads whole (a scan without filters or limit, through projections), else null. Of
 * a key-split scan, its share (the split points balance the rows); of one that claims chunks, none.
 */
function wholeTableRows(p: LogicalPlan, ctx: PhysicalPlanContext): number | null {
  if (ctx.partition?.hash !== undefined) return null;
  const scan = wholeTableScan(p);
  const partition = scan === null ? undefined : scanPartition(scan, ctx.partition);
  if (scan === null || (partition !== undefined && partition.keys === undefined)) return null;
  const rows = ctx.catalog.table(scan.table)?.statistics().rowCount ?? null;
  return rows === null || partition === undefined ? rows : Math.ceil(rows / partition.count);
}

function planAggregate(p: Aggregate, child: PhysicalOperator, inputRows: number | null = null): PhysicalOperator {
  const shared = new Map<string, PhysicalExpr>();
  const groupBy = p.groupBy.map((e) => compileExpr(e, child.schema, shared));
  const aggs = p.aggregates.map((call) => ({
    call,
    arg: call.args[0] ? compileExpr(call.args[0], child.schema, shared) : null,
    extra: call.args.slice(1).map((e) => compileExpr(e, child.schema)),
    filter: call.filter ? compileExpr(call.filter, child.schema) : null,
  }));
  // An aggregate may read its filter's selection when nothing it evaluates can raise on a dropped row.
  const readsSelections =
    p.aggregates.every((a) => a.filter === null && a.args.length <= 1 && !a.distinct) &&
    ![...p.groupBy, ...p.aggregates.flatMap((a) => a.args)].some(mayRaiseOnRows);
  return new HashAggregateExec(child, groupBy, aggs, p.schema, p.groupingSets ?? null, readsSelections, inputRows);
}

/** Equalities between one side and the other become hash keys; the rest of the condition is checked per pair. */
function planJoin(p: Join, ctx: PhysicalPlanContext, below: readonly (readonly PendingFilter[])[]): PhysicalOperator {
  const pairs: [Expr, Expr][] = [];
  const residual: Expr[] = [];
  for (const c of p.on ? splitConjuncts(p.on) : []) {
    const pair =
      c.kind === 'binary' && c.op === '='
        ? keyPair(c.left, c.right, p.left.schema, p.right.schema, p.nullAware === true)
        : null;
    if (pair) pairs.push(pair);
    else residual.push(c);
  }
  if (p.buildLeft && pairs.length > 0) return planBuildLeft(p, ctx, below, pairs, residual);
  // Several equalities, one of them on a build column whose values are unique there (q05's o_orderkey beside
  // c_nationkey = s_nationkey): that one is the hash key, each probe row finds at most one build row, and the
  // others are checked on it, instead of hashing every key pair.
  if (pairs.length > 1 && !p.nullAware) {
    const at = pairs.findIndex(([, r]) => r.kind === 'column' && uniqueColumn(p.right, r, ctx.catalog));
    if (at >= 0) {
      for (const [i, [l, r]] of pairs.entries()) if (i !== at) residual.push(eq(l, r));
      pairs.splice(0, pairs.length, pairs[at]!);
    }
  }
  // The build (right) side runs to its end before the probe (left) side starts: its keys can filter the probe side.
  const sets = probeFilterable(p) && !readsWholeTable(p.right, below[1] ?? NO_FILTERS) ? keySets(pairs) : [];
  const left = planPhysical(p.left, probeFilterable(p) ? { ...ctx, probed: true } : ctx, [
    ...(below[0] ?? NO_FILTERS),
    ...sets.map((s) => ({ ...s.left, keys: s.keys })),
  ]);
  let right = planPhysical(p.right, ctx, below[1] ?? NO_FILTERS);
  for (const s of sets) {
    const at = fieldAt(right.schema, s.right);
    if (at >= 0) right = new CollectKeysExec(right, at, s.keys);
  }
  const leftKeys = pairs.map(([l]) => compileExpr(l, left.schema));
  const rightKeys = pairs.map(([, r]) => compileExpr(r, right.schema));
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

/** A semi/anti join hashing its left side; the left keys filter the right side, which streams after the build. */
function planBuildLeft(
  p: Join,
  ctx: PhysicalPlanContext,
  below: readonly (readonly PendingFilter[])[],
  pairs: readonly [Expr, Expr][],
  residual: readonly Expr[],
): PhysicalOperator {
  // Semi and anti joins alike: right rows whose key no left row has cannot change which left rows match.
  const sets = readsWholeTable(p.left, below[0] ?? NO_FILTERS) ? [] : keySets(pairs);
  let left = planPhysical(p.left, ctx, below[0] ?? NO_FILTERS);
  for (const s of sets) {
    const at = fieldAt(left.schema, s.left);
    if (at >= 0) left = new CollectKeysExec(left, at, s.keys);
  }
  const right = planPhysical(p.right, ctx, [
    ...(below[1] ?? NO_FILTERS),
    ...sets.map((s) => ({ ...s.right, keys: s.keys })),
  ]);
  const both = { fields: [...left.schema.fields, ...right.schema.fields] };
  const rest = conjoin([...residual]);
  const spec = {
    anti: p.joinType === 'anti',
    leftKeys: pairs.map(([l]) => compileExpr(l, left.schema)),
    rightKeys: pairs.map(([, r]) => compileExpr(r, right.schema)),
    residual: rest ? compileExpr(rest, both) : null,
  };
  return new BuildLeftSemiExec(left, right, spec, p.schema);
}

/** `[leftSide, rightSide]` when each operand reads columns of one side only (and not both from the same). */
function eq(left: Expr, right: Expr): Expr {
  return { kind: 'binary', op: '=', left, right, type: { id: 'bool' } };
}

/**
 * Whether no two rows of `p` hold the same non-NULL value in `col`: a table column its statistics call unique,
 * through filters, sorts, limits, projections that pass it on, semi and anti joins, and inner joins whose other
 * side matches each row at most once (an equality with a column unique on that side).
 */
function uniqueColumn(p: LogicalPlan, col: ColumnExpr, catalog: Catalog): boolean {
  const at = fieldAt(p.schema, col);
  if (at < 0) return false;
  switch (p.kind) {
    case 'scan':
      return catalog.table(p.table)?.statistics().unique?.(p.schema.fields[at]!.name) === true;
    case 'filter':
    case 'sort':
    case 'limit':
      return uniqueColumn(p.input, col, catalog);
    case 'project': {
      const e = p.exprs[at];
      return e?.kind === 'column' && uniqueColumn(p.input, e, catalog);
    }
    case 'join': {
      if (p.joinType === 'semi' || p.joinType === 'anti') return uniqueColumn(p.left, col, catalog);
      if (p.joinType !== 'inner' || p.on === null) return false;
      const inLeft = fieldAt(p.left.schema, col) >= 0;
      const [mine, other] = inLeft ? [p.left, p.right] : [p.right, p.left];
      if (!uniqueColumn(mine, col, catalog)) return false;
      // Each row of `mine` meets at most one row of `other` when some equality compares it with a unique column.
      return splitConjuncts(p.on).some((c) => {
        if (c.kind !== 'binary' || c.op !== '=') return false;
        const [a, b] = [c.left, c.right];
        const otherSide = (x: Expr) => x.kind === 'column' && fieldAt(other.schema, x) >= 0;
        const mySide = (x: Expr) => x.kind === 'column' && fieldAt(mine.schema, x) >= 0;
        const key = otherSide(a) && mySide(b) ? a : otherSide(b) && mySide(a) ? b : null;
        return key?.kind === 'column' && uniqueColumn(other, key, catalog);
      });
    }
    default:
      return false;
  }
}

/**
 * The equality's (probe, build) sides as hash keys, or null. `constantProbe`: an expression of no column may be
 * the probe key (a null-aware join's `5 NOT IN (SELECT b …)` has its IN equality as its only key).
 */
function keyPair(a: Expr, b: Expr, left: Schema, right: Schema, constantProbe: boolean): [Expr, Expr] | null {
  // Keys hash their stored values: both sides must have one type (decimals of one scale).
  if (!sameType(a.type, b.type)) return null;
  const sa = sideOfExpr(a, left.fields, right.fields);
  const sb = sideOfExpr(b, left.fields, right.fields);
  const probe = (s: string) => s === 'left' || (constantProbe && s === 'none');
  if (probe(sa) && sb === 'right') return [a, b];
  if (sa === 'right' && probe(sb)) return [b, a];
  return null;
}
