// The Flight SQL metadata commands (GetCatalogs, GetDbSchemas, GetTables, GetTableTypes, GetPrimaryKeys) as Arrow.
import * as arrow from 'apache-arrow';
import type { Principal } from '../auth/principal.js';
import { DATASETS_CATALOG } from '../config/catalog-config.js';
import type { RestCatalogSource } from '../iceberg/rest-source.js';
import type { QueryService } from '../runtime/query-service.js';
import { type ResultColumn, resultMessages } from './arrow-results.js';
import type { IpcMessage } from './ipc-messages.js';
import { querySchema } from './query-schema.js';

/** What the metadata commands read: the catalogs the Iceberg REST API serves, and the service for schemas. */
export interface MetadataContext {
  readonly sources: () => readonly RestCatalogSource[];
  readonly service: QueryService;
  readonly principal: Principal;
}

const utf8 = (name: string, nullable: boolean) => new arrow.Field(name, new arrow.Utf8(), nullable);

/** One table of the catalogs, as GetTables lists it. */
interface TableRow {
  readonly catalog: string;
  readonly schema: string;
  readonly table: string;
}

/** GetCatalogs: `catalog_name`, sorted. */
export function getCatalogs(ctx: MetadataContext): IpcMessage[] {
  const names = ctx
    .sources()
    .map((s) => s.name)
    .sort();
  return resultMessages([{ field: utf8('catalog_name', false), values: names }]);
}

/** GetDbSchemas: `catalog_name, db_schema_name` of `catalog` (all when absent) matching the LIKE pattern. */
export async function getDbSchemas(
  ctx: MetadataContext,
  fields: { catalog?: string; dbSchemaFilterPattern?: string },
): Promise<IpcMessage[]> {
  const rows: { catalog: string; schema: string }[] = [];
  for (const source of pickCatalogs(ctx, fields.catalog)) {
    for (const schema of await source.schemas()) {
      if (matchesLike(schema, fields.dbSchemaFilterPattern)) rows.push({ catalog: source.name, schema });
    }
  }
  return resultMessages([
    { field: utf8('catalog_name', true), values: rows.map((r) => r.catalog) },
    { field: utf8('db_schema_name', false), values: rows.map((r) => r.schema) },
  ]);
}

/** The table types floe has: every table is a `TABLE` (datasets and Iceberg tables alike). */
const TABLE_TYPES = ['TABLE'];

/** GetTableTypes: `table_type`. */
export function getTableTypes(): IpcMessage[] {
  return resultMessages([{ field: utf8('table_type', false), values: TABLE_TYPES }]);
}

/**
 * GetTables: `catalog_name, db_schema_name, table_name, table_type` (+ `table_schema`, the IPC schema as binary,
 * with `includeSchema`), filtered by catalog, LIKE patterns and table types, ordered by catalog, schema, table.
 */
export async function getTables(
  ctx: MetadataContext,
  fields: {
    catalog?: string;
    dbSchemaFilterPattern?: string;
    tableNameFilterPattern?: string;
    tableTypes?: string[];
    includeSchema?: boolean;
  },
): Promise<IpcMessage[]> {
  const types = fields.tableTypes ?? [];
  const rows: TableRow[] = [];
  if (types.length === 0 || types.some((t) => TABLE_TYPES.includes(t.toUpperCase()))) {
    for (const source of pickCatalogs(ctx, fields.catalog)) {
      for (const schema of await source.schemas()) {
        if (!matchesLike(schema, fields.dbSchemaFilterPattern)) continue;
        for (const table of (await source.tables(schema)) ?? []) {
          if (matchesLike(table, fields.tableNameFilterPattern)) rows.push({ catalog: source.name, schema, table });
        }
      }
    }
  }
  const columns: ResultColumn[] = [
    { field: utf8('catalog_name', true), values: rows.map((r) => r.catalog) },
    { field: utf8('db_schema_name', true), values: rows.map((r) => r.schema) },
    { field: utf8('table_name', false), values: rows.map((r) => r.table) },
    { field: utf8('table_type', false), values: rows.map(() => 'TABLE') },
  ];
  if (fields.includeSchema === true) {
    const schemas: Uint8Array[] = [];
    for (const r of rows) {
      schemas.push(await querySchema(ctx.service, `SELECT * FROM ${sqlName(r)}`, undefined, ctx.principal));
    }
    columns.push({ field: new arrow.Field('table_schema', new arrow.Binary(), false), values: schemas });
  }
  return resultMessages(columns);
}

/** GetPrimaryKeys: floe's tables have no primary keys, so always empty (with the columns the spec names). */
export function getPrimaryKeys(): IpcMessage[] {
  return resultMessages([
    { field: utf8('catalog_name', true), values: [] },
    { field: utf8('db_schema_name', true), values: [] },
    { field: utf8('table_name', false), values: [] },
    { field: utf8('column_name', false), values: [] },
    { field: new arrow.Field('key_sequence', new arrow.Int32(), false), values: [] },
    { field: utf8('key_name', true), values: [] },
  ]);
}

/** How SQL names a listed table: a dataset by its bare name, an Iceberg table as catalog.schema.table. */
function sqlName(row: TableRow): string {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  if (row.catalog === DATASETS_CATALOG) return quote(row.table);
  return [row.catalog, row.schema, row.table].map(quote).join('.');
}

function pickCatalogs(ctx: MetadataContext, catalog: string | undefined): readonly RestCatalogSource[] {
  const all = ctx.sources();
  return catalog === undefined ? all : all.filter((s) => s.name === catalog);
}

/**
 * SQL LIKE for Flight SQL's filter patterns: `%` any run, `_` one character, `\` escapes; no pattern matches
 * everything (an empty pattern matches only '').
 */
export function matchesLike(text: string, pattern: string | undefined): boolean {
  if (pattern === undefined) return true;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) source += escapeRegex(pattern[++i] as string);
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += escapeRegex(c);
  }
  return new RegExp(`^${source}$`, 's').test(text);
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
