// `WITH t AS (VALUES …)` -> `WITH t AS (SELECT * FROM (VALUES …) AS __floe_cte_values)`: the parser takes no bare
// VALUES list as a WITH entry's body.
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

/**
 * `AS ( VALUES` stands only in a WITH entry (a derived table's alias follows its parentheses, a CAST's type is no
 * query); the columns keep VALUES' names (`column1`, …) unless the entry lists its own. Only a body of rows alone
 * is rewritten: one with ORDER BY, LIMIT or a set operation after the rows is left to the parser (a syntax error).
 */
export const cteValues: SqlRewrite = {
  name: 'cte-values',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 2 < t.length; i++) {
      if (!isWord(t[i], 'as') || t[i + 1]!.text !== '(' || !isWord(t[i + 2], 'values')) continue;
      const close = matchingParen(t, i + 1);
      if (close < 0 || !onlyRows(t, i + 3, close)) continue;
      edits.push({ start: t[i + 2]!.start, end: t[i + 2]!.start, text: 'SELECT * FROM (' });
      edits.push({ start: t[close]!.start, end: t[close]!.start, text: ') AS __floe_cte_values' });
    }
    return edits;
  },
};

/** Whether tokens [from, close) are `(…), (…), …` and nothing else. */
function onlyRows(t: readonly Token[], from: number, close: number): boolean {
  let i = from;
  while (i < close) {
    if (t[i]!.text !== '(') return false;
    const end = matchingParen(t, i);
    if (end < 0 || end >= close) return false;
    i = end + 1;
    if (i < close && t[i++]!.text !== ',') return false;
  }
  return i === close && from < close;
}
