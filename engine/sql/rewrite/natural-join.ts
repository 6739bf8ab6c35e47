// `a NATURAL [LEFT|RIGHT|FULL|INNER] JOIN b` -> `a [LEFT…] JOIN b USING ("__natural__")`: the parser reads NATURAL
// as an alias; the binder turns the marker column into the two sides' common column names.
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

export const NATURAL_MARKER = '__natural__';

/** Words that end a FROM item (an alias is any other word). */
const STOP = new Set(
  'on using where group having order limit offset union intersect except join inner left right full cross natural window fetch for'.split(
    ' ',
  ),
);

export const naturalJoin: SqlRewrite = {
  name: 'natural-join',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i < t.length; i++) {
      if (!isWord(t[i], 'natural')) continue;
      let j = i + 1;
      while (j < t.length && !isWord(t[j], 'join')) j++;
      if (j >= t.length) continue;
      edits.push({ start: t[i]!.start, end: t[i + 1]!.start, text: '' });
      const end = itemEnd(t, j + 1);
      if (end === null) continue;
      edits.push({ start: end, end, text: ` USING ("${NATURAL_MARKER}")` });
    }
    return edits;
  },
};

/** The offset just after the FROM item starting at token `i` (a name or parenthesised query, alias, column list). */
function itemEnd(t: readonly Token[], i: number): number | null {
  let k = i;
  if (k >= t.length) return null;
  if (t[k]!.text === '(') {
    k = matchingParen(t, k);
    if (k < 0) return null;
  } else {
    while (k + 2 < t.length && t[k + 1]!.text === '.') k += 2;
  }
  let end = t[k]!.end;
  let n = k + 1;
  if (isWord(t[n], 'as')) n++;
  const alias = t[n];
  if (alias && (alias.kind === 'quoted' || (alias.kind === 'word' && !STOP.has(alias.text.toLowerCase())))) {
    end = alias.end;
    n++;
    if (t[n]?.text === '(') {
      const close = matchingParen(t, n);
      if (close < 0) return null;
      end = t[close]!.end;
    }
  }
  return end;
}
