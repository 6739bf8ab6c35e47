// The write and DDL nodes: `Insert` (INSERT, INSERT OVERWRITE, CREATE TABLE AS) and the catalog changes
// `CreateTable`, `DropTable`, `CreateSchema`. Each answers one row (`count`, or `status` for DDL).
import type { TableDefinition, WriteMode } from '../../catalog.js';
import { type Field, INT64, type Schema, typeName, UTF8 } from '../types.js';
import type { LogicalPlan } from './index.js';

/**
 * Writes `input`'s rows into `table` through `TableProvider.write(…, mode)`. `input` already has the table's
 * columns, in its order and types (assignment casts and NULLs for omitted columns are in it); `notNull` lists the
 * columns whose NULLs fail the write. With `create`, the table is created first (CREATE TABLE AS).
 */
export interface Insert {
  readonly kind: 'insert';
  /** The catalog's name of the table (`c.s.t`); for `create`, the name as written. */
  readonly table: string;
  readonly mode: WriteMode;
  readonly input: LogicalPlan;
  readonly notNull: readonly string[];
  readonly create: { readonly definition: TableDefinition; readonly ifNotExists: boolean } | null;
  readonly schema: Schema;
}

export interface CreateTable {
  readonly kind: 'create_table';
  readonly definition: TableDefinition;
  readonly ifNotExists: boolean;
  readonly schema: Schema;
}

export interface DropTable {
  readonly kind: 'drop_table';
  readonly name: readonly string[];
  readonly ifExists: boolean;
  readonly schema: Schema;
}

export interface CreateSchema {
  readonly kind: 'create_schema';
  readonly name: readonly string[];
  readonly ifNotExists: boolean;
  readonly schema: Schema;
}

/** The answer of a write: one bigint column `count`, the rows written. */
export const COUNT_SCHEMA: Schema = { fields: [countField()] };

/** The answer of DDL: one text column `status`, the command's name (`CREATE TABLE`). */
export const STATUS_SCHEMA: Schema = { fields: [{ name: 'status', qualifier: null, type: UTF8, nullable: false }] };

function countField(): Field {
  return { name: 'count', qualifier: null, type: INT64, nullable: false };
}

/** The EXPLAIN line of a write or DDL node. */
export function writeLine(p: Insert | CreateTable | DropTable | CreateSchema): string {
  switch (p.kind) {
    case 'insert': {
      const notNull = p.notNull.length > 0 ? ` not_null=[${p.notNull.join(', ')}]` : '';
      if (p.create === null) return `Insert: ${p.table} mode=${p.mode}${notNull}`;
      return `CreateTableAs: ${definitionText(p.create.definition, p.create.ifNotExists)}`;
    }
    case 'create_table':
      return `CreateTable: ${definitionText(p.definition, p.ifNotExists)}`;
    case 'drop_table':
      return `DropTable: ${p.ifExists ? 'IF EXISTS ' : ''}${p.name.join('.')}`;
    case 'create_schema':
      return `CreateSchema: ${p.ifNotExists ? 'IF NOT EXISTS ' : ''}${p.name.join('.')}`;
  }
}

function definitionText(d: TableDefinition, ifNotExists: boolean): string {
  const columns = d.schema.fields.map((f) => `${f.name} ${typeName(f.type)}${f.nullable ? '' : ' NOT NULL'}`);
  const parts = d.partitionBy.map((f) => (f.transform === 'identity' ? f.column : `${f.transform}(${f.column})`));
  const partitioned = parts.length > 0 ? ` partitioned_by=[${parts.join(', ')}]` : '';
  return `${ifNotExists ? 'IF NOT EXISTS ' : ''}${d.name.join('.')} (${columns.join(', ')})${partitioned}`;
}
