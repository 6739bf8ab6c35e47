// COUNT/SUM/AVG/MIN/MAX over window frames: prefix sums, running values, or a segment tree — never O(n²).
import { type Column, makeColumn } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { WindowCall, WindowFrame } from '../../plan/logical/window.js';
import type { DataType } from '../../plan/types.js';
import { columnFromValues, valueReader } from './accumulators.js';
import { type FrameBounds, frameRuns } from './window-frames.js';
import type { SortedPartitions } from './window-partitions.js';

type Key = number | bigint | string | boolean;
type Fold = <T>(p: number, init: T, f: (acc: T, start: number, end: number) => T) => T;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * The aggregate of `call` over each row's frame, as a column in input row order. Exact sums (integers,
 * decimals) use prefix sums; float sums and MIN/MAX accumulate running values when the frame starts
 * at UNBOUNDED PRECEDING and query a segment tree (O(log n) per row) otherwise.
 */
export function windowAggregate(
  call: WindowCall,
  arg: Column | null,
  parts: SortedPartitions,
  bounds: FrameBounds,
): Column {
  const n = parts.length;
  const fold = folder(call.frame, bounds, parts);
  const out: (Key | null)[] = new Array(n);
  const emit = (f: (p: number) => Key | null) => {
    for (let p = 0; p < n; p++) out[parts.order[p]!] = f(p);
  };
  if (arg === null) {
    emit((p) => fold(p, 0, (k, s, e) => k + e - s));
    return toColumn(call.type, out);
  }
  const read = valueReader(arg);
  const values: (Key | null)[] = Array.from(parts.order, (r) => read(r));
  const counts = prefixCounts(values);
  const countOf = (p: number) => fold(p, 0, (k, s, e) => k + counts[e]! - counts[s]!);
  if (call.fn === 'count') emit(countOf);
  else if (call.fn === 'min' || call.fn === 'max') {
    const query = extremes(values, call.fn, call.frame, parts);
    const isMax = call.fn === 'max';
    emit((p) => fold<Key | null>(p, null, (best, s, e) => pick(best, query(s, e), isMax)));
  } else {
    const query = sums(values, arg.type.id === 'float64', call.frame, parts);
    const scale = arg.type.id === 'decimal' ? 10 ** arg.type.scale : 1;
    emit((p) => {
      const k = countOf(p);
      if (k === 0) return null;
      const total = fold<number | bigint>(p, 0, (t, s, e) => add(t, query(s, e)));
      return call.fn === 'avg' ? Number(total) / scale / k : checkRange(total);
    });
  }
  return toColumn(call.type, out);
}

/** Numbers into a Float64Array (int64, decimal, float64 results); anything else through `columnFromValues`. */
function toColumn(type: DataType, out: readonly (Key | null)[]): Column {
  const n = out.length;
  if (type.id !== 'int64' && type.id !== 'float64' && type.id !== 'decimal') return columnFromValues(type, out);
  const values = new Float64Array(n);
  const valid = new Uint8Array(n);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = out[i];
    if (typeof v === 'bigint') return columnFromValues(type, out);
    if (v === null) nulls++;
    else {
      values[i] = v as number;
      valid[i] = 1;
    }
  }
  return makeColumn(type, values, nulls === 0 ? null : valid, n);
}

/** Folds `f` over the runs of row p's frame: one run unless the frame excludes rows (then up to three). */
function folder(frame: WindowFrame, bounds: FrameBounds, parts: SortedPartitions): Fold {
  const { start, end } = bounds;
  if (frame.exclude === 'no_others') return (p, init, f) => f(init, start[p]!, end[p]!);
  return (p, init, f) => frameRuns(frame, bounds, parts, p).reduce((acc, [s, e]) => f(acc, s, e), init);
}

/** Whether every frame is [partition start, end): a running value answers it. */
function isRunning(frame: WindowFrame): boolean {
  return frame.start.kind === 'unbounded_preceding' && frame.exclude === 'no_others';
}

function prefixCounts(values: readonly (Key | null)[]): Int32Array {
  const c = new Int32Array(values.length + 1);
  for (let p = 0; p < values.length; p++) c[p + 1] = c[p]! + (values[p] === null ? 0 : 1);
  return c;
}

function add(a: number | bigint, b: number | bigint): number | bigint {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  return BigInt(a) + BigInt(b);
}

function checkRange(total: number | bigint): number | bigint {
  if (typeof total === 'bigint' && (total > INT64_MAX || total < -INT64_MAX - 1n))
    throw new ExecError('sum out of range for a 64-bit scaled value');
  return total;
}

/** Sum over sorted positions [s, e) (NULLs add nothing). */
function sums(
  values: readonly (Key | null)[],
  float: boolean,
  frame: WindowFrame,
  parts: SortedPartitions,
): (s: number, e: number) => number | bigint {
  const n = values.length;
  const num = (p: number) => (values[p] === null ? 0 : (values[p] as number | bigint));
  if (!float) {
    // Exact: prefix sums, as numbers while every partial sum stays below 2^53, else as bigints.
    let abs = 0;
    for (let p = 0; p < n; p++) abs += Math.abs(Number(num(p)));
    if (abs < Number.MAX_SAFE_INTEGER && !values.some((v) => typeof v === 'bigint')) {
      const pre = new Float64Array(n + 1);
      for (let p = 0; p < n; p++) pre[p + 1] = pre[p]! + (num(p) as number);
      return (s, e) => pre[e]! - pre[s]!;
    }
    const pre: bigint[] = [0n];
    for (let p = 0; p < n; p++) pre.push(pre[p]! + BigInt(num(p)));
    return (s, e) => pre[e]! - pre[s]!;
  }
  if (isRunning(frame)) {
    // Floats: a running sum per partition (subtracting prefix sums would cancel catastrophically).
    const run = new Float64Array(n);
    for (let p = 0; p < n; p++) run[p] = (p === parts.partStart[p] ? 0 : run[p - 1]!) + (num(p) as number);
    return (s, e) => (e > s ? run[e - 1]! : 0);
  }
  const tree = new SegmentTree<number>(
    Array.from({ length: n }, (_, p) => num(p) as number),
    (a, b) => a + b,
    0,
  );
  return (s, e) => tree.query(s, e);
}

/** MIN/MAX over sorted positions [s, e): NULL when the range holds no value. NaN is the largest value. */
function extremes(
  values: readonly (Key | null)[],
  fn: 'min' | 'max',
  frame: WindowFrame,
  parts: SortedPartitions,
): (s: number, e: number) => Key | null {
  const isMax = fn === 'max';
  if (isRunning(frame)) {
    const run: (Key | null)[] = new Array(values.length);
    for (let p = 0; p < values.length; p++)
      run[p] = p === parts.partStart[p] ? values[p]! : pick(run[p - 1]!, values[p]!, isMax);
    return (s, e) => (e > s ? run[e - 1]! : null);
  }
  const tree = new SegmentTree<Key | null>(values, (a, b) => pick(a, b, isMax), null);
  return (s, e) => tree.query(s, e);
}

function pick(a: Key | null, b: Key | null, isMax: boolean): Key | null {
  if (a === null) return b;
  if (b === null) return a;
  const c = compareKeys(a, b);
  return (isMax ? c >= 0 : c <= 0) ? a : b;
}

/** PostgreSQL's order: NaN above every number. */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
    if (Number.isNaN(b)) return -1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A bottom-up segment tree: `query(l, r)` combines values [l, r) in O(log n). */
class SegmentTree<T> {
  readonly #n: number;
  readonly #tree: T[];
  constructor(
    values: readonly T[],
    readonly combine: (a: T, b: T) => T,
    readonly identity: T,
  ) {
    const n = values.length;
    this.#n = n;
    this.#tree = new Array<T>(2 * n);
    for (let i = 0; i < n; i++) this.#tree[n + i] = values[i]!;
    for (let i = n - 1; i >= 1; i--) this.#tree[i] = combine(this.#tree[2 * i]!, this.#tree[2 * i + 1]!);
  }
  query(l: number, r: number): T {
    let left = this.identity;
    let right = this.identity;
    for (l += this.#n, r += this.#n; l < r; l >>= 1, r >>= 1) {
      if (l & 1) left = this.combine(left, this.#tree[l++]!);
      if (r & 1) right = this.combine(this.#tree[--r]!, right);
    }
    return this.combine(left, right);
  }
}
