// `SELECT ALL …` -> `SELECT …` and `f(ALL x)` -> `f(x)`: ALL is the default set quantifier, which the parser lacks.
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

/**
 * ALL is a reserved word in PostgreSQL, so after SELECT or right after a call's `(` it can only be the quantifier
 * (never a column); `UNION ALL` and `x > ALL (…)` have it elsewhere and are left alone.
 */
export const allQuantifier: SqlRewrite = {
  name: 'all-quantifier',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 1; i < t.length; i++) {
      if (!isWord(t[i], 'all')) continue;
      const prev = t[i - 1]!;
      const callOpen = prev.text === '(' && t[i - 2]?.kind === 'word';
      if (isWord(prev, 'select') || callOpen) edits.push(replaceKeepingLength(t[i]!.start, t[i]!.end, ''));
    }
    return edits;
  },
};
