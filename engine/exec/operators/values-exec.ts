// `ValuesExec` yields literal rows (one empty row for a SELECT without FROM).
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import type { ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';

export class ValuesExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #rows: readonly (readonly PhysicalExpr[])[];

  constructor(schema: Schema, rows: readonly (readonly PhysicalExpr[])[]) {
    this.schema = schema;
    this.#rows = rows;
  }

  async *execute(_ctx: ExecContext): AsyncIterable<Batch> {
    const one = makeBatch({ fields: [] }, [], 1);
    const cells = this.#rows.map((r) => r.map((e) => e.evaluate(one)));
    const columns = this.schema.fields.map((_, c) => concatColumns(cells.map((r) => r[c]!)));
    yield makeBatch(this.schema, columns, this.#rows.length);
  }
}
