// `InsertExec` streams its input into `TableProvider.write` and yields one row: the count of rows written.
// The provider pulls the batches; a NOT NULL violation or a cancel is thrown inside that iteration, so the
// provider sees the error and commits nothing.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { makeColumn, nullCount } from '../../arrow/column.js';
import type { Catalog, TableDefinition, TableProvider, WriteMode } from '../../catalog.js';
import { ExecError, NotSupportedError, PlanError } from '../../errors.js';
import { COUNT_SCHEMA } from '../../plan/logical/index.js';
import { INT64, type Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

export interface InsertTarget {
  /** The catalog's name of the table. */
  readonly table: string;
  readonly mode: WriteMode;
  /** Columns whose NULLs fail the write. */
  readonly notNull: readonly string[];
  /** CREATE TABLE AS: the table to create first. */
  readonly create: { readonly definition: TableDefinition; readonly ifNotExists: boolean } | null;
}

export class InsertExec implements PhysicalOperator {
  readonly schema: Schema = COUNT_SCHEMA;

  constructor(
    readonly input: PhysicalOperator,
    readonly target: InsertTarget,
  ) {}

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    checkCancelled(ctx);
    const provider = await this.#provider(ctx.catalog);
    // IF NOT EXISTS found the table (created meanwhile): nothing written.
    const rows = provider === null ? 0 : await this.#write(provider, ctx).catch((e) => this.#undoCreate(ctx, e));
    yield countBatch(rows);
  }

  /** A CREATE TABLE AS whose write failed drops the table it created (PostgreSQL rolls both back), then rethrows. */
  async #undoCreate(ctx: ExecContext, error: unknown): Promise<never> {
    const { create } = this.target;
    if (create !== null) await ctx.catalog.writes?.dropTable(create.definition.name, true).catch(() => {});
    throw error;
  }

  async #provider(catalog: Catalog): Promise<TableProvider | null> {
    const { create, table } = this.target;
    if (create !== null) {
      if (catalog.writes === undefined)
        throw new NotSupportedError('CREATE TABLE AS is not supported: the catalog has no writable namespace');
      return catalog.writes.createTable(create.definition, create.ifNotExists);
    }
    const provider = catalog.table(table);
    if (provider === undefined) throw new PlanError(`relation "${table}" does not exist`);
    return provider;
  }

  async #write(provider: TableProvider, ctx: ExecContext): Promise<number> {
    const { table, mode } = this.target;
    if (provider.write === undefined)
      throw new NotSupportedError(`INSERT into "${table}" is not supported: the table is read-only`);
    return provider.write(this.#checked(ctx), mode, ctx.signal);
  }

  async *#checked(ctx: ExecContext): AsyncIterable<Batch> {
    const fields = this.input.schema.fields;
    const notNull = this.target.notNull.map((name) => fields.findIndex((f) => f.name === name));
    const relation = this.target.table.split('.').at(-1)!;
    for await (const batch of this.input.execute(ctx)) {
      checkCancelled(ctx);
      for (const c of notNull)
        if (batch.length > 0 && nullCount(batch.columns[c]!) > 0)
          throw new ExecError(
            `null value in column "${fields[c]!.name}" of relation "${relation}" violates not-null constraint`,
          );
      yield batch;
    }
    checkCancelled(ctx);
  }
}

function countBatch(rows: number): Batch {
  return makeBatch(COUNT_SCHEMA, [makeColumn(INT64, Float64Array.of(rows), null, 1)], 1);
}
