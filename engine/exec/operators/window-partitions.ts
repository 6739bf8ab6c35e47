// `sortPartitions` orders rows by PARTITION BY then ORDER BY keys and records partition and peer-group bounds.
import type { Column } from '../../arrow/column.js';
import {
  chainComparators,
  type RowComparator,
  rowComparator,
  type SortSpec,
} from '../../arrow/kernels/compare-rows.js';

/**
 * Rows in window order. Every array but `order` and `groupStart` is indexed by sorted position p;
 * bounds are sorted positions, end-exclusive. Peer groups are numbered globally (across partitions).
 */
export interface SortedPartitions {
  readonly length: number;
  /** order[p] = the input row at sorted position p. */
  readonly order: Int32Array;
  readonly partStart: Int32Array;
  readonly partEnd: Int32Array;
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
  /** The peer group of position p. */
  readonly group: Int32Array;
  /** groupStart[g] = first position of group g; groupStart[groups] = length. */
  readonly groupStart: Int32Array;
}

export function sortPartitions(
  n: number,
  partitionBy: readonly Column[],
  orderBy: readonly { column: Column; spec: SortSpec }[],
): SortedPartitions {
  const partCmp = comparatorOf(partitionBy.map((c) => rowComparator(c, { ascending: true, nullsFirst: false })));
  const peerCmp = comparatorOf(orderBy.map((k) => rowComparator(k.column, k.spec)));
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Stable: rows with equal keys keep input order, so repeated runs agree.
  order.sort((a, b) => partCmp(a, b) || peerCmp(a, b) || a - b);
  const partStart = new Int32Array(n);
  const partEnd = new Int32Array(n);
  const peerStart = new Int32Array(n);
  const peerEnd = new Int32Array(n);
  const group = new Int32Array(n);
  const starts: number[] = [];
  for (let p = 0; p < n; p++) {
    const newPart = p === 0 || partCmp(order[p - 1]!, order[p]!) !== 0;
    const newPeer = newPart || peerCmp(order[p - 1]!, order[p]!) !== 0;
    partStart[p] = newPart ? p : partStart[p - 1]!;
    peerStart[p] = newPeer ? p : peerStart[p - 1]!;
    if (newPeer) starts.push(p);
    group[p] = starts.length - 1;
  }
  for (let p = n - 1; p >= 0; p--) {
    const lastOfPart = p === n - 1 || partStart[p + 1] !== partStart[p];
    const lastOfPeer = lastOfPart || peerStart[p + 1] !== peerStart[p];
    partEnd[p] = lastOfPart ? p + 1 : partEnd[p + 1]!;
    peerEnd[p] = lastOfPeer ? p + 1 : peerEnd[p + 1]!;
  }
  starts.push(n);
  return { length: n, order, partStart, partEnd, peerStart, peerEnd, group, groupStart: Int32Array.from(starts) };
}

function comparatorOf(cmps: readonly RowComparator[]): RowComparator {
  return cmps.length === 0 ? () => 0 : chainComparators(cmps);
}
