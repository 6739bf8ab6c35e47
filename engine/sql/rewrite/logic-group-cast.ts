// `(a OR b)::boolean` -> `CAST((a OR b) AS boolean)`: the parser rejects `::` after a parenthesised AND/OR outside SELECT.
import type { SqlEdit } from './edit.js';
import { typeEnd } from './param-cast.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, keyword, significant, type Token } from './tokenize.js';

/**
 * The predicate positions where the parser fails (after them `(` opens an expression, never a call's arguments);
 * in a SELECT list it reads the cast itself, and the column keeps its name.
 */
const BEFORE_EXPRESSION = new Set(['where', 'and', 'or', 'not', 'on', 'when', 'having']);

/**
 * node-sql-parser reads `SELECT (a OR b)::boolean` but fails on the same cast in WHERE, ON, HAVING or CASE WHEN
 * (PostgreSQL takes it everywhere). A group holding AND/OR at its own level and followed by `::type` becomes
 * `CAST((…) AS type)`, which parses everywhere.
 */
export const logicGroupCast: SqlRewrite = {
  name: 'logic-group-cast',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let j = 0; j < t.length; j++) {
      if (t[j]!.text !== ')' || t[j + 1]?.text !== '::') continue;
      const open = openingParen(t, j);
      if (open < 0 || !BEFORE_EXPRESSION.has(keyword(t[open - 1]) ?? '') || !holdsLogic(t, open, j)) continue;
      // A chain nests: `(a OR b)::text::boolean` -> `CAST(CAST((a OR b) AS text) AS boolean)`.
      const closes: SqlEdit[] = [];
      let k = j + 1;
      while (t[k]?.text === '::') {
        const end = typeEnd(t, k + 1);
        if (end < 0) break;
        closes.push(
          { start: t[k]!.start, end: t[k]!.end, text: ' AS ' },
          { start: t[end]!.end, end: t[end]!.end, text: ')' },
        );
        k = end + 1;
      }
      if (closes.length === 0) continue;
      edits.push({ start: t[open]!.start, end: t[open]!.start, text: 'CAST('.repeat(closes.length / 2) }, ...closes);
      j = k - 1;
    }
    return edits;
  },
};

function openingParen(t: readonly Token[], close: number): number {
  for (let i = close - 1; i >= 0; i--) if (t[i]!.text === '(' && t[i]!.depth === t[close]!.depth) return i;
  return -1;
}

function holdsLogic(t: readonly Token[], open: number, close: number): boolean {
  const inner = t[open]!.depth + 1;
  for (let i = open + 1; i < close; i++)
    if (t[i]!.depth === inner && (isWord(t[i], 'and') || isWord(t[i], 'or'))) return true;
  return false;
}
