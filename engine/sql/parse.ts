// SQL text -> node-sql-parser AST (PostgreSQL dialect); the only importer of node-sql-parser.
import nodeSqlParser from 'node-sql-parser';
import { NotSupportedError, ParseError } from '../errors.js';
import { BudgetedText } from './parse-budget.js';
import { fixAst, rewriteSql } from './rewrite/expression-rewrites.js';
import { parseWithRewrites } from './rewrite/index.js';
import { reassociateOperators } from './rewrite/operator-precedence.js';
import { RewriteSyntaxError, rewriteWindowSql } from './rewrite/window-rewrite.js';
import { readWriteStatement, type WriteAst } from './rewrite/write-statement.js';

const parser = new nodeSqlParser.Parser();
const OPTIONS = { database: 'postgresql' };
// The parser reads a `BudgetedText` (parse-budget.ts), which it must not turn back into a plain string by trimming.
const PARSE_OPTIONS = { database: 'postgresql', trimQuery: false };
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
  let write: WriteAst | null;
  try {
    write = readWriteStatement(body);
  } catch (e) {
    throw new ParseError(describeSyntaxError(e, sql, (o) => o + shift));
  }
  if (write === null) return { ast: parseStatement(body, sql, shift), explain: m !== null };
  // The query of INSERT / CREATE TABLE AS is parsed as any query, its error offsets shifted to the statement's.
  if ('query' in write && write.query !== null && write.unsupported === undefined)
    write.source = parseStatement(body.slice(write.query), sql, shift + write.query);
  return { ast: write, explain: m !== null };
}

/** Exactly one statement of `body` (which starts at offset `shift` of `sql`), through the rewrites and the parser. */
function parseStatement(body: string, sql: string, shift: number): Ast {
  let ast: Ast;
  try {
    const rewritten = rewriteSql(body);
    try {
      ast = reassociateOperators(fixAst(parseWithRewrites(rewritten.sql, astifyArm)));
    } catch (e) {
      throw tooDeep(e) ?? new ParseError(describeSyntaxError(e, sql, (o) => rewritten.toOriginal(o) + shift));
    }
  } catch (e) {
    // The text rewrites recurse too (10,000 nested parentheses overflow them before the parser runs).
    throw tooDeep(e) ?? e;
  }

  // A lone `;` parses as an empty statement list (`[[]]`).
  const statements = Array.isArray(ast)
    ? ast.filter((s) => s !== null && !(Array.isArray(s) && s.length === 0))
    : [ast];
  if (statements.length === 0) throw new ParseError('empty query: the request holds no SQL statement');
  if (statements.length !== 1) {
    throw new ParseError(`expected exactly one SQL statement, found ${statements.length}`);
  }
  return statements[0];
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
    ast = astify(rewritten.text);
  } catch (e) {
    throw shiftError(e, rewritten.toOriginal);
  }
  return rewritten.finish(ast, parseExprs);
}

/**
 * node-sql-parser, over a `BudgetedText` when parentheses nest deeper than `UNBUDGETED_DEPTH` (trimmed as the parser
 * trims by default, so error offsets stay as before). The worst syntax error at depth 3 costs the plain parser about
 * 60 ms (`SELECT (SELECT (SELECT 1 = )))`), while the budget's counting doubles the parse time of every statement:
 * shallow statements, nearly all of them, skip it.
 */
function astify(text: string): Ast {
  const trimmed = text.trim();
  const input = parenDepth(trimmed) > UNBUDGETED_DEPTH ? (new BudgetedText(trimmed) as unknown as string) : trimmed;
  return parser.astify(input, PARSE_OPTIONS);
}

const UNBUDGETED_DEPTH = 3;

/** The deepest nesting of `(` in the text (parentheses inside literals count too: that only costs the budget). */
function parenDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 && ++depth > deepest) deepest = depth;
    else if (c === 41 && depth > 0) depth--;
  }
  return deepest;
}

/** A statement nested too deeply for the recursion of the parser or the rewrites (10,000 `NOT`s): PostgreSQL's words. */
function tooDeep(e: unknown): ParseError | null {
  if (!(e instanceof RangeError && /call stack/i.test(e.message))) return null;
  return new ParseError('stack depth limit exceeded: the statement nests too deeply to parse');
}

/** An expression list a rewrite cut out of the text at offset `at` (PARTITION BY, a frame offset). */
function parseExprs(text: string, at: number): Ast[] {
  const prefix = 'SELECT ';
  try {
    // `SELECT $1::int + 1` gives the cast as the item itself rather than under `expr`.
    return (astify(`${prefix}${text}`) as Ast).columns.map((c: Ast) => (c.type === 'expr' ? c.expr : c));
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

/** Characters of the input an error quotes on each side of its position (a one-line body may be 100 MB). */
export const ERROR_WINDOW = 60;

function tokenAt(sql: string, offset: number): string {
  const m = /^(\w{1,60}|\S)/.exec(sql.slice(offset, offset + ERROR_WINDOW + 1));
  return m ? m[1]! : sql.slice(offset, offset + 1);
}

/** The offending line (at most ERROR_WINDOW characters each side of the column, cut with …) and a caret. */
function pointer(sql: string, line: number, column: number): string {
  let start = 0;
  for (let l = 1; l < line; l++) start = sql.indexOf('\n', start) + 1;
  const lineEnd = sql.indexOf('\n', start);
  const end = lineEnd < 0 ? sql.length : lineEnd;
  const at = start + column - 1;
  const from = Math.max(start, at - ERROR_WINDOW);
  const to = Math.min(end, at + ERROR_WINDOW);
  const head = from > start ? '…' : '';
  const text = `${head}${sql.slice(from, to)}${to < end ? '…' : ''}`;
  return `  ${text}\n  ${' '.repeat(head.length + at - from)}^`;
}
