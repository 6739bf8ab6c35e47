// SUM and AVG: exact for integers and decimals (float64 while below 2^53, BigInt past it), float64 for doubles.
import { arithmeticAtOf, sumArithmeticAt } from '../../arrow/arithmetic-at.js';
import { type Column, MAX_EXACT, makeColumn, narrowExact } from '../../arrow/column.js';
import { monomorphicCopy } from '../../arrow/kernels/monomorphic.js';
import { ExecError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import type { Accumulator } from './accumulators.js';
import type { BatchRows } from './batch-rows.js';
import { GroupNumbers } from './group-numbers.js';
import { Int64Sums } from './int64-sums.js';

/**
 * SUM / AVG. Integers and scaled decimals add in float64 while the running sum stays below 2^53
 * (exact); a group whose sum would pass it moves its total into a BigInt.
 */
export class SumAcc implements Accumulator {
  readonly #sum = new GroupNumbers();
  readonly #count = new GroupNumbers();
  /** Totals moved out of `#sum` for groups whose sum left the exact range (rare). */
  readonly #big = new Map<number, bigint>();
  /** Sums of BigInt64Array batches, as int32 halves (null until one comes). */
  #halves: Int64Sums | null = null;
  readonly #fold = (g: number, total: bigint): void => {
    this.#big.set(g, (this.#big.get(g) ?? 0n) + total);
  };
  readonly #exact: boolean;
  readonly #inScale: number;
  constructor(
    readonly avg: boolean,
    readonly type: DataType,
    argType: DataType,
  ) {
    this.#exact = argType.id !== 'float64';
    this.#inScale = argType.id === 'decimal' ? argType.scale : 0;
  }
  reserve(ngroups: number): void {
    this.#sum.reserve(ngroups);
    this.#count.reserve(ngroups);
  }
  update(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    _extra?: readonly Column[],
    rows?: BatchRows,
  ): void {
    this.#add(groups, n, arg!, ngroups, null, rows);
  }
  updateSelected(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    sel: Int32Array,
    rows?: BatchRows,
  ): void {
    this.#add(groups, n, arg!, ngroups, sel, rows);
  }
  /**
   * Adds row `sel[i]` (or i) of `col` to group `groups[i]` for i < n. Without NULLs, and with the batch's rows
   * counted per group in `rows`, only the values are added here (one group: in a register) and the counts taken
   * from `rows`.
   */
  #add(groups: Int32Array, n: number, col: Column, ngroups: number, sel: Int32Array | null, rows?: BatchRows): void {
    const sum = this.#sum.ensure(ngroups);
    const count = this.#count.ensure(ngroups);
    if (col.type.id === 'null') return;
    const limit = this.#exact ? MAX_EXACT : Number.POSITIVE_INFINITY;
    const at = arithmeticAtOf(col);
    if (at !== null && ngroups === 1 && sel === null && rows !== undefined && rows.counts() !== null) {
      // `x op y` added row by row from x and y, never stored (when a row would leave the exact range: its values).
      const stop = sumArithmeticAt(at, sum, limit);
      if (stop < 0) rows.addCountsTo(count);
      else {
        count[0]! += stop;
        this.#addExactFrom(stop, col.values as Float64Array | BigInt64Array, col, groups, n, sel);
      }
      return;
    }
    const v = col.values;
    if (v instanceof BigInt64Array && this.#exact) {
      this.#halves ??= new Int64Sums();
      this.#halves.add(v, col.valid, groups, n, sel, count, ngroups, this.#fold);
      return;
    }
    let overflow = -1;
    if (!(v instanceof Float64Array || v instanceof Int32Array)) overflow = 0;
    else if (col.valid === null && rows !== undefined && rows.counts() !== null) {
      overflow = addValues(v, groups, n, sum, limit, sel, ngroups === 1);
      if (overflow < 0) rows.addCountsTo(count);
      else for (let i = 0; i < overflow; i++) count[groups[i]!]!++;
    } else if (sel === null) {
      if (v instanceof Float64Array) overflow = addF64(v, col.valid, groups, n, sum, count, limit);
      else overflow = addI32(v, col.valid, groups, n, sum, count, limit);
    } else if (v instanceof Float64Array) overflow = addSelF64(v, col.valid, groups, n, sum, count, limit, sel);
    else overflow = addSelI32(v, col.valid, groups, n, sum, count, limit, sel);
    // From the first row whose group would leave the exact range (or a BigInt column), add row by row.
    if (overflow >= 0)
      this.#addExactFrom(overflow, v as Float64Array | Int32Array | BigInt64Array, col, groups, n, sel);
  }
  #addExactFrom(
    from: number,
    v: Float64Array | Int32Array | BigInt64Array,
    col: Column,
    groups: Int32Array,
    n: number,
    sel: Int32Array | null,
  ) {
    const sum = this.#sum.values;
    const count = this.#count.values;
    const valid = col.valid;
    for (let i = from; i < n; i++) {
      const r = sel === null ? i : sel[i]!;
      if (valid !== null && valid[r] === 0) continue;
      const g = groups[i]!;
      count[g]!++;
      const x = v[r]!;
      if (typeof x === 'bigint') {
        this.#spill(g, x);
        continue;
      }
      const s = sum[g]! + x;
      if (this.#exact && (s > MAX_EXACT || s < -MAX_EXACT)) this.#spill(g, BigInt(x));
      else sum[g] = s;
    }
  }
  #spill(g: number, x: bigint): void {
    this.#big.set(g, (this.#big.get(g) ?? 0n) + BigInt(this.#sum.values[g]!) + x);
    this.#sum.values[g] = 0;
  }
  /**
   * An accumulator that adds nothing itself and finishes from this one's sums and counts, as SUM (`avg` false) or
   * AVG of `type`: the aggregate of the same argument computed once for both (q1's sum(x) and avg(x)).
   */
  sharedAs(avg: boolean, type: DataType): Accumulator {
    return { update: () => {}, updateSelected: () => {}, finish: (ngroups) => this.#finish(ngroups, avg, type) };
  }
  finish(ngroups: number): Column {
    return this.#finish(ngroups, this.avg, this.type);
  }
  #finish(ngroups: number, avg: boolean, type: DataType): Column {
    this.#halves?.fold(this.#fold);
    const sum = this.#sum.ensure(ngroups);
    const count = this.#count.ensure(ngroups);
    const valid = new Uint8Array(ngroups);
    for (let g = 0; g < ngroups; g++) valid[g] = count[g]! > 0 ? 1 : 0;
    const total = (g: number): number | bigint => {
      const big = this.#big.get(g);
      return big === undefined ? sum[g]! : big + BigInt(sum[g]!);
    };
    if (avg) {
      const scale = 10 ** this.#inScale;
      const out = new Float64Array(ngroups);
      for (let g = 0; g < ngroups; g++) out[g] = valid[g] ? Number(total(g)) / scale / count[g]! : 0;
      return makeColumn(type, out, valid, ngroups);
    }
    if (this.#big.size === 0 || type.id === 'float64') return makeColumn(type, sum.slice(0, ngroups), valid, ngroups);
    const big = new BigInt64Array(ngroups);
    for (let g = 0; g < ngroups; g++) {
      const b = BigInt(total(g));
      if (b > 2n ** 63n - 1n || b < -(2n ** 63n)) throw new ExecError('sum out of range for a 64-bit scaled value');
      big[g] = b;
    }
    return makeColumn(type, narrowExact(big), valid, ngroups);
  }
}

/**
 * Adds rows to their groups' sums and counts; returns -1 when done, or the row at which a group's sum would leave
 * ±limit (that row is not added; the caller continues exactly from it). One compiled copy per array type keeps
 * each loop monomorphic.
 */
function addNumbers(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  sum: Float64Array,
  count: Float64Array,
  limit: number,
): number {
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const g = groups[i]!;
    const s = sum[g]! + v[i]!;
    if (s > limit || s < -limit) return i;
    sum[g] = s;
    count[g]!++;
  }
  return -1;
}

/** `addNumbers` over the rows `sel[0..n)` of `v`, group `groups[i]` for row `sel[i]`. */
function addSelected(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  sum: Float64Array,
  count: Float64Array,
  limit: number,
  sel: Int32Array,
): number {
  for (let i = 0; i < n; i++) {
    const r = sel[i]!;
    if (valid !== null && valid[r] === 0) continue;
    const g = groups[i]!;
    const s = sum[g]! + v[r]!;
    if (s > limit || s < -limit) return i;
    sum[g] = s;
    count[g]!++;
  }
  return -1;
}

/**
 * Adds values only (no NULLs; the caller counts): row `sel[i]` (or i) to `sum[groups[i]]`, or with `one` group all
 * into `sum[0]` through a register. Returns as `addNumbers`.
 */
function addValues(
  v: Float64Array | Int32Array,
  groups: Int32Array,
  n: number,
  sum: Float64Array,
  limit: number,
  sel: Int32Array | null,
  one: boolean,
): number {
  const f64 = v instanceof Float64Array;
  if (one) {
    if (sel === null) return f64 ? totalF64(v, n, sum, limit) : totalI32(v, n, sum, limit);
    return f64 ? totalSelF64(v, n, sum, limit, sel) : totalSelI32(v, n, sum, limit, sel);
  }
  if (sel === null) return f64 ? sumF64(v, groups, n, sum, limit) : sumI32(v, groups, n, sum, limit);
  return f64 ? sumSelF64(v, groups, n, sum, limit, sel) : sumSelI32(v, groups, n, sum, limit, sel);
}

function sumValues(v: Float64Array | Int32Array, groups: Int32Array, n: number, sum: Float64Array, limit: number) {
  for (let i = 0; i < n; i++) {
    const g = groups[i]!;
    const s = sum[g]! + v[i]!;
    if (s > limit || s < -limit) return i;
    sum[g] = s;
  }
  return -1;
}

function sumSelectedValues(
  v: Float64Array | Int32Array,
  groups: Int32Array,
  n: number,
  sum: Float64Array,
  limit: number,
  sel: Int32Array,
) {
  for (let i = 0; i < n; i++) {
    const g = groups[i]!;
    const s = sum[g]! + v[sel[i]!]!;
    if (s > limit || s < -limit) return i;
    sum[g] = s;
  }
  return -1;
}

function totalValues(v: Float64Array | Int32Array, n: number, sum: Float64Array, limit: number) {
  let s = sum[0]!;
  for (let i = 0; i < n; i++) {
    const t = s + v[i]!;
    if (t > limit || t < -limit) {
      sum[0] = s;
      return i;
    }
    s = t;
  }
  sum[0] = s;
  return -1;
}

function totalSelectedValues(
  v: Float64Array | Int32Array,
  n: number,
  sum: Float64Array,
  limit: number,
  sel: Int32Array,
) {
  let s = sum[0]!;
  for (let i = 0; i < n; i++) {
    const t = s + v[sel[i]!]!;
    if (t > limit || t < -limit) {
      sum[0] = s;
      return i;
    }
    s = t;
  }
  sum[0] = s;
  return -1;
}

const sumF64 = monomorphicCopy(sumValues);
const sumI32 = monomorphicCopy(sumValues);
const sumSelF64 = monomorphicCopy(sumSelectedValues);
const sumSelI32 = monomorphicCopy(sumSelectedValues);
const totalF64 = monomorphicCopy(totalValues);
const totalI32 = monomorphicCopy(totalValues);
const totalSelF64 = monomorphicCopy(totalSelectedValues);
const totalSelI32 = monomorphicCopy(totalSelectedValues);
const addF64 = monomorphicCopy(addNumbers);
const addI32 = monomorphicCopy(addNumbers);
const addSelF64 = monomorphicCopy(addSelected);
const addSelI32 = monomorphicCopy(addSelected);
