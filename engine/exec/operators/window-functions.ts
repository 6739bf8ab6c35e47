// Ranking (row_number … ntile) and value (lag, lead, first/last/nth_value) window functions over sorted partitions.
import type { Column } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { WindowCall } from '../../plan/logical/window.js';
import { columnFromValues, valueReader } from './accumulators.js';
import { type FrameBounds, frameRuns } from './window-frames.js';
import type { SortedPartitions } from './window-partitions.js';

type Key = number | bigint | string | boolean;

/** `call` (not an aggregate) for every row, in input row order; `args` are evaluated in input row order. */
export function windowFunction(
  call: WindowCall,
  args: readonly Column[],
  parts: SortedPartitions,
  bounds: FrameBounds,
): Column {
  const n = parts.length;
  const out: (Key | null)[] = new Array(n);
  const { order, partStart: ps, partEnd: pe, peerStart, peerEnd, group } = parts;
  const set = (f: (p: number) => Key | null) => {
    for (let p = 0; p < n; p++) out[order[p]!] = f(p);
  };
  const readers = args.map(valueReader);
  const argAt = (a: number, p: number) => readers[a]!(order[p]!);
  switch (call.fn) {
    case 'row_number':
      set((p) => p - ps[p]! + 1);
      break;
    case 'rank':
      set((p) => peerStart[p]! - ps[p]! + 1);
      break;
    case 'dense_rank':
      set((p) => group[p]! - group[ps[p]!]! + 1);
      break;
    case 'percent_rank':
      set((p) => (pe[p]! - ps[p]! > 1 ? (peerStart[p]! - ps[p]!) / (pe[p]! - ps[p]! - 1) : 0));
      break;
    case 'cume_dist':
      set((p) => (peerEnd[p]! - ps[p]!) / (pe[p]! - ps[p]!));
      break;
    case 'ntile':
      set((p) => ntile(argAt(0, ps[p]!), p - ps[p]!, pe[p]! - ps[p]!));
      break;
    case 'lag':
    case 'lead': {
      const dir = call.fn === 'lag' ? -1 : 1;
      set((p) => {
        const offset = argAt(1, p);
        if (offset === null) return null;
        const q = p + dir * Number(offset);
        if (q >= ps[p]! && q < pe[p]!) return argAt(0, q);
        return args.length > 2 ? argAt(2, p) : null;
      });
      break;
    }
    default:
      set(
        frameValue(
          call,
          parts,
          bounds,
          (p) => argAt(0, p),
          (p) => (args[1] ? argAt(1, p) : null),
        ),
      );
  }
  return columnFromValues(call.type, out);
}

/** PostgreSQL's ntile: the first (rows % buckets) buckets hold one row more than the others. */
function ntile(buckets: Key | null, j: number, rows: number): number | null {
  if (buckets === null) return null;
  const k = Number(buckets);
  if (k <= 0) throw new ExecError('argument of ntile must be greater than zero');
  const q = Math.floor(rows / k);
  const r = rows % k;
  const big = r * (q + 1);
  return j < big ? Math.floor(j / (q + 1)) + 1 : r + Math.floor((j - big) / q) + 1;
}

/** first_value / last_value / nth_value: a row of the frame, NULL when the frame is too short. */
function frameValue(
  call: WindowCall,
  parts: SortedPartitions,
  bounds: FrameBounds,
  value: (p: number) => Key | null,
  nth: (p: number) => Key | null,
): (p: number) => Key | null {
  const runsOf = (p: number) =>
    call.frame.exclude === 'no_others'
      ? [[bounds.start[p]!, bounds.end[p]!] as const]
      : frameRuns(call.frame, bounds, parts, p);
  return (p) => {
    const runs = runsOf(p).filter(([s, e]) => e > s);
    if (runs.length === 0) return null;
    if (call.fn === 'first_value') return value(runs[0]![0]);
    if (call.fn === 'last_value') return value(runs[runs.length - 1]![1] - 1);
    const raw = nth(p);
    if (raw === null) return null;
    let k = Number(raw);
    if (k <= 0) throw new ExecError('argument of nth_value must be greater than zero');
    for (const [s, e] of runs) {
      if (k <= e - s) return value(s + k - 1);
      k -= e - s;
    }
    return null;
  };
}
