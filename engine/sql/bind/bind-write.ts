// `bindWrite`: the statements read by rewrite/write-statement.ts (INSERT, CREATE TABLE [AS], CREATE SCHEMA,
// DROP TABLE) -> their write or DDL plan nodes.
import { NotSupportedError } from '../../errors.js';
import { type LogicalPlan, STATUS_SCHEMA } from '../../plan/logical/index.js';
import type { WriteAst } from '../rewrite/write-statement.js';
import type { BindContext } from './bind-from.js';
import { bindCreateTableAs, bindInsert, noWritableCatalog } from './bind-insert.js';
import { partitionFields, tableFields } from './bind-table-definition.js';

export function bindWrite(ast: WriteAst, ctx: BindContext): LogicalPlan {
  if (ast.unsupported !== undefined) throw new NotSupportedError(ast.unsupported);
  if (ast.type === 'insert') return bindInsert(ast, ctx);
  if (ast.type === 'create' && ast.keyword === 'table' && ast.query !== null) return bindCreateTableAs(ast, ctx);
  const { catalog } = ctx;
  switch (ast.type) {
    case 'create': {
      if (ast.keyword === 'schema') {
        if (catalog.writes === undefined) throw noWritableCatalog('CREATE SCHEMA');
        return { kind: 'create_schema', name: ast.name, ifNotExists: ast.ifNotExists, schema: STATUS_SCHEMA };
      }
      if (catalog.writes === undefined) throw noWritableCatalog('CREATE TABLE');
      const fields = tableFields(ast.columns ?? []);
      const definition = { name: ast.name, schema: { fields }, partitionBy: partitionFields(ast.partitionBy, fields) };
      return { kind: 'create_table', definition, ifNotExists: ast.ifNotExists, schema: STATUS_SCHEMA };
    }
    case 'drop':
      if (catalog.writes === undefined) throw noWritableCatalog('DROP TABLE');
      return { kind: 'drop_table', name: ast.name, ifExists: ast.ifExists, schema: STATUS_SCHEMA };
    case 'unsupported':
      throw new NotSupportedError(ast.unsupported);
  }
}
