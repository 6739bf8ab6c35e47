// `groupingSetsEdits`: text edits that let node-sql-parser read GROUPING SETS and the empty grouping set `()`.
//
// The parser reads ROLLUP(…) and CUBE(…) as function calls but rejects `GROUPING SETS (…)` and `()`, so
// `GROUPING SETS (` becomes the call `GROUPING_SETS(` and an empty `()` that is not a call's argument list
// becomes `GROUPING_SETS()` (a grouping-sets list with no members cannot be written, so the spelling is free).
// The binder (bind-grouping.ts) gives these calls their meaning in GROUP BY.
import type { SqlEdit } from './edit.js';
import { isWord, type Token } from './tokenize.js';

export const GROUPING_SETS_CALL = 'grouping_sets';

/** Edits over `tokens`, the significant tokens of the text (see `significant`). */
export function groupingSetsEdits(tokens: readonly Token[]): SqlEdit[] {
  const edits: SqlEdit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (isWord(t, 'grouping') && isWord(next, 'sets') && tokens[i + 2]?.text === '(') {
      edits.push({ start: t.start, end: next!.end, text: 'GROUPING_SETS' });
      i++;
    } else if (t.text === '(' && next?.text === ')' && isEmptyGroupingSet(tokens[i - 1])) {
      edits.push({ start: t.start, end: t.start, text: 'GROUPING_SETS' });
    }
  }
  return edits;
}

/** `()` right after `(`, `,` or `BY` is an empty grouping set (after a name it is an empty argument list). */
function isEmptyGroupingSet(prev: Token | undefined): boolean {
  return prev !== undefined && (prev.text === '(' || prev.text === ',' || isWord(prev, 'by'));
}
