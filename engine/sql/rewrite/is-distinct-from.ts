// `a IS [NOT] DISTINCT FROM b` -> `a IS [NOT]          + b`, then the AST's `IS +b` back to IS [NOT] DISTINCT FROM.
import type { Ast } from '../parse.js';
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

/**
 * The parser reads `a IS <expr>` with IS's precedence, so the rewrite keeps IS and marks the right operand
 * with a unary `+` (which PostgreSQL rejects after IS, so no valid query holds one); the AST fix turns the
 * marked IS back into `IS DISTINCT FROM` and drops the `+`. A user-written `IS +` is made a syntax error
 * at the `+`, as PostgreSQL reports it, so it can never pass for the marker.
 */
export const isDistinctFrom: SqlRewrite = {
  name: 'is-distinct-from',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i < t.length; i++) {
      if (!isWord(t[i], 'is')) continue;
      const j = isWord(t[i + 1], 'not') ? i + 2 : i + 1;
      if (isWord(t[j], 'distinct') && isWord(t[j + 1], 'from')) {
        edits.push(replaceKeepingLength(t[j]!.start, t[j]!.end, ''));
        edits.push({ start: t[j + 1]!.start, end: t[j + 1]!.end, text: '   +' });
      } else if (t[j]?.kind === 'op' && t[j]!.text.startsWith('+')) {
        // U+0001 is no SQL token: the parser stops here and reports the original `+`.
        edits.push({ start: t[j]!.start, end: t[j]!.start + 1, text: '\u0001' });
      }
    }
    return edits;
  },
  fixNode(node) {
    if (node.type !== 'binary_expr' || (node.operator !== 'IS' && node.operator !== 'IS NOT')) return;
    if (!removeLeftMarker(node, 'right')) return;
    node.operator = node.operator === 'IS' ? 'IS DISTINCT FROM' : 'IS NOT DISTINCT FROM';
  },
};

/** Removes the marker `+` at the left edge of `parent[key]`; false when there is none. */
export function removeLeftMarker(parent: Ast, key: string): boolean {
  const e = parent[key];
  if (e === null || typeof e !== 'object' || e.parentheses) return false;
  if (e.type === 'unary_expr' && e.operator === '+') {
    parent[key] = e.expr;
    return true;
  }
  if (e.type === 'binary_expr') return removeLeftMarker(e, 'left');
  if (e.type === 'cast') return removeLeftMarker(e, 'expr');
  return false;
}
