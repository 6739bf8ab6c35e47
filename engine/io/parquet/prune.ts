// Row-group pruning: a row group is skipped when its min/max statistics prove a pushed filter false for every row.
import type { Expr, LiteralExpr } from '../../plan/expr/index.js';
import type { ColumnStats, RowGroupInfo } from './footer.js';

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };
const MICROS_PER_DAY = 86_400_000_000;
type Comparable = number | bigint | string;
const NUMERIC = new Set(['int32', 'int64', 'float64', 'decimal']);

/** False when some filter cannot hold for any row of the group; true when it may. */
export function mayMatch(filters: readonly Expr[], rg: RowGroupInfo): boolean {
  return filters.every((f) => !refutes(f, rg));
}

function refutes(f: Expr, rg: RowGroupInfo): boolean {
  if (f.kind === 'binary' && f.op in FLIP) {
    if (f.left.kind === 'column' && f.right.kind === 'literal')
      return refutesCmp(f.op, rg.stats.get(f.left.name), f.right);
    if (f.right.kind === 'column' && f.left.kind === 'literal')
      return refutesCmp(FLIP[f.op]!, rg.stats.get(f.right.name), f.left);
  }
  if (f.kind === 'in_list' && !f.negated && f.expr.kind === 'column' && f.list.every((x) => x.kind === 'literal')) {
    const stats = rg.stats.get(f.expr.name);
    return f.list.every((x) => refutesCmp('=', stats, x as LiteralExpr));
  }
  if (f.kind === 'unary' && f.op === 'is_null' && f.expr.kind === 'column')
    return rg.stats.get(f.expr.name)?.nullCount === 0;
  if (f.kind === 'binary' && f.op === 'and') return refutes(f.left, rg) || refutes(f.right, rg);
  if (f.kind === 'binary' && f.op === 'or') return refutes(f.left, rg) && refutes(f.right, rg);
  if (f.kind === 'literal') return f.value === false || f.value === null;
  return false;
}

/** Whether `col op lit` is false for every value in [min, max]. Unknown stats never refute. */
function refutesCmp(op: string, stats: ColumnStats | undefined, lit: LiteralExpr): boolean {
  if (!stats || lit.value === null) return false;
  const v = comparable(lit);
  const min = statValue(stats.min, lit, false);
  const max = statValue(stats.max, lit, true);
  if (v === undefined || min === undefined || max === undefined) return false;
  // A float's statistics leave NaN out, and NaN is above every number (PostgreSQL): its max bounds nothing.
  if ((op === '>' || op === '>=') && lit.type.id === 'float64') return false;
  switch (op) {
    case '=':
      return v < min || v > max;
    case '<':
      return min >= v;
    case '<=':
      return min > v;
    case '>':
      return max <= v;
    case '>=':
      return max < v;
    default:
      return false;
  }
}

/** The literal in the statistics' domain: doubles for numbers, microseconds for dates and times. */
function comparable(lit: LiteralExpr): Comparable | undefined {
  const v = lit.value;
  switch (lit.type.id) {
    // Integers compare exactly, bigint against number included (JavaScript's mixed comparison is exact).
    case 'int32':
    case 'int64':
      return typeof v === 'bigint' ? v : Number(v);
    case 'float64':
      return Number(v);
    // Statistics of decimals arrive as doubles; past 2^53 scaled units both sides may round: do not prune.
    case 'decimal':
      return typeof v === 'number' ? v / 10 ** lit.type.scale : undefined;
    case 'date':
      return (v as number) * MICROS_PER_DAY;
    case 'timestamp':
      return v as number;
    // Only ASCII literals: UTF-16 and UTF-8 (Parquet's) orders agree on them against any string.
    case 'utf8':
      return typeof v === 'string' && [...v].every((c) => c.charCodeAt(0) < 128) ? v : undefined;
    default:
      return undefined;
  }
}

function statValue(s: unknown, lit: LiteralExpr, isMax: boolean): Comparable | undefined {
  if (s === undefined || s === null) return undefined;
  if (s instanceof Date) return s.getTime() * 1000 + (isMax && lit.type.id === 'timestamp' ? 999 : 0);
  if (typeof s === 'bigint') return lit.type.id === 'int32' || lit.type.id === 'int64' ? s : undefined;
  if (typeof s === 'number') return NUMERIC.has(lit.type.id) ? s : undefined;
  if (typeof s === 'string') return lit.type.id === 'utf8' ? s : undefined;
  return undefined;
}
