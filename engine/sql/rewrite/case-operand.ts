// `CASE (x) WHEN …` -> `CASE +(x) WHEN …`, then the marker `+` is dropped from the AST: the parser reads
// `CASE (` as a call of a function named CASE.
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import { removeLeftMarker } from './is-distinct-from.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

/**
 * A unary `+` changes no value, so a user-written `CASE +(x)` losing its `+` is harmless; the marker is removed
 * from the left edge of the operand (`CASE (a) || 'x' WHEN` marks `(a)`, the left operand of `||`).
 */
export const caseOperand: SqlRewrite = {
  name: 'case-operand',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < t.length; i++) {
      if (isWord(t[i], 'case') && t[i + 1]!.text === '(')
        edits.push({ start: t[i + 1]!.start, end: t[i + 1]!.start, text: '+' });
    }
    return edits;
  },
  fixNode(node: Ast) {
    if (node.type === 'case' && node.expr) removeLeftMarker(node, 'expr');
  },
};
