// `planLateColumns`: a TopK over a scan that reads the columns its filters and keys use, then the others for its
// last K rows only (late materialisation, as DuckDB and DataFusion do for Parquet): `SELECT * … ORDER BY t LIMIT 10`.
import { InternalError } from '../errors.js';
import { columnsOf, type Expr } from '../plan/expr/index.js';
import type { Filter, LogicalPlan, Project, Scan, Sort } from '../plan/logical/index.js';
import { type Field, FLOAT64, type Schema } from '../plan/types.js';
import { fieldAt } from './dynamic-filters.js';
import { compileExpr } from './expr/physical-expr.js';
import type { PhysicalOperator } from './operator.js';
import { type ColumnSource, FetchRowsExec } from './operators/fetch-rows-exec.js';
import { FilterExec } from './operators/filter-exec.js';
import { ProjectExec } from './operators/project-exec.js';
import { ScanExec } from './operators/scan-exec.js';
import { SortExec } from './operators/sort-exec.js';
import { filterSpec } from './plan-filter.js';
import type { PhysicalPlanContext } from './plan-physical.js';
import { topKScanBound } from './plan-top-k.js';

/**
 * K past which a TopK keeps its columns: fetching rows by number decodes, per row group, the span between the
 * first and last row wanted, which for many rows spread over the table costs as much as reading it.
 */
const LATE_MAX_ROWS = 10_000;
const ROW_NUMBER: Field = { name: '__floe_row_number', qualifier: null, type: FLOAT64, nullable: false };

/**
 * The TopK `sort` planned with late columns, when it reads filters and plain-column projections over a scan whose
 * provider fetches rows by number, and some scanned column is used by neither a filter nor a key; else null.
 * `scanFilters`: the scan's pushed filters as the provider takes them.
 */
export function planLateColumns(
  sort: Sort,
  ctx: PhysicalPlanContext,
  scanFilters: (scan: Scan) => Expr[],
): PhysicalOperator | null {
  if (sort.fetch === null || sort.fetch === 0 || sort.fetch > LATE_MAX_ROWS) return null;
  const chain: (Filter | Project)[] = [];
  let p = sort.input;
  while (p.kind === 'filter' || (p.kind === 'project' && p.exprs.every((e) => e.kind === 'column'))) {
    chain.push(p);
    p = p.input;
  }
  if (p.kind !== 'scan' || p.limit !== null || ctx.partition !== undefined) return null;
  const scan = p;
  const provider = ctx.catalog.table(scan.table);
  if (provider?.fetchRows === undefined) return null;
  const early = new Set<string>();
  let resolved = true;
  const use = (node: LogicalPlan, e: Expr) => {
    for (const c of columnsOf(e)) {
      const i = fieldAt(node.schema, c);
      if (i < 0) resolved = false;
      else early.add(originAt(node, i));
    }
  };
  for (const k of sort.keys) use(sort.input, k.expr);
  for (const node of chain) if (node.kind === 'filter') use(node.input, node.predicate);
  if (!resolved) return null;
  const all = scan.schema.fields.map((f) => f.name);
  const late = all.filter((c) => !early.has(c));
  if (late.length === 0 || early.size === 0) return null;

  const top = topKScanBound(sort);
  const bound = top?.scan === scan ? top.bound : null;
  const kept = all.flatMap((c, i) => (early.has(c) ? [i] : []));
  const scanSchema: Schema = { fields: [...kept.map((i) => scan.schema.fields[i]!), ROW_NUMBER] };
  const request = {
    columns: kept.map((i) => all[i]!),
    filters: scanFilters(scan),
    limit: null,
    rowIds: true,
    dynamicFilters: bound?.filters,
  };
  let op: PhysicalOperator = new ScanExec(provider, request, scanSchema);
  // Original field index -> index in the narrowed schema, level by level up the chain.
  let at = new Map(kept.map((i, k) => [i, k]));
  for (const node of chain.reverse()) {
    if (node.kind === 'filter') {
      op = new FilterExec(op, filterSpec(node.predicate, op.schema));
      continue;
    }
    const keep = node.exprs.flatMap((_, i) => (early.has(originAt(node, i)) ? [i] : []));
    const exprs = [
      ...keep.map((i) => node.exprs[i]!),
      { kind: 'column', qualifier: null, name: ROW_NUMBER.name, type: FLOAT64 } as Expr,
    ];
    const schema = { fields: [...keep.map((i) => node.schema.fields[i]!), ROW_NUMBER] };
    op = new ProjectExec(
      op,
      exprs.map((e) => compileExpr(e, op.schema)),
      schema,
    );
    at = new Map(keep.map((i, k) => [i, k]));
  }
  const keys = sort.keys.map((k) => ({ ...k, expr: compileExpr(k.expr, op.schema) }));
  const sorted = new SortExec(op, keys, sort.fetch, bound);
  const sources = sort.schema.fields.map((_, j): ColumnSource => {
    const k = at.get(j);
    return k === undefined ? { late: late.indexOf(originAt(sort.input, j)) } : { early: k };
  });
  return new FetchRowsExec(sorted, provider, late, sources, sort.schema);
}

/** The scan column that field `i` of `node` reads unchanged (`node` is the scan or above it through the chain). */
function originAt(node: LogicalPlan, i: number): string {
  switch (node.kind) {
    case 'scan':
      return node.schema.fields[i]!.name;
    case 'filter':
      return originAt(node.input, i);
    case 'project': {
      const e = node.exprs[i]!;
      if (e.kind !== 'column') throw new InternalError('a late-column TopK reads a computed column');
      return originAt(node.input, fieldAt(node.input.schema, e));
    }
    default:
      throw new InternalError(`a late-column TopK reads through ${node.kind}`);
  }
}
