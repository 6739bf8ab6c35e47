// `DdlExec` runs one catalog change (CREATE TABLE, CREATE SCHEMA, DROP TABLE) and yields one row: its `status`.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { makeColumn } from '../../arrow/column.js';
import type { CatalogWrites } from '../../catalog.js';
import { NotSupportedError } from '../../errors.js';
import type { CreateSchema, CreateTable, DropTable } from '../../plan/logical/index.js';
import { STATUS_SCHEMA } from '../../plan/logical/index.js';
import { type Schema, UTF8 } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

export class DdlExec implements PhysicalOperator {
  readonly schema: Schema = STATUS_SCHEMA;

  constructor(readonly node: CreateTable | DropTable | CreateSchema) {}

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    checkCancelled(ctx);
    const status = STATUS[this.node.kind];
    const writes = ctx.catalog.writes;
    if (writes === undefined)
      throw new NotSupportedError(`${status} is not supported: the catalog has no writable namespace`);
    await run(this.node, writes);
    yield makeBatch(STATUS_SCHEMA, [makeColumn(UTF8, [status], null, 1)], 1);
  }
}

/** The command's name, as PostgreSQL's command tag spells it. */
const STATUS = { create_table: 'CREATE TABLE', drop_table: 'DROP TABLE', create_schema: 'CREATE SCHEMA' } as const;

async function run(node: CreateTable | DropTable | CreateSchema, writes: CatalogWrites): Promise<void> {
  if (node.kind === 'create_table') await writes.createTable(node.definition, node.ifNotExists);
  else if (node.kind === 'drop_table') await writes.dropTable(node.name, node.ifExists);
  else await writes.createSchema(node.name, node.ifNotExists);
}
