// `bindInsert` and `bindCreateTableAs`: the write plans of INSERT [OVERWRITE] and CREATE TABLE AS, with PostgreSQL's
// column lists, NULL for omitted columns, count checks and assignment casts.
import type { Catalog, TableProvider } from '../../catalog.js';
import { NotSupportedError, PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import { COUNT_SCHEMA, type Insert, type LogicalPlan, makeProject } from '../../plan/logical/index.js';
import { type Field, INT64, type Schema, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import type { CreateTableAst, InsertAst } from '../rewrite/write-statement.js';
import { assignTo } from './assign.js';
import type { BindContext } from './bind-from.js';
import { checkStorable, partitionFields } from './bind-table-definition.js';
import { bindValueRows } from './bind-values.js';
import { castArm, outputExprs } from './cast-arm.js';

export function bindInsert(ast: InsertAst, ctx: BindContext): Insert {
  const { name, provider } = writableTable(ast.name, ctx.catalog, ast.overwrite ? 'INSERT OVERWRITE' : 'INSERT');
  const fields = provider.schema.fields;
  const targets = ast.columns === null ? null : targetColumns(ast.columns, fields, ast.name.at(-1)!);
  const input = bindSource(ast.source, ctx, fields, targets);
  return makeInsert(name, ast.overwrite ? 'overwrite' : 'append', input, fields);
}

/**
 * CREATE TABLE AS: a new table with the query's columns (nullable), written with `append`. When the table exists:
 * IF NOT EXISTS answers 0 rows and writes nothing (PostgreSQL's notice case); without it, the rows go into that
 * table with `error_if_not_empty` (the provider refuses a table that holds rows), cast as INSERT casts them.
 */
export function bindCreateTableAs(ast: CreateTableAst, ctx: BindContext): LogicalPlan {
  const joined = ast.name.join('.');
  if (ctx.catalog.table(joined) !== undefined) {
    if (ast.ifNotExists)
      return { kind: 'values', rows: [[{ kind: 'literal', value: 0, type: INT64 }]], schema: COUNT_SCHEMA };
    const { name, provider } = writableTable(ast.name, ctx.catalog, 'CREATE TABLE AS');
    const fields = provider.schema.fields;
    const source = ctx.bindQuery(ast.source, ctx);
    if (source.schema.fields.length !== fields.length)
      throw new PlanError(
        `relation "${joined}" already exists with ${fields.length} columns; the query has ${source.schema.fields.length}`,
      );
    return makeInsert(name, 'error_if_not_empty', assignColumns(source, fields, null), fields);
  }
  if (ctx.catalog.writes === undefined) throw noWritableCatalog('CREATE TABLE AS');
  const source = ctx.bindQuery(ast.source, ctx);
  // An untyped literal or NULL column is text, as in PostgreSQL.
  const types = source.schema.fields.map((f) => (f.type.id === 'null' ? UTF8 : f.type));
  const input = castArm(source, types);
  const columns = input.schema.fields.map(
    (f): Field => ({ name: f.name, qualifier: null, type: f.type, nullable: true }),
  );
  for (const f of columns) checkStorable(f);
  checkDistinctNames(ast.source);
  const definition = {
    name: ast.name,
    schema: { fields: columns },
    partitionBy: partitionFields(ast.partitionBy, columns),
  };
  const plan = makeInsert(joined, 'append', input, columns);
  return { ...plan, create: { definition, ifNotExists: ast.ifNotExists } };
}

/**
 * A SELECT's output names given twice (`SELECT 1 AS x, 2 AS x`): PostgreSQL refuses the table. The binder renames
 * the second `x_1`, so the names are read from the select list (a `*` expanding to a name twice is not caught).
 */
function checkDistinctNames(source: Ast): void {
  if (source?.type !== 'select' || !Array.isArray(source.columns)) return;
  const seen = new Set<string>();
  for (const c of source.columns) {
    const ref = c.expr?.type === 'column_ref' ? c.expr.column : null;
    const name = c.as ?? (typeof ref === 'string' ? ref : (ref?.expr?.value ?? null));
    if (typeof name !== 'string' || name === '*') continue;
    if (seen.has(name.toLowerCase())) throw new PlanError(`column "${name}" specified more than once`);
    seen.add(name.toLowerCase());
  }
}

function makeInsert(table: string, mode: Insert['mode'], input: LogicalPlan, fields: readonly Field[]): Insert {
  const notNull = fields.filter((f) => !f.nullable).map((f) => f.name);
  return { kind: 'insert', table, mode, input, notNull, create: null, schema: COUNT_SCHEMA };
}

/** The table a write goes to, which must exist and take writes. */
export function writableTable(
  parts: readonly string[],
  catalog: Catalog,
  what: string,
): { name: string; provider: TableProvider & Required<Pick<TableProvider, 'write'>> } {
  const name = parts.join('.');
  const provider = catalog.table(name);
  if (provider === undefined) throw new PlanError(`relation "${name}" does not exist`);
  if (provider.write === undefined)
    throw new NotSupportedError(`${what} into "${name}" is not supported: the table is read-only`);
  return { name, provider: provider as TableProvider & Required<Pick<TableProvider, 'write'>> };
}

export function noWritableCatalog(what: string): NotSupportedError {
  return new NotSupportedError(`${what} is not supported: the catalog has no writable namespace`);
}

/** For each named column, its index in the table; PostgreSQL's messages for an unknown or repeated name. */
function targetColumns(columns: readonly string[], fields: readonly Field[], relation: string): number[] {
  const seen = new Set<number>();
  return columns.map((c) => {
    const i = fields.findIndex((f) => f.name === c);
    if (i < 0) throw new PlanError(`column "${c}" of relation "${relation}" does not exist`);
    if (seen.has(i)) throw new PlanError(`column "${c}" specified more than once`);
    seen.add(i);
    return i;
  });
}

/**
 * The source rows as the table's columns: each value cast to its column, NULL for columns not named. A plain
 * VALUES list is cast row by row (a quoted literal takes its column's type, as in PostgreSQL).
 */
function bindSource(ast: Ast, ctx: BindContext, fields: readonly Field[], targets: number[] | null): LogicalPlan {
  if (ast?.type === 'values' && !ast.with && !ast.orderby && !ast.limit) {
    const rows = bindValueRows(ast.values.map(defaultsAsNull), ctx);
    const order = checkCount(rows[0]!.length, fields, targets);
    const schema: Schema = { fields: fields.map((f) => ({ ...f, qualifier: null, nullable: true })) };
    return { kind: 'values', rows: rows.map((r) => placed(r, fields, order)), schema };
  }
  const source = ctx.bindQuery(ast, ctx);
  return assignColumns(source, fields, targets);
}

/** `DEFAULT` in a VALUES row: the column's default, which is NULL (tables here declare no defaults). */
function defaultsAsNull(row: Ast): Ast {
  if (row?.type !== 'expr_list' || !Array.isArray(row.value)) return row;
  const isDefault = (v: Ast) =>
    v?.type === 'column_ref' &&
    !v.table &&
    v.column?.expr?.type === 'default' &&
    /^default$/i.test(v.column.expr.value);
  return { ...row, value: row.value.map((v: Ast) => (isDefault(v) ? { type: 'null', value: null } : v)) };
}

function assignColumns(source: LogicalPlan, fields: readonly Field[], targets: number[] | null): LogicalPlan {
  const order = checkCount(source.schema.fields.length, fields, targets);
  const exprs = placed(outputExprs(source), fields, order);
  const out = fields.map((f): Field => ({ ...f, qualifier: null, nullable: true }));
  return source.kind === 'project' ? { ...source, exprs, schema: { fields: out } } : makeProject(source, exprs, out);
}

/** For each table column, the index of the source column written to it, or -1 (NULL). */
function checkCount(width: number, fields: readonly Field[], targets: number[] | null): number[] {
  const columns = targets ?? fields.map((_, i) => i);
  if (width > columns.length) throw new PlanError('INSERT has more expressions than target columns');
  // Without a column list, a shorter source fills the first columns (PostgreSQL).
  if (targets !== null && width < targets.length)
    throw new PlanError('INSERT has more target columns than expressions');
  const order = fields.map(() => -1);
  for (let k = 0; k < width; k++) order[columns[k]!] = k;
  return order;
}

function placed(values: readonly Expr[], fields: readonly Field[], order: readonly number[]): Expr[] {
  return fields.map((f, i) => {
    const k = order[i]!;
    return k < 0 ? { kind: 'literal', value: null, type: f.type } : assignTo(values[k]!, f.type, f.name);
  });
}
