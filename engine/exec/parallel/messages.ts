// What the coordinating thread and a parallel-aggregate helper thread send each other.
import { type Column, movableBuffers } from '../../arrow/column.js';
import type { EngineErrorKind } from '../../errors.js';
import type { Aggregate } from '../../plan/logical/index.js';
import type { NamedSharedTable } from './fragment.js';

/**
 * One partition of one parallel aggregate, as plan data: helpers plan it physically and never see SQL text. The
 * logical plan is plain data (no functions or class instances), so structured cloning keeps it whole, a node
 * read twice included (the clone keeps shared references shared, so `planNodes` positions match).
 */
export interface FragmentTask {
  /** The aggregate each partition runs: the partial one (`partialAggregate`), or the aggregate itself. */
  readonly plan: Aggregate;
  /** The split scan's position in `planNodes(plan)`. */
  readonly scan: number;
  readonly part: number;
  readonly parts: number;
  /** The run's chunk counter in shared memory, when the threads claim chunks (`ScanRequest.partition.next`). */
  readonly next?: Int32Array;
  /**
   * A key split (`KeySplit`): its split points, and each split scan's position in `planNodes(plan)` with its key
   * column; absent for a split in scan order.
   */
  readonly keys?: { readonly bounds: readonly number[]; readonly scans: readonly (readonly [number, string])[] };
  /** A hash split (`HashSplit`): the split scan's key columns whose hash picks each partition's rows. */
  readonly hash?: readonly string[];
  /** Every table the statement's planning looked up. */
  readonly tables: readonly NamedSharedTable[];
}

/** A table as sent to one helper: its data only when that helper does not hold this version yet. */
export interface FragmentTable {
  readonly name: string;
  readonly id: string;
  readonly kind: string;
  readonly data?: unknown;
}

export interface FragmentRequest extends Omit<FragmentTask, 'tables'> {
  readonly id: number;
  readonly tables: readonly FragmentTable[];
}

/** The partial aggregate's rows: plain columns (typed arrays moved, not copied). */
export interface FragmentBatch {
  readonly length: number;
  readonly columns: readonly Column[];
}

export type FragmentReply =
  | { readonly id: number; readonly batches: readonly FragmentBatch[] }
  | { readonly id: number; readonly error: { readonly kind: EngineErrorKind | 'crash'; readonly message: string } };

/** `retain`: drop every table whose id is not listed (a catalog version no query uses any more). */
export type HelperMessage = FragmentRequest | { readonly cancel: number } | { readonly retain: readonly string[] };

/** The buffers behind the batches' columns, moved rather than copied (`movableBuffers`). */
export function transferList(batches: readonly FragmentBatch[]): ArrayBuffer[] {
  return movableBuffers(batches.flatMap((b) => b.columns));
}
