// `a ^ b` -> `a #- b`, then the AST's `#-` back to `^` (exponentiation, which the parser lacks).
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { significant } from './tokenize.js';

/**
 * `#-` (jsonb path deletion, which floe does not have) is an operator the parser accepts; operator-precedence.ts
 * then gives `^` its own level. A user-written `#-` is made a syntax error at its position, so it can never
 * pass for the marker.
 */
export const caretOperator: SqlRewrite = {
  name: 'caret-operator',
  edit(all) {
    const edits: SqlEdit[] = [];
    for (const t of significant(all)) {
      if (t.kind !== 'op') continue;
      // U+0001 is no SQL token: the parser stops there and reports the original operator.
      if (t.text === '^') edits.push({ start: t.start, end: t.end, text: '#-' });
      else if (t.text === '#-') edits.push({ start: t.start, end: t.start + 1, text: '\u0001' });
    }
    return edits;
  },
  fixNode(node: Ast) {
    if (node.type === 'binary_expr' && node.operator === '#-') node.operator = '^';
  },
};
