// `WorkTableScanExec` reads a recursive query's working table: the rows its previous iteration produced.
import type { Batch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import type { ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';
import { replayBatches } from './cte-scan-exec.js';

/** The working table one `RecursiveCteExec` fills before each run of its recursive term. */
export class WorkTable {
  batches: readonly Batch[] = [];
}

export class WorkTableScanExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #table: WorkTable;

  constructor(table: WorkTable, schema: Schema) {
    this.#table = table;
    this.schema = schema;
  }

  /** Yields the working table's batches relabelled with this scan's schema; does not copy them. */
  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    yield* replayBatches(this.#table.batches, this.schema, ctx);
  }
}
