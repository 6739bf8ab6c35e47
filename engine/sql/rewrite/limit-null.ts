// `LIMIT NULL` -> `LIMIT ALL ` and `OFFSET NULL` -> `OFFSET 0   `: PostgreSQL reads NULL as no limit / no offset.
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, significant } from './tokenize.js';

export const limitNull: SqlRewrite = {
  name: 'limit-null',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < t.length; i++) {
      const next = t[i + 1]!;
      if (!isWord(next, 'null')) continue;
      if (isWord(t[i], 'limit')) edits.push(replaceKeepingLength(next.start, next.end, 'ALL'));
      if (isWord(t[i], 'offset')) edits.push(replaceKeepingLength(next.start, next.end, '0'));
    }
    return edits;
  },
};
