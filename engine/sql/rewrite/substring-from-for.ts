// `substring(s FROM a FOR b)` -> `substring(s,    a,   b)`: the parser only takes FROM/FOR after string literals.
import { NotSupportedError } from '../../errors.js';
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

/**
 * Rewrites the SQL-standard forms `substring(s FROM a FOR b)`, `substring(s FROM a)` and `substring(s FOR b)`
 * into plain calls, keeping every offset, and the reversed `substring(s FOR b FROM a)` by moving `b` to the end.
 * `substring(s SIMILAR p ESCAPE e)` is refused with a NotSupportedError (the parser cannot read it).
 */
export const substringFromFor: SqlRewrite = {
  name: 'substring-from-for',
  edit(all, sql) {
    const tokens = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (!isWord(tokens[i], 'substring') || tokens[i + 1]!.text !== '(' || tokens[i - 1]?.text === '.') continue;
      const close = matchingParen(tokens, i + 1);
      if (close < 0) continue;
      const inner = tokens.slice(i + 2, close).filter((t) => t.depth === tokens[i + 1]!.depth + 1);
      if (inner.some((t) => isWord(t, 'similar')))
        throw new NotSupportedError('substring(s SIMILAR pattern ESCAPE e) is not supported yet');
      edits.push(...fromFor(inner, tokens[close]!, sql));
    }
    return edits;
  },
};

function fromFor(inner: readonly Token[], close: Token, sql: string): SqlEdit[] {
  const from = inner.findIndex((t) => isWord(t, 'from'));
  const forAt = inner.findIndex((t) => isWord(t, 'for'));
  if (from === 0 || forAt === 0 || (from < 0 && forAt < 0)) return [];
  if (forAt >= 0 && from > forAt) return forFrom(inner, forAt, from, close, sql);
  const edits: SqlEdit[] = [];
  if (from > 0) edits.push(replaceKeepingLength(inner[from]!.start, inner[from]!.end, ','));
  // substring(s FOR n) starts at 1: `FOR` -> `,1,`, same length.
  if (forAt > 0) edits.push(replaceKeepingLength(inner[forAt]!.start, inner[forAt]!.end, from > 0 ? ',' : ',1,'));
  return edits;
}

// substring(s FOR b FROM a) -> substring(s , a, b): `FOR b` is cut and `b` copied before the closing parenthesis.
function forFrom(inner: readonly Token[], forAt: number, from: number, close: Token, sql: string): SqlEdit[] {
  if (from === forAt + 1 || from === inner.length - 1) return [];
  const length = inner[forAt + 1]!.start;
  return [
    { start: inner[forAt]!.start, end: inner[from]!.start, text: '' },
    replaceKeepingLength(inner[from]!.start, inner[from]!.end, ','),
    { start: close.start, end: close.start, text: ', ' },
    { start: close.start, end: close.start, text: sql.slice(length, inner[from - 1]!.end), source: length },
  ];
}
