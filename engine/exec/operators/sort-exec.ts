// `SortExec` orders all rows by its keys (stable); with `fetch` it is a TopK that keeps only the first rows.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { compactBatch, gatherColumns, takeRows } from '../../arrow/gathered-column.js';
import { chainComparators, rowComparator, type SortSpec } from '../../arrow/kernels/compare-rows.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { normalizedOrder } from './normalized-sort.js';
import type { TopKBound } from './top-k-bound.js';
import { candidateRows } from './top-k-filter.js';

export interface PhysicalSortKey extends SortSpec {
  readonly expr: PhysicalExpr;
}

const PACK_MIN_ROWS = 64;

export class SortExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #keys: readonly PhysicalSortKey[];
  readonly #fetch: number | null;
  readonly #bound: TopKBound | null;

  /** `bound` (with `fetch`): told the K-th first key after each cut, so that the scan below skips what cannot enter. */
  constructor(
    input: PhysicalOperator,
    keys: readonly PhysicalSortKey[],
    fetch: number | null,
    bound: TopKBound | null = null,
  ) {
    this.#input = input;
    this.#keys = keys;
    this.#fetch = fetch;
    this.#bound = fetch !== null && fetch > 0 ? bound : null;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const fetch = this.#fetch;
    let pending: Batch[] = [];
    let pendingRows = 0;
    // TopK: whenever the buffer grows past this, sort it and keep only `fetch` rows.
    const compactAt = fetch === null ? Number.POSITIVE_INFINITY : Math.max(2 * fetch, DEFAULT_BATCH_ROWS);
    // The first cut comes as soon as K rows are in: from then on its K-th key drops rows on arrival, and the scan
    // below checks it (the bound) before each row group.
    let bounded = fetch === null || fetch === 0;
    this.#bound?.reset();
    // The K-th row's first key once K rows are in (a one-row column): rows that sort after it are dropped on arrival.
    let kth: Column | null = null;
    for await (const input of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const batch = kth === null ? input : this.#candidates(input, kth);
      if (batch.length === 0) continue;
      // A TopK's buffer is cut to `fetch` rows (copies) as it grows: only a full sort keeps its input.
      pending.push(fetch === null ? compactBatch(batch) : batch);
      pendingRows += batch.length;
      if (pendingRows > compactAt || (!bounded && pendingRows >= fetch!)) {
        const top = this.#sorted(pending, fetch);
        pending = [top];
        pendingRows = top.length;
        if (top.length === fetch && fetch > 0) {
          kth = takeRows(this.#keys[0]!.expr.evaluate(top), Int32Array.of(fetch - 1), 1);
          this.#bound?.tighten(kth, 0);
          bounded = true;
        }
      }
    }
    if (pendingRows === 0) return;
    const sorted = this.#sorted(pending, fetch);
    for (let start = 0; start < sorted.length; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(sorted, start, Math.min(sorted.length, start + DEFAULT_BATCH_ROWS));
    }
  }

  /** `batch` without the rows whose first key sorts after `kth` (they cannot enter the TopK). */
  #candidates(batch: Batch, kth: Column): Batch {
    const key = this.#keys[0]!;
    const rows = candidateRows(key.expr.evaluate(batch), kth, key);
    if (rows === null) return batch;
    return makeBatch(batch.schema, gatherColumns(batch.columns, rows, rows.length, false), rows.length);
  }

  /** The row order by comparing rows key by key (keys that do not pack into one number). */
  #compared(columns: readonly Column[], n: number): Int32Array {
    const cmp = chainComparators(this.#keys.map((k, i) => rowComparator(columns[i]!, k)));
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort(cmp);
  }

  /** One batch with the rows of `batches` in key order, cut to `fetch` rows. */
  #sorted(batches: Batch[], fetch: number | null): Batch {
    const all = makeBatch(
      this.schema,
      this.schema.fields.map((_, c) => concatColumns(batches.map((b) => b.columns[c]!))),
      batches.reduce((n, b) => n + b.length, 0),
    );
    const columns = this.#keys.map((k) => k.expr.evaluate(all));
    // A few rows sort as fast by comparing; packing keys pays from a few dozen on.
    const packed =
      all.length >= PACK_MIN_ROWS ? normalizedOrder(columns, this.#keys, all.length, fetch ?? all.length) : null;
    const order = packed ?? this.#compared(columns, all.length);
    const n = fetch === null ? order.length : Math.min(fetch, order.length);
    return makeBatch(
      this.schema,
      // A gathered column (an aggregate's any_value, a join's output) is read from its source: one copy, not two.
      all.columns.map((c) => takeRows(c, order, n)),
      n,
    );
  }
}
