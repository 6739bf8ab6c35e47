// `$1::int` -> `CAST($1 AS int)`: the parser drops a `::` cast on a positional parameter inside an expression.
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

/** Multi-word type names after their first word: `double precision`, `timestamp without time zone`. */
const TYPE_TAILS: Record<string, readonly (readonly string[])[]> = {
  double: [['precision']],
  character: [['varying']],
  char: [['varying']],
  timestamp: [
    ['with', 'time', 'zone'],
    ['without', 'time', 'zone'],
  ],
  time: [
    ['with', 'time', 'zone'],
    ['without', 'time', 'zone'],
  ],
};

/**
 * node-sql-parser reads `1 + $1::int` as `1 + $1` and fails on `($1::int)`; `CAST($1 AS int)` parses
 * everywhere. Chains nest: `$1::text::int` -> `CAST(CAST($1 AS text) AS int)`. Offsets inside the
 * inserted text map back to the `$1` or `::` they replace.
 */
export const paramCast: SqlRewrite = {
  name: 'param-cast',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i < t.length; i++) {
      if (t[i]!.kind !== 'param' || t[i + 1]?.text !== '::') continue;
      const closes: SqlEdit[] = [];
      let j = i + 1;
      while (t[j]?.text === '::') {
        const end = typeEnd(t, j + 1);
        if (end < 0) break;
        closes.push({ start: t[j]!.start, end: t[j]!.end, text: ' AS ' });
        closes.push({ start: t[end]!.end, end: t[end]!.end, text: ')' });
        j = end + 1;
      }
      if (closes.length === 0) continue;
      edits.push({ start: t[i]!.start, end: t[i]!.start, text: 'CAST('.repeat(closes.length / 2) }, ...closes);
      i = j - 1;
    }
    return edits;
  },
};

/** Index of the last token of the type name starting at `i`, or -1 when there is none. */
export function typeEnd(t: readonly Token[], i: number): number {
  if (t[i]?.kind !== 'word' && t[i]?.kind !== 'quoted') return -1;
  const tails = TYPE_TAILS[t[i]!.text.toLowerCase()] ?? [];
  let end = tailEnd(
    t,
    i,
    tails.slice(0, 1).filter((w) => w.length === 1),
  );
  if (t[end + 1]?.text === '(') {
    const close = matchingParen(t, end + 1);
    if (close < 0) return -1;
    end = close;
  }
  end = tailEnd(t, end, tails);
  while (t[end + 1]?.text === '[' && t[end + 2]?.text === ']') end += 2;
  return end;
}

/** Past the first of `tails` whose words follow `end`, else `end`. */
function tailEnd(t: readonly Token[], end: number, tails: readonly (readonly string[])[]): number {
  const hit = tails.find((words) => words.every((w, k) => isWord(t[end + 1 + k], w)));
  return hit ? end + hit.length : end;
}
