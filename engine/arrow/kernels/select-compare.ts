// `selectCompare`: narrows a selection vector to the rows where `column op constant` holds, for numeric columns
// held as Float64Array or Int32Array (read through their narrow copy when they have one: `narrow-values.ts`). A
// filter's conjuncts run one after another over the rows still selected, so later conjuncts look at fewer rows and
// no boolean column is built. One generated loop per array kind, operator and pass (first pass over every row, or
// over a selection): each loop stays monomorphic. A range (`lo < x < hi`, either end inclusive) runs as one test
// per row: `selectBetween`.
import type { Column } from '../column.js';
import { narrowOf } from '../narrow-values.js';
import type { CmpOp } from './numeric.js';
import { selectRangeAt, selectRangeWhole } from './wasm-select.js';

type Values = Float64Array | Int32Array | Int16Array | Int8Array;
/** Writes the selected row indexes to `out`, returns how many. `sel` null = every row of 0..n. */
type Loop = (
  x: Values,
  c: number,
  d: number,
  valid: Uint8Array | null,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
) => number;

const OPS: Record<CmpOp, string> = { '=': '===', '<>': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/**
 * The loop body keeping the rows where `test` holds, over every row of 0..n or the rows of `sel`, with or without
 * `valid`. NULL rows never pass: their values are garbage, so validity is checked with the comparison. The
 * branchless form writes every index and advances by the comparison's 0/1: no misprediction when about half the
 * rows pass (3.5x faster there), a little slower when almost none do.
 */
function loopBody(test: string, branchless: boolean): string {
  const keep = (t: string) => (branchless ? `{ out[k] = i; k += (${t}) | 0; }` : `if (${t}) out[k++] = i;`);
  return `
    let k = 0;
    if (sel === null) {
      if (valid === null) { for (let i = 0; i < n; i++) ${keep(test)} }
      else { for (let i = 0; i < n; i++) ${keep(`(${test}) & valid[i]`)} }
    } else {
      if (valid === null) { for (let j = 0; j < n; j++) { const i = sel[j]; ${keep(test)} } }
      else { for (let j = 0; j < n; j++) { const i = sel[j]; ${keep(`(${test}) & valid[i]`)} } }
    }
    return k;`;
}

/** A loop keeping the rows where `x[i] op c` (and `x[i] op2 d` when `op2` is given). */
function generate(op: CmpOp, op2: CmpOp | null, branchless: boolean): Loop {
  // Both comparisons of a range are evaluated and joined with `&`: one branch per row, not two.
  const test = op2 === null ? `x[i] ${OPS[op]} c` : `(x[i] ${OPS[op]} c) & (x[i] ${OPS[op2]} d)`;
  return new Function('x', 'c', 'd', 'valid', 'sel', 'n', 'out', loopBody(test, branchless)) as Loop;
}

export type LowerOp = '>' | '>=';
export type UpperOp = '<' | '<=';
const RANGES = ['>,<', '>,<=', '>=,<', '>=,<='] as const;

interface Loops {
  readonly single: Record<CmpOp, Loop>;
  readonly range: Record<string, Loop>;
}

function loops(branchless: boolean): Loops {
  const single = Object.fromEntries(Object.keys(OPS).map((op) => [op, generate(op as CmpOp, null, branchless)]));
  const range = Object.fromEntries(
    RANGES.map((r) => {
      const [lo, hi] = r.split(',') as [CmpOp, CmpOp];
      return [r, generate(lo, hi, branchless)];
    }),
  );
  return { single: single as Record<CmpOp, Loop>, range };
}

/**
 * Loops for float8 columns: PostgreSQL orders NaN above every number, so `x > c` and `x >= c` keep NaN rows (the
 * other tests already answer as PostgreSQL does for a NaN row and a constant that is not NaN).
 */
function floatLoops(branchless: boolean): Loops {
  const l = loops(branchless);
  const withNaN = (op: CmpOp) =>
    new Function(
      'x',
      'c',
      'd',
      'valid',
      'sel',
      'n',
      'out',
      loopBody(`(x[i] ${OPS[op]} c) | (x[i] !== x[i])`, branchless),
    );
  return { single: { ...l.single, '>': withNaN('>') as Loop, '>=': withNaN('>=') as Loop }, range: l.range };
}

// Separate copies per array kind (Float64Array, Int32Array, and the Int16Array / Int8Array of narrow copies), so
// none sees another's element kind.
const LOOPS = { f64: loops(false), float8: floatLoops(false), i32: loops(false), i16: loops(false), i8: loops(false) };
const BRANCHLESS = { f64: loops(true), float8: floatLoops(true), i32: loops(true), i16: loops(true), i8: loops(true) };

/** The array a comparison reads: the column's narrow copy when it has one (same integers, fewer bytes). */
function comparedValues(col: Column): Column['values'] | Int16Array | Int8Array {
  return narrowOf(col.values) ?? col.values;
}

/**
 * The rows of `sel` (or of the whole column when null; `n` = its length or the selection's) where `col op value`
 * holds, written into `out` (which may be `sel` itself); returns the count, or -1 when the column is not held as
 * Float64Array / Int32Array (the caller evaluates the comparison another way). `branchless` picks the loop for
 * comparisons that keep between a few and most rows (the caller knows from earlier batches).
 */
export function selectCompare(
  op: CmpOp,
  col: Column,
  value: number,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
  branchless = false,
): number {
  const k = selectInt32Range(col, op, value, null, 0, sel, n, out);
  return k >= 0 ? k : run(col, branchless, (l) => l.single[op], value, 0, sel, n, out);
}

/**
 * `selectCompare` for `col lowOp low AND col highOp high` in one pass (a date or price range, BETWEEN): each row
 * is tested once, so a range that keeps few rows costs one predictable branch per row instead of a first pass
 * that keeps every row above `low` and a second over those.
 */
export function selectBetween(
  lowOp: LowerOp,
  low: number,
  highOp: UpperOp,
  high: number,
  col: Column,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
  branchless = false,
): number {
  const k = selectInt32Range(col, lowOp, low, highOp, high, sel, n, out);
  return k >= 0 ? k : run(col, branchless, (l) => l.range[`${lowOp},${highOp}`]!, low, high, sel, n, out);
}

/**
 * `op c` (and `op2 d`) as one integer range [lo, hi) tested in WebAssembly: over every row of an int32 column (no
 * selection) four rows at a time or of an Int16 narrow copy eight at a time (`selectRangeWhole`), or over the
 * selected rows of an int32 column or of a narrow copy (`selectRangeAt`); NULL rows are dropped after. -1 when the
 * test is not one range (`<>`, NaN, a range covering every int32), the values are neither, or the WebAssembly loop
 * does not run (few rows, a sparse selection, no WebAssembly SIMD).
 */
function selectInt32Range(
  col: Column,
  op: CmpOp,
  c: number,
  op2: UpperOp | null,
  d: number,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
): number {
  const narrow = comparedValues(col);
  // Every row: int32 values, or an Int16 narrow copy (of int32 or Float64 values); a selection's rows: any.
  const x = sel === null && !(narrow instanceof Int16Array) ? col.values : narrow;
  const ints = x instanceof Int32Array || x instanceof Int16Array || (sel !== null && x instanceof Int8Array);
  if (!ints || op === '<>' || Number.isNaN(c) || Number.isNaN(d)) return -1;
  // [lo, hi) over integers: `> 2.5` starts at 3, `<= 7` ends before 8, `= 2.5` is empty.
  let lo = -(2 ** 31);
  let hi = 2 ** 31;
  if (op === '>') lo = Math.floor(c) + 1;
  else if (op === '>=') lo = Math.ceil(c);
  else if (op === '=') [lo, hi] = [Math.ceil(c), Math.floor(c) + 1];
  else hi = op === '<' ? Math.ceil(c) : Math.floor(c) + 1;
  if (op2 !== null) hi = Math.min(hi, op2 === '<' ? Math.ceil(d) : Math.floor(d) + 1);
  lo = Math.max(lo, -(2 ** 31));
  hi = Math.min(hi, 2 ** 31);
  if (hi <= lo) return 0;
  if (hi - lo >= 2 ** 32) return -1;
  if (sel !== null) return selectRangeAt(x, col.length, lo, hi - lo, sel, n, out, col.valid);
  if (x instanceof Int32Array) return selectRangeWhole(x, lo, hi - lo, n, out, col.valid);
  // Int16 values: the range clipped to theirs (none of them outside: no row passes; all of them: the wide loop).
  const lo16 = Math.max(lo, -32768);
  const hi16 = Math.min(hi, 32768);
  if (hi16 <= lo16) return 0;
  if (hi16 - lo16 === 65536) return -1;
  return selectRangeWhole(x as Int16Array, lo16, hi16 - lo16, n, out, col.valid);
}

/** The loop `pick` chooses for the column's array kind, run with constants `c` and `d`; -1 when not numbers. */
function run(
  col: Column,
  branchless: boolean,
  pick: (loops: Loops) => Loop,
  c: number,
  d: number,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
): number {
  // A float8 column against NaN: the caller's comparison kernel orders NaN as PostgreSQL does (`nan-order.ts`).
  if (col.type.id === 'float64' && (Number.isNaN(c) || Number.isNaN(d))) return -1;
  const v = comparedValues(col);
  const loops = branchless ? BRANCHLESS : LOOPS;
  if (v instanceof Float64Array && col.type.id === 'float64')
    return pick(loops.float8)(v, c, d, col.valid, sel, n, out);
  if (v instanceof Float64Array) return pick(loops.f64)(v, c, d, col.valid, sel, n, out);
  if (v instanceof Int32Array) return pick(loops.i32)(v, c, d, col.valid, sel, n, out);
  if (v instanceof Int16Array) return pick(loops.i16)(v, c, d, col.valid, sel, n, out);
  if (v instanceof Int8Array) return pick(loops.i8)(v, c, d, col.valid, sel, n, out);
  return -1;
}

/** A loop keeping the rows where `x[i] op y[i]` and `valid[i]` (when given). */
type PairLoop = (
  x: Values,
  y: Values,
  valid: Uint8Array | null,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
) => number;

function generatePair(op: CmpOp, branchless: boolean): PairLoop {
  return new Function('x', 'y', 'valid', 'sel', 'n', 'out', loopBody(`x[i] ${OPS[op]} y[i]`, branchless)) as PairLoop;
}

const pairLoops = (branchless: boolean) =>
  Object.fromEntries(Object.keys(OPS).map((op) => [op, generatePair(op as CmpOp, branchless)])) as Record<
    CmpOp,
    PairLoop
  >;
const PAIRS = { f64: pairLoops(false), i32: pairLoops(false) };
const PAIRS_BRANCHLESS = { f64: pairLoops(true), i32: pairLoops(true) };

/**
 * `selectCompare` for `a op b`, two columns whose stored values compare as they are (one type: dates, integers,
 * decimals of one scale): `l_shipdate < l_commitdate` narrows the selection without building a boolean column.
 * -1 when the columns are not both Float64Array or both Int32Array.
 */
export function selectCompareColumns(
  op: CmpOp,
  a: Column,
  b: Column,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
  branchless = false,
): number {
  const x = a.values;
  const y = b.values;
  const loops = branchless ? PAIRS_BRANCHLESS : PAIRS;
  let valid = a.valid ?? b.valid;
  if (a.valid !== null && b.valid !== null) {
    valid = new Uint8Array(a.length);
    for (let i = 0; i < valid.length; i++) valid[i] = a.valid[i]! & b.valid[i]!;
  }
  if (x instanceof Float64Array && y instanceof Float64Array) return loops.f64[op](x, y, valid, sel, n, out);
  if (x instanceof Int32Array && y instanceof Int32Array) return loops.i32[op](x, y, valid, sel, n, out);
  return -1;
}

/** A loop keeping the rows whose value `v` has `table[v - lo] === 1` (not, when `neg` is 1). */
type TableLoop = (
  x: Values,
  c: number,
  table: Uint8Array,
  neg: number,
  valid: Uint8Array | null,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
) => number;

// `d >>> 0 === d` admits whole offsets ≥ 0 only (no fraction, NaN or negative), so `table[d]` is a plain index.
const IN_TABLE = '((((x[i] - c) >>> 0) === x[i] - c && x[i] - c < table.length ? table[x[i] - c] : 0) ^ neg)';
const tableLoop = (branchless: boolean) =>
  new Function('x', 'c', 'table', 'neg', 'valid', 'sel', 'n', 'out', loopBody(IN_TABLE, branchless)) as TableLoop;
const TABLES = {
  f64: { branchy: tableLoop(false), branchless: tableLoop(true) },
  i32: { branchy: tableLoop(false), branchless: tableLoop(true) },
  i16: { branchy: tableLoop(false), branchless: tableLoop(true) },
  i8: { branchy: tableLoop(false), branchless: tableLoop(true) },
};

/**
 * `selectCompare` for `col [NOT] IN (integers)`: `table[v - lo]` is 1 for each listed value, so a row costs one
 * lookup instead of a comparison per list value (Q16's `p_size IN (49, 14, 23, 45, 19, 3, 36, 9)`). NULL rows never
 * pass, IN or NOT IN. -1 when the column is not held as Float64Array / Int32Array.
 */
export function selectInTable(
  col: Column,
  lo: number,
  table: Uint8Array,
  negated: boolean,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
  branchless = false,
): number {
  const v = comparedValues(col);
  const neg = negated ? 1 : 0;
  const form = branchless ? 'branchless' : 'branchy';
  if (v instanceof Float64Array) return TABLES.f64[form](v, lo, table, neg, col.valid, sel, n, out);
  if (v instanceof Int32Array) return TABLES.i32[form](v, lo, table, neg, col.valid, sel, n, out);
  if (v instanceof Int16Array) return TABLES.i16[form](v, lo, table, neg, col.valid, sel, n, out);
  if (v instanceof Int8Array) return TABLES.i8[form](v, lo, table, neg, col.valid, sel, n, out);
  return -1;
}
