// `zoneBounds`: the pushed comparisons a sorted zone of an accelerated table can answer by binary search.
import type { Expr } from '../../plan/expr/index.js';
import type { DataType } from '../../plan/types.js';

/** `column op value`, with the column on the left. */
export interface ZoneBound {
  readonly name: string;
  readonly op: '=' | '<' | '<=' | '>' | '>=';
  /** In the column's stored domain: the number itself, or days for a date. */
  readonly value: number | bigint;
}

const FLIP = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;
const NUMBERS = new Set(['int32', 'int64', 'float64']);

/**
 * The comparisons of `filters` (conjuncts, `and` included) between a numeric or date column and a literal of the
 * same domain. A zone whose values are sorted keeps only the rows between the bounds they give (`narrowToBounds`);
 * the filter itself still runs on those rows, so a bound only ever drops rows that cannot match. `complete`: every
 * conjunct is a bound, so testing a zone's min and max against the bounds (`boundMayMatch`) is the whole test.
 */
export function zoneBounds(
  filters: readonly Expr[],
  typeOf: (name: string) => DataType | undefined,
): { bounds: ZoneBound[]; complete: boolean } {
  const bounds: ZoneBound[] = [];
  let complete = true;
  const add = (name: string, op: ZoneBound['op'], value: unknown, type: DataType): boolean => {
    const column = typeOf(name)?.id;
    if (column === undefined || (typeof value !== 'number' && typeof value !== 'bigint') || Number.isNaN(value))
      return false;
    const sameDomain = NUMBERS.has(column) ? NUMBERS.has(type.id) : column === 'date' && type.id === 'date';
    if (sameDomain) bounds.push({ name, op, value });
    return sameDomain;
  };
  const visit = (f: Expr) => {
    if (f.kind === 'binary' && f.op === 'and') {
      visit(f.left);
      visit(f.right);
      return;
    }
    if (f.kind === 'binary' && f.op in FLIP) {
      const op = f.op as keyof typeof FLIP;
      const { left, right } = f;
      if (left.kind === 'column' && right.kind === 'literal' && add(left.name, op, right.value, right.type)) return;
      if (right.kind === 'column' && left.kind === 'literal' && add(right.name, FLIP[op], left.value, left.type))
        return;
    }
    complete = false;
  };
  for (const f of filters) visit(f);
  return { bounds, complete };
}

/** Whether some value in [lo, hi] (a zone's min and max; lo > hi: no value) satisfies `bound`. */
export function boundMayMatch(bound: ZoneBound, lo: number, hi: number): boolean {
  const v = bound.value;
  switch (bound.op) {
    case '=':
      return lo <= v && v <= hi;
    case '<':
      return lo < v;
    case '<=':
      return lo <= v;
    case '>':
      return hi > v;
    default:
      return hi >= v;
  }
}

/**
 * Rows [start, end) of sorted `values` (non-decreasing, no NULL or NaN) that satisfy every bound, as [from, to)
 * (from >= to: none). Comparisons of a number with a bigint are exact in JavaScript.
 */
export function narrowToBounds(
  bounds: readonly ZoneBound[],
  valuesOf: (name: string) => Float64Array | Int32Array,
  start: number,
  end: number,
): [number, number] {
  let from = start;
  let to = end;
  for (const b of bounds) {
    const v = valuesOf(b.name);
    if (b.op === '=' || b.op === '>=') from = Math.max(from, firstNotBelow(v, start, end, b.value));
    if (b.op === '>') from = Math.max(from, firstAbove(v, start, end, b.value));
    if (b.op === '=' || b.op === '<=') to = Math.min(to, firstAbove(v, start, end, b.value));
    if (b.op === '<') to = Math.min(to, firstNotBelow(v, start, end, b.value));
    if (from >= to) break;
  }
  return [from, to];
}

/** The first i in [lo, hi) with v[i] >= x (hi if none). */
function firstNotBelow(v: Float64Array | Int32Array, lo: number, hi: number, x: number | bigint): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first i in [lo, hi) with v[i] > x (hi if none). */
function firstAbove(v: Float64Array | Int32Array, lo: number, hi: number, x: number | bigint): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
