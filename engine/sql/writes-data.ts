// `writesData`: whether a parsed statement would change data or the catalog (what a read-only caller may not run).
import type { ParsedStatement } from './parse.js';

/** Statement types that only read: queries, VALUES, and session commands that change no data (SET, SHOW). */
const READ_ONLY_TYPES = new Set(['select', 'set_op', 'values', 'show', 'set']);

/**
 * True for INSERT, UPDATE, DELETE, REPLACE, DDL (CREATE, DROP, ALTER, TRUNCATE...), GRANT, CALL and any statement
 * type not known to only read, and for `SELECT ... INTO t` (it creates a table) anywhere in a query. EXPLAIN of
 * anything is false: EXPLAIN plans without running (`parseSql` refuses EXPLAIN ANALYZE, which would run the
 * statement: supporting it must make this true for the statement it runs). Unknown types count as writes, so a
 * new one fails closed.
 */
export function writesData(statement: ParsedStatement): boolean {
  if (statement.explain) return false;
  const ast = statement.ast;
  return !READ_ONLY_TYPES.has(ast?.type) || selectsInto(ast);
}

// Walks the AST with an explicit stack: a query nested thousands of levels deep must not overflow the call stack.
function selectsInto(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const into = (node as { into?: { expr?: unknown } }).into;
    if (into?.expr !== undefined && into.expr !== null) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
