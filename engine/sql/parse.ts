// SQL text -> node-sql-parser AST (PostgreSQL dialect); the only importer of node-sql-parser.
import nodeSqlParser from 'node-sql-parser';
import { NotSupportedError, ParseError } from '../errors.js';
import { fixAst, rewriteSql } from './rewrite/expression-rewrites.js';
import { parseWithRewrites } from './rewrite/index.js';
import { reassociateOperators } from './rewrite/operator-precedence.js';
import { RewriteSyntaxError, rewriteWindowSql } from './rewrite/window-rewrite.js';

const parser = new nodeSqlParser.Parser();
const OPTIONS = { database: 'postgresql' };
const EXPLAIN_RE = /^\s*explain\s+(?:(analyze|verbose)\s+)?/i;

/** node-sql-parser's AST is untyped JSON; the binder reads it through this alias. */
// biome-ignore lint/suspicious/noExplicitAny: third-party AST without types worth binding to
export type Ast = any;

export interface ParsedStatement {
  readonly ast: Ast;
  readonly explain: boolean;
}

/** Parses exactly one statement. `EXPLAIN <query>` is recognised here (the parser lacks it). */
export function parseSql(sql: string): ParsedStatement {
  const m = EXPLAIN_RE.exec(sql);
  if (m?.[1]) throw new NotSupportedError(`EXPLAIN ${m[1].toUpperCase()} is not supported yet; use EXPLAIN`);
  const body = m ? sql.slice(m[0].length) : sql;
  if (body.trim() === '') throw new ParseError('empty query: the request holds no SQL statement');
  // Parser gaps are worked around by rewriting the text (rewrite/); error offsets map back to `sql`.
  const shift = m ? m[0].length : 0;
  const rewritten = rewriteSql(body);
  let ast: Ast;
  try {
    ast = reassociateOperators(fixAst(parseWithRewrites(rewritten.sql, astifyArm)));
  } catch (e) {
    throw new ParseError(describeSyntaxError(e, sql, (offset) => rewritten.toOriginal(offset) + shift));
  }
  // A lone `;` parses as an empty statement list (`[[]]`).
  const statements = Array.isArray(ast)
    ? ast.filter((s) => s !== null && !(Array.isArray(s) && s.length === 0))
    : [ast];
  if (statements.length === 0) throw new ParseError('empty query: the request holds no SQL statement');
  if (statements.length !== 1) {
    throw new ParseError(`expected exactly one SQL statement, found ${statements.length}`);
  }
  return { ast: statements[0], explain: m !== null };
}

/** One query arm (the set-operation parser splits chains): window rewrites, node-sql-parser, then the fix-ups. */
function astifyArm(text: string): Ast {
  let rewritten: ReturnType<typeof rewriteWindowSql>;
  try {
    rewritten = rewriteWindowSql(text);
  } catch (e) {
    // As a parser error, so that the set-operation parser maps its offset from the arm to the statement.
    if (e instanceof RewriteSyntaxError)
      throw { location: { start: { offset: e.offset, line: 0, column: 0 } }, found: e.found };
    throw e;
  }
  let ast: Ast;
  try {
    ast = parser.astify(rewritten.text, OPTIONS);
  } catch (e) {
    throw shiftError(e, rewritten.toOriginal);
  }
  return rewritten.finish(ast, parseExprs);
}

/** An expression list a rewrite cut out of the text at offset `at` (PARTITION BY, a frame offset). */
function parseExprs(text: string, at: number): Ast[] {
  const prefix = 'SELECT ';
  try {
    // `SELECT $1::int + 1` gives the cast as the item itself rather than under `expr`.
    return (parser.astify(`${prefix}${text}`, OPTIONS) as Ast).columns.map((c: Ast) =>
      c.type === 'expr' ? c.expr : c,
    );
  } catch (e) {
    throw shiftError(e, (o) => Math.max(0, o - prefix.length) + at);
  }
}

/** A parser error with its location mapped back to the original text. */
function shiftError(e: unknown, toOriginal: (offset: number) => number): unknown {
  const err = e as PegError;
  const loc = err.location?.start;
  if (!loc) return e;
  return { ...err, message: err.message, location: { start: { ...loc, offset: toOriginal(loc.offset) } } };
}

/** The SQL text of an expression AST, as node-sql-parser prints it (aggregate names in lower case). */
export function astText(ast: Ast): string {
  try {
    return String(parser.exprToSQL(ast, OPTIONS)).replace(/\b(COUNT|SUM|AVG|MIN|MAX)\(/g, (m) => m.toLowerCase());
  } catch {
    return '?column?';
  }
}

interface PegError {
  message?: string;
  location?: { start: { offset: number; line: number; column: number } };
  found?: string | null;
  /** Set by the rewrites (engine/sql/rewrite) when they can say why. */
  hint?: string;
}

function describeSyntaxError(e: unknown, sql: string, toOriginal: (offset: number) => number): string {
  const err = e as PegError;
  const loc = err.location?.start;
  if (!loc) return `syntax error: ${err.message ?? String(e)}`;
  const offset = toOriginal(loc.offset);
  const before = sql.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const found = err.found == null ? 'end of input' : `"${tokenAt(sql, offset)}"`;
  const hint = err.hint ? ` (${err.hint})` : '';
  return `syntax error at line ${line}, column ${column}: unexpected ${found}${hint}\n${pointer(sql, line, column)}`;
}

function tokenAt(sql: string, offset: number): string {
  const m = /^(\w+|\S)/.exec(sql.slice(offset));
  return m ? m[1]! : sql.slice(offset, offset + 1);
}

/** The offending line with a caret under the column. */
function pointer(sql: string, line: number, column: number): string {
  const text = sql.split('\n')[line - 1] ?? '';
  return `  ${text}\n  ${' '.repeat(Math.max(0, column - 1))}^`;
}
