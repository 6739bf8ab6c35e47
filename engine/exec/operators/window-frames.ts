// `frameBounds` computes each row's window frame [start, end) in sorted positions for ROWS, RANGE and GROUPS.
import type { Column } from '../../arrow/column.js';
import type { SortSpec } from '../../arrow/kernels/compare-rows.js';
import type { IntervalValue, LiteralExpr } from '../../plan/expr/index.js';
import type { FrameBound, WindowFrame } from '../../plan/logical/window.js';
import { MS_PER_DAY } from '../../plan/values.js';
import { addInterval } from '../expr/temporal.js';
import type { SortedPartitions } from './window-partitions.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

export interface FrameBounds {
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** The single ORDER BY key a RANGE frame with offsets measures distance on. */
export interface RangeKey {
  readonly column: Column;
  readonly spec: SortSpec;
}

/** Frame bounds per sorted position, clamped to the partition; an empty frame has end <= start. */
export function frameBounds(frame: WindowFrame, parts: SortedPartitions, key: RangeKey | null): FrameBounds {
  const start = boundPositions(frame, frame.start, true, parts, key);
  const end = boundPositions(frame, frame.end, false, parts, key);
  for (let p = 0; p < parts.length; p++) {
    const lo = parts.partStart[p]!;
    const hi = parts.partEnd[p]!;
    start[p] = Math.min(Math.max(start[p]!, lo), hi);
    end[p] = Math.max(Math.min(Math.max(end[p]!, lo), hi), start[p]!);
  }
  return { start, end };
}

function boundPositions(
  frame: WindowFrame,
  b: FrameBound,
  isStart: boolean,
  parts: SortedPartitions,
  key: RangeKey | null,
): Int32Array {
  const n = parts.length;
  const out = new Int32Array(n);
  if (b.kind === 'unbounded_preceding') out.set(parts.partStart);
  else if (b.kind === 'unbounded_following') out.set(parts.partEnd);
  if (b.kind === 'unbounded_preceding' || b.kind === 'unbounded_following') return out;
  if (b.kind === 'current_row') {
    if (frame.units === 'rows') for (let p = 0; p < n; p++) out[p] = isStart ? p : p + 1;
    else out.set(isStart ? parts.peerStart : parts.peerEnd);
    return out;
  }
  if (frame.units === 'range') return rangePositions(b, isStart, parts, key!);
  const raw = Number(b.offset!.value);
  // Offsets past the row count all behave alike; clamping keeps the arithmetic in int32 range.
  const off = (b.kind === 'preceding' ? -1 : 1) * Math.min(raw, n + 1);
  if (frame.units === 'rows') {
    for (let p = 0; p < n; p++) out[p] = p + off + (isStart ? 0 : 1);
    return out;
  }
  const { group, groupStart, partStart, partEnd } = parts;
  for (let p = 0; p < n; p++) {
    const first = group[partStart[p]!]!;
    const last = group[partEnd[p]! - 1]!;
    const g = group[p]! + off;
    if (g < first) out[p] = partStart[p]!;
    else if (g > last) out[p] = partEnd[p]!;
    else out[p] = isStart ? groupStart[g]! : groupStart[g + 1]!;
  }
  return out;
}

/**
 * RANGE n PRECEDING/FOLLOWING: the first row whose key is within n of the current row's (start), or
 * one past the last (end). Keys are mapped to t = ±key so that they rise along the sort; NULL keys are
 * never within range of a value, and a row with a NULL key gets its NULL peers (PostgreSQL).
 */
function rangePositions(b: FrameBound, isStart: boolean, parts: SortedPartitions, key: RangeKey): Int32Array {
  const n = parts.length;
  const dir = key.spec.ascending ? 1 : -1;
  const { t, valid } = rangeKeys(key.column, parts.order, dir);
  const sign: 1 | -1 = b.kind === 'preceding' ? -1 : 1;
  const target = rangeTargets(key.column, b.offset!, dir === 1 ? sign : (-sign as 1 | -1), parts.order, dir);
  const out = new Int32Array(n);
  let runStart = 0;
  let runEnd = 0;
  for (let p = 0; p < n; p++) {
    if (p === parts.partStart[p]) [runStart, runEnd] = validRun(valid, p, parts.partEnd[p]!);
    if (!valid[p]) {
      out[p] = isStart ? parts.peerStart[p]! : parts.peerEnd[p]!;
      continue;
    }
    out[p] = search(t, runStart, runEnd, target[p]!, isStart);
  }
  return out;
}

/** Sorted keys as numbers rising along the sort (dates and timestamps in microseconds, decimals scaled). */
function rangeKeys(col: Column, order: Int32Array, dir: number): { t: Float64Array; valid: Uint8Array } {
  const n = order.length;
  const t = new Float64Array(n);
  const valid = new Uint8Array(n);
  const v = col.values as ArrayLike<number | bigint> | null;
  const scale = col.type.id === 'date' ? MICROS_PER_DAY : 1;
  for (let p = 0; p < n; p++) {
    const r = order[p]!;
    valid[p] = v !== null && (col.valid === null || col.valid[r] === 1) ? 1 : 0;
    if (valid[p]) t[p] = dir * Number(v![r]!) * scale;
  }
  return { t, valid };
}

/** t-space targets per sorted position: ±(key + sign * offset). */
function rangeTargets(col: Column, offset: LiteralExpr, sign: 1 | -1, order: Int32Array, dir: number): Float64Array {
  const n = order.length;
  const out = new Float64Array(n);
  if (col.type.id === 'date' || col.type.id === 'timestamp') {
    const moved = addInterval(col, offset.value as IntervalValue, sign);
    const m = moved.values as Float64Array;
    for (let p = 0; p < n; p++) out[p] = dir * m[order[p]!]!;
    return out;
  }
  const v = col.values as ArrayLike<number | bigint>;
  // Decimal keys are scaled integers: move the offset to the key's scale.
  const real = offset.type.id === 'decimal' ? Number(offset.value) / 10 ** offset.type.scale : Number(offset.value);
  const off = sign * real * (col.type.id === 'decimal' ? 10 ** col.type.scale : 1);
  for (let p = 0; p < n; p++) out[p] = dir * (Number(v[order[p]!]!) + off);
  return out;
}

/** The non-NULL positions of a partition [from, to): NULLs sort together at one end. */
function validRun(valid: Uint8Array, from: number, to: number): [number, number] {
  let a = from;
  while (a < to && !valid[a]) a++;
  let b = to;
  while (b > a && !valid[b - 1]) b--;
  return [a, b];
}

/** First position in [lo, hi) with t >= x (start) or t > x (end). */
function search(t: Float64Array, lo: number, hi: number, x: number, isStart: boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isStart ? t[mid]! < x : t[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows a frame exclusion removes from row p's frame, as a list of [from, to) runs. */
export function excludedRuns(frame: WindowFrame, parts: SortedPartitions, p: number): [number, number][] {
  switch (frame.exclude) {
    case 'no_others':
      return [];
    case 'current_row':
      return [[p, p + 1]];
    case 'group':
      return [[parts.peerStart[p]!, parts.peerEnd[p]!]];
    case 'ties':
      return [
        [parts.peerStart[p]!, p],
        [p + 1, parts.peerEnd[p]!],
      ];
  }
}

/** Row p's frame as disjoint ascending runs: [start, end) minus the excluded rows. */
export function frameRuns(
  frame: WindowFrame,
  bounds: FrameBounds,
  parts: SortedPartitions,
  p: number,
): [number, number][] {
  let runs: [number, number][] = [[bounds.start[p]!, bounds.end[p]!]];
  for (const [a, b] of excludedRuns(frame, parts, p)) {
    runs = runs.flatMap(([s, e]): [number, number][] =>
      b <= s || a >= e
        ? [[s, e]]
        : (
            [
              [s, a],
              [b, e],
            ] as [number, number][]
          ).filter(([x, y]) => y > x),
    );
  }
  return runs.filter(([s, e]) => e > s);
}
