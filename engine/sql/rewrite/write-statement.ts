// `readWriteStatement`: INSERT [OVERWRITE], CREATE TABLE [AS], CREATE SCHEMA and DROP TABLE, read from the tokens
// (node-sql-parser reads neither INSERT OVERWRITE nor PARTITIONED BY, and its names lose their quoting). The query
// of INSERT and CREATE TABLE AS is left to the ordinary query parser: its offset in the text is recorded.
import { StatementReader } from './statement-reader.js';
import { isWord } from './tokenize.js';

/** A column of `CREATE TABLE t (...)`: the type as written (`numeric`, [10, 2]), not yet resolved. */
export interface ColumnDefAst {
  readonly name: string;
  readonly type: string;
  readonly args: readonly number[];
  readonly notNull: boolean;
}

/** One item of `PARTITIONED BY (...)`: a column (`transform` null) or `transform(args...)`. */
export interface PartitionAst {
  readonly transform: string | null;
  readonly args: readonly (string | number)[];
}

/** Common to every statement read here: `unsupported` is the reason it is refused (raised when it is bound). */
interface WriteAstBase {
  readonly floeWrite: true;
  readonly name: readonly string[];
  readonly unsupported?: string;
}

export interface InsertAst extends WriteAstBase {
  readonly type: 'insert';
  readonly overwrite: boolean;
  readonly columns: readonly string[] | null;
  /** Offset of the source query in the statement text; `source` is its AST once parsed. */
  readonly query: number;
  source?: unknown;
}

export interface CreateTableAst extends WriteAstBase {
  readonly type: 'create';
  readonly keyword: 'table';
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDefAst[] | null;
  readonly partitionBy: readonly PartitionAst[];
  /** CREATE TABLE AS: offset of the query; null for a column list. */
  readonly query: number | null;
  source?: unknown;
}

export interface CreateSchemaAst extends WriteAstBase {
  readonly type: 'create';
  readonly keyword: 'schema';
  readonly ifNotExists: boolean;
}

export interface DropTableAst extends WriteAstBase {
  readonly type: 'drop';
  readonly keyword: 'table';
  readonly ifExists: boolean;
}

/** A write statement refused as not supported yet (UPDATE, DELETE, MERGE...): `statement` names it. */
export interface UnsupportedAst extends WriteAstBase {
  readonly type: 'unsupported';
  readonly statement: string;
  readonly unsupported: string;
}

export type WriteAst = InsertAst | CreateTableAst | CreateSchemaAst | DropTableAst | UnsupportedAst;

/** Statements that change data which floe does not run yet (Iceberg writes are INSERT INTO / OVERWRITE only). */
const UNSUPPORTED = new Set(['update', 'delete', 'merge', 'truncate', 'alter', 'replace', 'upsert']);

const QUERY_WORDS = new Set(['select', 'with', 'values', 'table']);

/** A statement that opens with SELECT (after spaces and parentheses): never one this reader handles. */
const PLAIN_QUERY = /^[\s(]*select\b/i;

/**
 * The statement when it is one of those read here, else null (left to node-sql-parser). Throws a syntax error
 * shaped like the parser's (offsets into `sql`).
 */
export function readWriteStatement(sql: string): WriteAst | null {
  // Most statements are queries: skip tokenizing them (a leading comment takes the full path below).
  if (PLAIN_QUERY.test(sql)) return null;
  const r = new StatementReader(sql);
  // Two statements: the parser's path reports it.
  if (r.tokens.some((t) => t.text === ';')) return null;
  const first = r.keyword();
  if (first !== null && UNSUPPORTED.has(first)) {
    const statement = first.toUpperCase();
    return {
      type: 'unsupported',
      floeWrite: true,
      name: [],
      statement,
      unsupported: `${statement} statements are not supported yet`,
    };
  }
  if (first === 'with' && r.tokens.some((t) => t.depth === 0 && isWord(t, 'insert')))
    return {
      type: 'unsupported',
      floeWrite: true,
      name: [],
      statement: 'INSERT',
      unsupported: 'WITH ... INSERT is not supported yet: write INSERT INTO t WITH ... SELECT ...',
    };
  if (r.accept('insert')) return readInsert(r);
  if (r.accept('create')) {
    if (r.keyword() === 'schema') return readCreateSchema(r);
    const modifier = ['temp', 'temporary', 'unlogged'].includes(r.keyword() ?? '') ? r.keyword() : null;
    if (r.keyword(modifier ? 1 : 0) !== 'table') return null;
    return readCreateTable(r, modifier);
  }
  if (r.accept('drop')) {
    if (r.keyword() === 'schema') return unsupportedDrop('DROP SCHEMA');
    if (r.accept('table')) return readDropTable(r);
  }
  return null;
}

function readInsert(r: StatementReader): InsertAst {
  const overwrite = r.accept('overwrite');
  if (overwrite) r.accept('table');
  else r.expect('into');
  const name = r.name();
  let columns: string[] | null = null;
  if (r.peek()?.text === '(' && !QUERY_WORDS.has(r.keyword(1) ?? '') && r.peek(1)?.text !== '(') {
    r.expectPunct('(');
    columns = [r.identifier()];
    while (r.acceptPunct(',')) columns.push(r.identifier());
    r.expectPunct(')');
  }
  const insert = { type: 'insert', floeWrite: true, overwrite, name, columns, query: r.offset } as const;
  if (r.accept('default', 'values'))
    return { ...insert, unsupported: 'INSERT ... DEFAULT VALUES is not supported yet' };
  if (r.done) r.fail();
  const clause = unsupportedInsertClause(r);
  return clause ? { ...insert, unsupported: `INSERT ... ${clause} is not supported yet` } : insert;
}

/** `ON CONFLICT` or `RETURNING` at the statement's own level (not inside the query's parentheses). */
function unsupportedInsertClause(r: StatementReader): string | null {
  const depth = r.peek()?.depth ?? 0;
  for (let i = r.at; i < r.tokens.length; i++) {
    const t = r.tokens[i]!;
    if (t.depth !== depth) continue;
    if (isWord(t, 'returning')) return 'RETURNING';
    if (isWord(t, 'on') && isWord(r.tokens[i + 1], 'conflict')) return 'ON CONFLICT';
  }
  return null;
}

function readCreateSchema(r: StatementReader): CreateSchemaAst {
  r.expect('schema');
  const ifNotExists = r.accept('if', 'not', 'exists');
  const name = r.name();
  if (!r.done) r.fail();
  return { type: 'create', keyword: 'schema', floeWrite: true, ifNotExists, name };
}

function readCreateTable(r: StatementReader, modifier: string | null): CreateTableAst {
  if (modifier) r.at++;
  r.expect('table');
  const ifNotExists = r.accept('if', 'not', 'exists');
  const name = r.name();
  const columns = r.peek()?.text === '(' ? readColumnDefs(r) : null;
  const partitionBy = readPartitionedBy(r);
  let query: number | null = null;
  if (columns === null) {
    r.expect('as');
    query = r.offset;
    if (r.done) r.fail();
  } else if (!r.done) r.fail(r.keyword() === 'as' ? 'CREATE TABLE AS takes no column list here' : undefined);
  const create = {
    type: 'create',
    keyword: 'table',
    floeWrite: true,
    ifNotExists,
    name,
    columns,
    partitionBy,
    query,
  } as const;
  return modifier ? { ...create, unsupported: `CREATE ${modifier.toUpperCase()} TABLE is not supported yet` } : create;
}

function readDropTable(r: StatementReader): DropTableAst {
  const ifExists = r.accept('if', 'exists');
  const name = r.name();
  const drop = { type: 'drop', keyword: 'table', floeWrite: true, ifExists, name } as const;
  if (r.acceptPunct(',')) return { ...drop, unsupported: 'DROP TABLE of several tables is not supported yet' };
  if (r.accept('cascade')) return { ...drop, unsupported: 'DROP TABLE ... CASCADE is not supported yet' };
  r.accept('restrict');
  if (!r.done) r.fail();
  return drop;
}

function unsupportedDrop(what: string): DropTableAst {
  const unsupported = `${what} is not supported yet`;
  return { type: 'drop', keyword: 'table', floeWrite: true, ifExists: false, name: [], unsupported };
}

/** `(name type [(n[, m])] [NOT NULL | NULL], ...)`. */
function readColumnDefs(r: StatementReader): ColumnDefAst[] {
  r.expectPunct('(');
  const out: ColumnDefAst[] = [];
  do {
    if (['primary', 'unique', 'check', 'constraint', 'foreign', 'like'].includes(r.keyword() ?? ''))
      r.fail('table constraints are not supported');
    out.push(readColumnDef(r));
  } while (r.acceptPunct(','));
  r.expectPunct(')');
  return out;
}

function readColumnDef(r: StatementReader): ColumnDefAst {
  const name = r.identifier();
  const type = readTypeName(r);
  const args: number[] = [];
  if (r.acceptPunct('(')) {
    do args.push(r.integer());
    while (r.acceptPunct(','));
    r.expectPunct(')');
  }
  const zone = readTimeZone(r);
  let notNull = false;
  for (;;) {
    if (r.accept('not', 'null')) notNull = true;
    else if (!r.accept('null')) break;
  }
  if (r.peek()?.text !== ',' && r.peek()?.text !== ')')
    r.fail('column constraints other than NOT NULL are not supported');
  return { name, type: zone ? `${type} ${zone}` : type, args, notNull };
}

/** `double precision`, `character varying`, else one word. */
function readTypeName(r: StatementReader): string {
  const first = r.keyword();
  if (first === null) return r.fail();
  r.at++;
  if (first === 'double' && r.accept('precision')) return 'double precision';
  if (first === 'character' && r.accept('varying')) return 'character varying';
  return first;
}

/** `with time zone` / `without time zone` after a timestamp type. */
function readTimeZone(r: StatementReader): string | null {
  if (r.accept('with', 'time', 'zone')) return 'with time zone';
  if (r.accept('without', 'time', 'zone')) return 'without time zone';
  return null;
}

/** `PARTITIONED BY (col | transform(arg, ...), ...)`; empty when absent. */
function readPartitionedBy(r: StatementReader): PartitionAst[] {
  if (r.keyword() === 'partition' && r.keyword(1) === 'by') r.fail('use PARTITIONED BY (column | day(column) | ...)');
  if (!r.accept('partitioned', 'by')) return [];
  r.expectPunct('(');
  const out: PartitionAst[] = [];
  do out.push(readPartitionItem(r));
  while (r.acceptPunct(','));
  r.expectPunct(')');
  return out;
}

function readPartitionItem(r: StatementReader): PartitionAst {
  const first = r.identifier();
  if (!r.acceptPunct('(')) return { transform: null, args: [first] };
  const args: (string | number)[] = [];
  do args.push(r.peek()?.kind === 'number' ? r.integer() : r.identifier());
  while (r.acceptPunct(','));
  r.expectPunct(')');
  return { transform: first, args };
}
