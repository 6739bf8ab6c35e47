// Where a hash join's dynamic filter goes: from the join's probe (left) input down through the nodes that keep
// its key column as it is, to just above the scan that reads it, or to the first node it cannot pass.
import type { ColumnExpr, Expr } from '../plan/expr/index.js';
import type { Join, LogicalPlan, Scan } from '../plan/logical/index.js';
import type { Schema } from '../plan/types.js';
import { literalComparison } from './expr/physical-expr.js';
import type { PhysicalOperator } from './operator.js';
import { DynamicFilterExec, type ScanRange } from './operators/dynamic-filter.js';
import { KeySet } from './operators/key-set.js';

/** A filter on its way down the probe side: the column it tests (as named at the current node) and its keys. */
export interface PendingFilter {
  readonly qualifier: string | null;
  readonly name: string;
  readonly keys: KeySet;
}

export const NO_FILTERS: readonly PendingFilter[] = [];

/** Join types whose unmatched probe rows are dropped (so probe rows without a build key may go early). */
const FILTERABLE = new Set(['inner', 'semi', 'right']);
/** Key types a `KeySet` holds (as numbers). */
const KEY_FILTER_TYPES = new Set(['int32', 'int64', 'date', 'decimal']);

/** Whether the join drops probe (left) rows that match no build row, so build keys may filter them early. */
export function probeFilterable(p: Join): boolean {
  return FILTERABLE.has(p.joinType) && !p.nullAware;
}

/**
 * Whether a build side reads every row of a table: a scan without filters or limit (under projections) and no
 * dynamic filter of its own. Its keys are all of the table's, so a filter from them drops only probe rows whose key
 * dangles, which the join drops anyway: collecting part's 200k keys cost TPC-H q14 ~5 ms a thread for no row.
 */
export function readsWholeTable(build: LogicalPlan, filters: readonly PendingFilter[]): boolean {
  return filters.length === 0 && wholeTableScan(build, true) !== null;
}

/**
 * The scan whose every row `p` reads (a scan without filters or limit, through projections: only ones of plain
 * columns when `plainColumns`), or null.
 */
export function wholeTableScan(p: LogicalPlan, plainColumns = false): Scan | null {
  if (p.kind === 'project')
    return plainColumns && !p.exprs.every((e) => e.kind === 'column') ? null : wholeTableScan(p.input, plainColumns);
  return p.kind === 'scan' && p.filters.length === 0 && p.limit === null ? p : null;
}

/** A key set for each equality key that compares two plain integer-like columns. */
export function keySets(
  keys: readonly (readonly [Expr, Expr])[],
): { left: ColumnExpr; right: ColumnExpr; keys: KeySet }[] {
  return keys
    .filter(([l, r]) => l.kind === 'column' && r.kind === 'column' && KEY_FILTER_TYPES.has(l.type.id))
    .map(([left, right]) => ({ left: left as ColumnExpr, right: right as ColumnExpr, keys: new KeySet() }));
}

/** Splits `filters` at node `p` into those applied on its output and those passed to each of its inputs. */
export function routeFilters(
  p: LogicalPlan,
  filters: readonly PendingFilter[],
): { here: PendingFilter[]; below: PendingFilter[][] } {
  const here: PendingFilter[] = [];
  const below: PendingFilter[][] = [[], []];
  for (const f of filters) {
    const to = route(p, f);
    if (to === null) here.push(f);
    else below[to.input]!.push(to.filter);
  }
  return { here, below };
}

function route(p: LogicalPlan, f: PendingFilter): { input: number; filter: PendingFilter } | null {
  switch (p.kind) {
    case 'filter':
      return { input: 0, filter: f };
    case 'sort':
      // A TopK (sort with a fetch) picks its rows before the join: filtering below it would change which.
      return p.fetch === null ? { input: 0, filter: f } : null;
    case 'project': {
      const e = p.exprs[fieldAt(p.schema, f)];
      return e?.kind === 'column' ? { input: 0, filter: { ...f, qualifier: e.qualifier, name: e.name } } : null;
    }
    case 'aggregate': {
      const at = fieldAt(p.schema, f);
      const e = p.groupingSets || at < 0 || at >= p.groupBy.length ? undefined : p.groupBy[at];
      return e?.kind === 'column' ? { input: 0, filter: { ...f, qualifier: e.qualifier, name: e.name } } : null;
    }
    case 'join': {
      const inLeft = fieldAt(p.left.schema, f) >= 0;
      const inRight = fieldAt(p.right.schema, f) >= 0;
      if (inLeft === inRight) return null;
      const t = p.joinType;
      if (inLeft && t !== 'right' && t !== 'full') return { input: 0, filter: f };
      if (inRight && (t === 'inner' || t === 'right')) return { input: 1, filter: f };
      return null;
    }
    default:
      return null;
  }
}

/**
 * `op` under the filters that stop at its node. `scanFilters`: when `op` is a scan, its own filters (the
 * conjuncts a Filter above it tests), whose bounds on one integer column, or one text equality (`scanRange`), the
 * filters' sorted path tests early.
 */
export function applyFilters(
  op: PhysicalOperator,
  here: readonly PendingFilter[],
  scanFilters: readonly Expr[] = [],
): PhysicalOperator {
  let out = op;
  const range = here.length > 0 ? scanRange(scanFilters, op.schema) : null;
  for (const f of here) {
    const at = fieldAt(out.schema, f);
    if (at >= 0) out = new DynamicFilterExec(out, at, f.keys, range);
  }
  return out;
}

/** Types whose stored values are integers compared as numbers (decimals scaled, dates in days). */
const RANGE_TYPES = new Set(['int32', 'int64', 'date', 'decimal']);

/**
 * The bounds `filters` put on the first integer column they compare with a number (`x > 5` as lo = 6, `x <= 9` as
 * hi = 9, `=` as both), or the text the first of them that is `text column = 'literal'` asks for (tested by its
 * code where the column is coded: `DynamicFilterExec`), or null when none does.
 */
export function scanRange(filters: readonly Expr[], schema: Schema): ScanRange | null {
  let column = -1;
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  for (const f of filters) {
    const text = column < 0 ? textEquality(f) : null;
    const textAt = text === null ? -1 : fieldAt(schema, text.column);
    if (textAt >= 0) return { column: textAt, lo: 0, hi: 0, text: text!.literal };
    const cmp = literalComparison(f);
    if (cmp === null || cmp.operand.kind !== 'column' || !RANGE_TYPES.has(cmp.operand.type.id)) continue;
    if (!Number.isSafeInteger(cmp.value)) continue;
    const at = fieldAt(schema, cmp.operand);
    if (at < 0 || (column >= 0 && at !== column)) continue;
    const v = cmp.value;
    if (cmp.op === '>' || cmp.op === '>=' || cmp.op === '=') lo = Math.max(lo, cmp.op === '>' ? v + 1 : v);
    if (cmp.op === '<' || cmp.op === '<=' || cmp.op === '=') hi = Math.min(hi, cmp.op === '<' ? v - 1 : v);
    if (cmp.op !== '<>') column = at;
  }
  return column < 0 ? null : { column, lo, hi };
}

/** `text column = 'literal'` (either order), or null. */
function textEquality(e: Expr): { column: ColumnExpr; literal: string } | null {
  if (e.kind !== 'binary' || e.op !== '=') return null;
  const [c, l] = e.left.kind === 'column' ? [e.left, e.right] : [e.right, e.left];
  if (c.kind !== 'column' || c.type.id !== 'utf8' || l.kind !== 'literal' || typeof l.value !== 'string') return null;
  return { column: c, literal: l.value };
}

export function fieldAt(schema: Schema, c: { readonly qualifier: string | null; readonly name: string }): number {
  return schema.fields.findIndex((x) => x.name === c.name && (c.qualifier === null || x.qualifier === c.qualifier));
}
