// `FetchRowsExec`: completes a TopK's rows with the columns it did not carry, read by row number (late
// materialisation: the other columns are decoded for the final K rows only). Output order = input order.
import { type Batch, DEFAULT_BATCH_ROWS, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import type { TableProvider } from '../../catalog.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

/** Where output column j comes from: the input's column `early`, or the fetched column `late`. */
export type ColumnSource = { readonly early: number } | { readonly late: number };

export class FetchRowsExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #provider: TableProvider;
  readonly #late: readonly string[];
  readonly #sources: readonly ColumnSource[];

  /** `input`'s last column holds the row numbers (`ScanRequest.rowIds`) that `provider.fetchRows` reads `late` of. */
  constructor(
    input: PhysicalOperator,
    provider: TableProvider,
    late: readonly string[],
    sources: readonly ColumnSource[],
    schema: Schema,
  ) {
    this.#input = input;
    this.#provider = provider;
    this.#late = late;
    this.#sources = sources;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const batches: Batch[] = [];
    for await (const b of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      if (b.length > 0) batches.push(b);
    }
    const n = batches.reduce((k, b) => k + b.length, 0);
    if (n === 0) return;
    const column = (c: number): Column => concatColumns(batches.map((b) => b.columns[c]!));
    const ids = column(batches[0]!.columns.length - 1).values as Float64Array;
    const fetched = await this.#provider.fetchRows!(this.#late, ids, ctx.signal);
    checkCancelled(ctx);
    const columns = this.#sources.map((s) => ('early' in s ? column(s.early) : fetched.columns[s.late]!));
    const all: Batch = { schema: this.schema, columns, length: n };
    for (let start = 0; start < n; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(all, start, Math.min(n, start + DEFAULT_BATCH_ROWS));
    }
  }
}
