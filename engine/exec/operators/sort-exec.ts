// `SortExec` orders all rows by its keys (stable); with `fetch` it is a TopK that keeps only the first rows.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { compactBatch, takeRows } from '../../arrow/gathered-column.js';
import { chainComparators, rowComparator, type SortSpec } from '../../arrow/kernels/compare-rows.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { normalizedOrder } from './normalized-sort.js';

export interface PhysicalSortKey extends SortSpec {
  readonly expr: PhysicalExpr;
}

const PACK_MIN_ROWS = 64;

export class SortExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #keys: readonly PhysicalSortKey[];
  readonly #fetch: number | null;

  constructor(input: PhysicalOperator, keys: readonly PhysicalSortKey[], fetch: number | null) {
    this.#input = input;
    this.#keys = keys;
    this.#fetch = fetch;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const fetch = this.#fetch;
    let pending: Batch[] = [];
    let pendingRows = 0;
    // TopK: whenever the buffer grows past this, sort it and keep only `fetch` rows.
    const compactAt = fetch === null ? Number.POSITIVE_INFINITY : Math.max(2 * fetch, DEFAULT_BATCH_ROWS);
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      if (batch.length === 0) continue;
      // A TopK's buffer is cut to `fetch` rows (copies) as it grows: only a full sort keeps its input.
      pending.push(fetch === null ? compactBatch(batch) : batch);
      pendingRows += batch.length;
      if (pendingRows > compactAt) {
        const top = this.#sorted(pending, fetch);
        pending = [top];
        pendingRows = top.length;
      }
    }
    if (pendingRows === 0) return;
    const sorted = this.#sorted(pending, fetch);
    for (let start = 0; start < sorted.length; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(sorted, start, Math.min(sorted.length, start + DEFAULT_BATCH_ROWS));
    }
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
