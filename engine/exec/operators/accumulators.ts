// Per-group aggregate state: COUNT, SUM (exact for integers and decimals), AVG, MIN, MAX, DISTINCT; the others
// live in variance-accumulator.ts and string-agg-accumulator.ts.
import { type Column, MAX_EXACT, makeColumn, narrowExact, strings } from '../../arrow/column.js';
import { compareText } from '../../arrow/kernels/text-order.js';
import { ExecError } from '../../errors.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import type { DataType } from '../../plan/types.js';
import { StringAggAcc } from './string-agg-accumulator.js';
import { BoolAcc, VarianceAcc } from './variance-accumulator.js';

type Key = number | bigint | string | boolean;

export interface Accumulator {
  /**
   * Adds rows of `arg` (absent for COUNT(*)) to groups `groups[i]`; `ngroups` is the current group count.
   * `extra` holds the call's further arguments (string_agg's separator and ORDER BY keys), row-aligned.
   */
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number, extra?: readonly Column[]): void;
  finish(ngroups: number): Column;
}

/** Reads row i of a column as a plain JS value (null for NULL). */
export function valueReader(c: Column): (i: number) => Key | null {
  const valid = c.type.id === 'null' ? new Uint8Array(c.length) : c.valid;
  const v = c.type.id === 'utf8' ? strings(c) : (c.values as ArrayLike<number | bigint> | null);
  if (v === null) return () => null;
  const bool = c.type.id === 'bool';
  if (valid === null) return bool ? (i) => v[i] === 1 : (i) => v[i] as Key;
  return (i) => (valid[i] === 0 ? null : bool ? v[i] === 1 : (v[i] as Key));
}

export function makeAccumulator(call: AggregateCall): Accumulator {
  // string_agg applies DISTINCT itself (it carries a separator and sort keys per row).
  if (call.fn === 'string_agg') return new StringAggAcc(call);
  const inner = makeInner(call);
  return call.distinct ? new DistinctAcc(inner, call.args[0]!.type) : inner;
}

function makeInner(call: AggregateCall): Accumulator {
  const argType = call.args[0]?.type;
  switch (call.fn) {
    case 'count':
      return new CountAcc(call.args.length === 0);
    case 'min':
    case 'max':
      return new MinMaxAcc(call.fn, call.type);
    case 'sum':
    case 'avg':
      return new SumAcc(call.fn === 'avg', call.type, argType!);
    case 'bool_and':
    case 'bool_or':
      return new BoolAcc(call.fn === 'bool_and');
    case 'var_samp':
    case 'var_pop':
    case 'stddev_samp':
    case 'stddev_pop':
      return new VarianceAcc(call.fn, argType?.id === 'decimal' ? argType.scale : 0);
    case 'string_agg':
      return new StringAggAcc(call);
  }
}

/** Per-group numbers in a Float64Array that doubles as groups appear (new slots hold `fill`). */
class GroupNumbers {
  values: Float64Array;
  constructor(readonly fill = 0) {
    this.values = new Float64Array(64).fill(fill);
  }
  ensure(ngroups: number): Float64Array {
    if (this.values.length < ngroups) {
      let size = this.values.length;
      while (size < ngroups) size *= 2;
      const next = new Float64Array(size).fill(this.fill);
      next.set(this.values);
      this.values = next;
    }
    return this.values;
  }
}

class CountAcc implements Accumulator {
  readonly #counts = new GroupNumbers();
  constructor(readonly star: boolean) {}
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    const c = this.#counts.ensure(ngroups);
    const valid = arg === null ? null : arg.type.id === 'null' ? new Uint8Array(n) : arg.valid;
    if (valid === null) for (let i = 0; i < n; i++) c[groups[i]!]!++;
    else for (let i = 0; i < n; i++) c[groups[i]!]! += valid[i]!;
  }
  finish(ngroups: number): Column {
    return makeColumn({ id: 'int64' }, this.#counts.ensure(ngroups).slice(0, ngroups), null, ngroups);
  }
}

/**
 * SUM / AVG. Integers and scaled decimals add in float64 while the running sum stays below 2^53
 * (exact); a group whose sum would pass it moves its total into a BigInt.
 */
class SumAcc implements Accumulator {
  readonly #sum = new GroupNumbers();
  readonly #count = new GroupNumbers();
  /** Totals moved out of `#sum` for groups whose sum left the exact range (rare). */
  readonly #big = new Map<number, bigint>();
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
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    const sum = this.#sum.ensure(ngroups);
    const count = this.#count.ensure(ngroups);
    const col = arg!;
    if (col.type.id === 'null') return;
    const v = col.values;
    const limit = this.#exact ? MAX_EXACT : Number.POSITIVE_INFINITY;
    let overflow = -1;
    if (v instanceof Float64Array) overflow = addF64(v, col.valid, groups, n, sum, count, limit);
    else if (v instanceof Int32Array) overflow = addI32(v, col.valid, groups, n, sum, count, limit);
    else overflow = 0;
    // From the first row whose group would leave the exact range (or a BigInt column), add row by row.
    if (overflow >= 0) this.#addExactFrom(overflow, v as Float64Array | Int32Array | BigInt64Array, col, groups, n);
  }
  #addExactFrom(
    from: number,
    v: Float64Array | Int32Array | BigInt64Array,
    col: Column,
    groups: Int32Array,
    n: number,
  ) {
    const sum = this.#sum.values;
    const count = this.#count.values;
    const valid = col.valid;
    for (let i = from; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const g = groups[i]!;
      count[g]!++;
      const x = v[i]!;
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
  finish(ngroups: number): Column {
    const sum = this.#sum.ensure(ngroups);
    const count = this.#count.ensure(ngroups);
    const valid = new Uint8Array(ngroups);
    for (let g = 0; g < ngroups; g++) valid[g] = count[g]! > 0 ? 1 : 0;
    const total = (g: number): number | bigint => {
      const big = this.#big.get(g);
      return big === undefined ? sum[g]! : big + BigInt(sum[g]!);
    };
    if (this.avg) {
      const scale = 10 ** this.#inScale;
      const out = new Float64Array(ngroups);
      for (let g = 0; g < ngroups; g++) out[g] = valid[g] ? Number(total(g)) / scale / count[g]! : 0;
      return makeColumn(this.type, out, valid, ngroups);
    }
    if (this.#big.size === 0 || this.type.id === 'float64')
      return makeColumn(this.type, sum.slice(0, ngroups), valid, ngroups);
    const big = new BigInt64Array(ngroups);
    for (let g = 0; g < ngroups; g++) {
      const b = BigInt(total(g));
      if (b > 2n ** 63n - 1n || b < -(2n ** 63n)) throw new ExecError('sum out of range for a 64-bit scaled value');
      big[g] = b;
    }
    return makeColumn(this.type, narrowExact(big), valid, ngroups);
  }
}

// One loop per array type keeps each monomorphic. Each returns -1 when done, or the row at which a group's sum
// would leave ±limit (that row is not added; the caller continues exactly from it).
function addF64(
  v: Float64Array,
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

function addI32(
  v: Int32Array,
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

/** Output kinds whose MIN/MAX state fits a Float64Array (values as numbers; int32/date re-narrowed at the end). */
const NUMERIC_MINMAX = new Set(['int32', 'int64', 'float64', 'date', 'timestamp', 'decimal']);

class MinMaxAcc implements Accumulator {
  /** Numeric state while every batch is Float64Array / Int32Array; null once a batch needed the general path. */
  #num: { best: GroupNumbers; seen: GroupNumbers } | null;
  #best: (Key | null)[] = [];
  constructor(
    readonly fn: 'min' | 'max',
    readonly type: DataType,
  ) {
    this.#num = NUMERIC_MINMAX.has(type.id) ? { best: new GroupNumbers(), seen: new GroupNumbers() } : null;
  }
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    const col = arg!;
    const v = col.values;
    if (this.#num !== null && (v instanceof Float64Array || v instanceof Int32Array)) {
      const best = this.#num.best.ensure(ngroups);
      const seen = this.#num.seen.ensure(ngroups);
      if (this.fn === 'min') minNumbers(v, col.valid, groups, n, best, seen);
      else maxNumbers(v, col.valid, groups, n, best, seen);
      return;
    }
    if (this.#num !== null) this.#toGeneral();
    this.#updateGeneral(groups, n, col, ngroups);
  }
  #toGeneral(): void {
    const { best, seen } = this.#num!;
    this.#best = Array.from(best.values, (b, g) => (seen.values[g] === 1 ? b : null));
    this.#num = null;
  }
  #updateGeneral(groups: Int32Array, n: number, arg: Column, ngroups: number): void {
    while (this.#best.length < ngroups) this.#best.push(null);
    const read = valueReader(arg);
    const best = this.#best;
    const isMin = this.fn === 'min';
    for (let i = 0; i < n; i++) {
      const x = read(i);
      if (x === null || (typeof x === 'number' && Number.isNaN(x) && isMin)) continue;
      const g = groups[i]!;
      const b = best[g]!;
      if (b === null) best[g] = x;
      else if (typeof x === 'string') {
        // Text orders by code point (UTF-8 byte order), as PostgreSQL's C collation.
        if (isMin ? compareText(x, b as string) < 0 : compareText(x, b as string) > 0) best[g] = x;
      } else if (isMin ? x < b : x > b || (typeof x === 'number' && Number.isNaN(x))) best[g] = x;
    }
  }
  finish(ngroups: number): Column {
    if (this.#num !== null) {
      const best = this.#num.best.ensure(ngroups);
      const seen = this.#num.seen.ensure(ngroups).subarray(0, ngroups);
      const valid = seen.every((x) => x === 1) ? null : Uint8Array.from(seen);
      const id = this.type.id;
      const values =
        id === 'int32' || id === 'date' ? Int32Array.from(best.subarray(0, ngroups)) : best.slice(0, ngroups);
      return makeColumn(this.type, values, valid, ngroups);
    }
    while (this.#best.length < ngroups) this.#best.push(null);
    return columnFromValues(this.type, this.#best);
  }
}

// MIN skips NaN and MAX lets it win (NaN sorts above every number), as the general path does.
function minNumbers(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  best: Float64Array,
  seen: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = v[i]!;
    if (Number.isNaN(x)) continue;
    const g = groups[i]!;
    if (seen[g] === 0 || x < best[g]!) {
      best[g] = x;
      seen[g] = 1;
    }
  }
}

function maxNumbers(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  best: Float64Array,
  seen: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = v[i]!;
    const g = groups[i]!;
    const b = best[g]!;
    if (seen[g] === 0 || x > b || (Number.isNaN(x) && !Number.isNaN(b))) {
      best[g] = x;
      seen[g] = 1;
    }
  }
}

/** DISTINCT: collects each group's distinct values, then feeds them to the inner accumulator once. */
class DistinctAcc implements Accumulator {
  readonly #sets: Set<Key>[] = [];
  constructor(
    readonly inner: Accumulator,
    readonly argType: DataType,
  ) {}
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    while (this.#sets.length < ngroups) this.#sets.push(new Set());
    const read = valueReader(arg!);
    for (let i = 0; i < n; i++) {
      const x = read(i);
      if (x !== null)
        this.#sets[groups[i]!]!.add(typeof x === 'bigint' && x <= MAX_EXACT && x >= -MAX_EXACT ? Number(x) : x);
    }
  }
  finish(ngroups: number): Column {
    while (this.#sets.length < ngroups) this.#sets.push(new Set());
    const values: Key[] = [];
    const groups: number[] = [];
    this.#sets.forEach((s, g) => {
      for (const v of s) {
        values.push(v);
        groups.push(g);
      }
    });
    this.inner.update(Int32Array.from(groups), values.length, columnFromValues(this.argType, values), ngroups);
    return this.inner.finish(ngroups);
  }
}

/** Builds a column of `type` from plain JS values (null = NULL). */
export function columnFromValues(type: DataType, values: readonly (Key | null)[]): Column {
  const n = values.length;
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) valid[i] = values[i] === null ? 0 : 1;
  const allValid = valid.every((x) => x === 1);
  const v = allValid ? null : valid;
  switch (type.id) {
    case 'utf8':
      return makeColumn(
        type,
        values.map((x) => (x === null ? '' : String(x))),
        v,
        n,
      );
    case 'bool':
      return makeColumn(
        type,
        Uint8Array.from(values, (x) => (x ? 1 : 0)),
        v,
        n,
      );
    case 'int32':
    case 'date':
      return makeColumn(
        type,
        Int32Array.from(values, (x) => Number(x ?? 0)),
        v,
        n,
      );
    case 'null':
      return makeColumn(type, null, new Uint8Array(n), n);
    default:
      if (values.some((x) => typeof x === 'bigint'))
        return makeColumn(
          type,
          narrowExact(BigInt64Array.from(values, (x) => BigInt((x as number | bigint) ?? 0))),
          v,
          n,
        );
      return makeColumn(
        type,
        Float64Array.from(values, (x) => Number(x ?? 0)),
        v,
        n,
      );
  }
}
