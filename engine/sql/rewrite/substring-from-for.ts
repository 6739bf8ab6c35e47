// `substring(s FROM a FOR b)` -> `substring(s,    a,   b)`: the parser only takes FROM/FOR after string literals.
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

/**
 * Rewrites the SQL-standard forms `substring(s FROM a FOR b)`, `substring(s FROM a)` and `substring(s FOR b)`
 * into plain calls, keeping every offset. Does not rewrite `FOR … FROM …` (reversed) or `SIMILAR … ESCAPE`.
 */
export const substringFromFor: SqlRewrite = {
  name: 'substring-from-for',
  edit(all) {
    const tokens = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (!isWord(tokens[i], 'substring') || tokens[i + 1]!.text !== '(' || tokens[i - 1]?.text === '.') continue;
      const close = matchingParen(tokens, i + 1);
      if (close < 0) continue;
      const inner = tokens.slice(i + 2, close).filter((t) => t.depth === tokens[i + 1]!.depth + 1);
      edits.push(...fromFor(inner));
    }
    return edits;
  },
};

function fromFor(inner: readonly Token[]): SqlEdit[] {
  const from = inner.findIndex((t) => isWord(t, 'from'));
  const forAt = inner.findIndex((t) => isWord(t, 'for'));
  if (from === 0 || forAt === 0 || (from < 0 && forAt < 0) || (forAt >= 0 && from > forAt)) return [];
  const edits: SqlEdit[] = [];
  if (from > 0) edits.push(replaceKeepingLength(inner[from]!.start, inner[from]!.end, ','));
  // substring(s FOR n) starts at 1: `FOR` -> `,1,`, same length.
  if (forAt > 0) edits.push(replaceKeepingLength(inner[forAt]!.start, inner[forAt]!.end, from > 0 ? ',' : ',1,'));
  return edits;
}
