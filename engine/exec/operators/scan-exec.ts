// `ScanExec` pulls batches from a table provider, passing it projection, filters (for pruning) and limit.
import type { Batch } from '../../arrow/batch.js';
import type { ScanRequest, TableProvider } from '../../catalog.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

export class ScanExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #provider: TableProvider;
  readonly #request: ScanRequest;

  constructor(provider: TableProvider, request: ScanRequest, schema: Schema) {
    this.#provider = provider;
    this.#request = request;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for await (const b of this.#provider.scan(this.#request, ctx.signal)) {
      checkCancelled(ctx);
      // Providers yield unqualified schemas; downstream operators resolve against this scan's.
      yield { schema: this.schema, columns: b.columns, length: b.length };
    }
  }
}
