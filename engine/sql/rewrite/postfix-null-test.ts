// `x ISNULL` -> `x IS NULL` and `x NOTNULL` -> `x IS NOT NULL` (PostgreSQL's postfix spellings; the parser read
// them as a column alias, so `SELECT x ISNULL` answered x).
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

export const postfixNullTest: SqlRewrite = {
  name: 'postfix-null-test',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 1; i < t.length; i++) {
      const word = isWord(t[i], 'isnull') ? 'IS NULL' : isWord(t[i], 'notnull') ? 'IS NOT NULL' : null;
      // ISNULL and NOTNULL are reserved in PostgreSQL: never a name; `isnull(` is left for the binder to refuse.
      if (word === null || t[i + 1]?.text === '(' || isWord(t[i - 1], 'as')) continue;
      edits.push({ start: t[i]!.start, end: t[i]!.end, text: word });
    }
    return edits;
  },
};
