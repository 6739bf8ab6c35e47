// `(SELECT (x) …)` -> `(SELECT +(x) …)`, then the marker `+` is dropped from the AST: inside parentheses the
// parser reads `SELECT (` as a call of a function named SELECT, so `(SELECT (SELECT 1))` failed.
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import { removeLeftMarker } from './is-distinct-from.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

/** A unary `+` changes no value, so a user-written `SELECT +x` losing its `+` is harmless. */
export const subqueryParenItem: SqlRewrite = {
  name: 'subquery-paren-item',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 1; i + 1 < t.length; i++) {
      if (t[i - 1]!.text === '(' && isWord(t[i], 'select') && t[i + 1]!.text === '(')
        edits.push({ start: t[i + 1]!.start, end: t[i + 1]!.start, text: '+' });
    }
    return edits;
  },
  fixNode(node: Ast) {
    if (node.type === 'select' && Array.isArray(node.columns) && node.columns[0]?.expr)
      removeLeftMarker(node.columns[0], 'expr');
  },
};
