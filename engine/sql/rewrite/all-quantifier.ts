// `SELECT ALL …` -> `SELECT …`: ALL is the default set quantifier, which the parser lacks (aggregate-call.ts
// drops it inside an aggregate's parentheses).
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

/** ALL is a reserved word in PostgreSQL: right after SELECT it can only be the quantifier, never a column. */
export const allQuantifier: SqlRewrite = {
  name: 'all-quantifier',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 1; i < t.length; i++) {
      if (isWord(t[i], 'all') && isWord(t[i - 1], 'select'))
        edits.push(replaceKeepingLength(t[i]!.start, t[i]!.end, ''));
    }
    return edits;
  },
};
