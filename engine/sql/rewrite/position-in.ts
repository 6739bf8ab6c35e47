// `position(a IN b)` -> `__floe_position_in(a , b)`, then the AST back to `position(b, a)` (PostgreSQL's own form).
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant } from './tokenize.js';

const MARKER = '__floe_position_in';

/**
 * The parser reads `position(x IN 'abc')` as an IN list and rejects `position(a || b IN c)`. PostgreSQL's
 * grammar turns `position(a IN b)` into the function call `position(b, a)`; so does this rewrite, through
 * a marker name whose arguments the AST fix swaps.
 */
export const positionIn: SqlRewrite = {
  name: 'position-in',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < t.length; i++) {
      if (!isWord(t[i], 'position') || t[i + 1]!.text !== '(' || t[i - 1]?.text === '.') continue;
      const close = matchingParen(t, i + 1);
      const depth = t[i + 1]!.depth + 1;
      const at = t.slice(i + 2, close).findIndex((x) => x.depth === depth && isWord(x, 'in'));
      if (close < 0 || at <= 0) continue;
      const inWord = t[i + 2 + at]!;
      edits.push({ start: t[i]!.start, end: t[i]!.end, text: MARKER });
      edits.push({ start: inWord.start, end: inWord.end, text: ', ' });
    }
    return edits;
  },
  fixNode(node) {
    if (node.type !== 'function' || node.name?.name?.length !== 1) return;
    const part = node.name.name[0];
    if (String(part.value).toLowerCase() !== MARKER) return;
    part.value = 'position';
    node.args.value.reverse();
  },
};
