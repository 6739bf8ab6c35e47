// Rewrites that cover node-sql-parser's gaps, applied by parse.ts: text edits first, then the query-expression parser.
import type { Ast } from '../parse.js';
import { applyEdits } from './edit.js';
import { groupingSetsEdits } from './grouping-sets-edits.js';
import { type Astify, relocateError, SetOpParser } from './set-op-parser.js';
import { significant, tokenize } from './tokenize.js';

export type { SetOpAst, SyntaxErrorLike, ValuesAst } from './set-op-parser.js';

/**
 * Parses one statement's text through `astify` (node-sql-parser) with the rewrites applied. Parser errors are
 * rethrown with `location.start.offset` pointing into `sql` itself.
 */
export function parseWithRewrites(sql: string, astify: Astify): Ast {
  const edited = applyEdits(sql, groupingSetsEdits(significant(tokenize(sql))));
  try {
    return new SetOpParser(edited.sql, astify).statement();
  } catch (e) {
    throw relocateError(e, edited.toOriginal);
  }
}
