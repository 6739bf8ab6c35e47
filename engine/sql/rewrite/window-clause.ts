// `moveWindowClauses`: node-sql-parser reads `WINDOW …` only after ORDER BY/LIMIT/OFFSET, so the tail moves before it.
//
// PostgreSQL's order is `… HAVING … WINDOW w AS (…) ORDER BY … LIMIT …`; node-sql-parser 5.4 accepts the
// WINDOW clause only last and silently drops an ORDER BY or LIMIT written after it. So:
//   SELECT … WINDOW w AS (…) ORDER BY x LIMIT 3 -> SELECT … ORDER BY x LIMIT 3 WINDOW w AS (…)
// The moved text is verbatim, so offsets inside it still map back exactly (`source`).
import type { SqlEdit } from './edit.js';
import { keyword, matchingParen, type Token } from './tokenize.js';

const SET_OPERATORS = new Set(['union', 'intersect', 'except']);

/** Edits over `tokens`, the significant tokens of `sql` (see `significant`). */
export function moveWindowClauses(sql: string, tokens: readonly Token[]): SqlEdit[] {
  const edits: SqlEdit[] = [];
  const word = (i: number) => keyword(tokens[i]);
  const isPunct = (i: number, p: string) => tokens[i]?.kind === 'punct' && tokens[i]!.text === p;
  for (let i = 0; i < tokens.length; i++) {
    if (!(word(i) === 'window' && tokens[i + 1] && word(i + 2) === 'as' && isPunct(i + 3, '('))) continue;
    let last = closing(tokens, i + 3);
    while (isPunct(last + 1, ',') && word(last + 3) === 'as' && isPunct(last + 4, '('))
      last = closing(tokens, last + 4);
    const tailEnd = statementEnd(tokens, last + 1);
    if (tailEnd > last + 1) {
      const from = tokens[last + 1]!.start;
      const to = tokens[tailEnd - 1]!.end;
      const at = tokens[i]!.start;
      edits.push({ start: at, end: at, text: `${sql.slice(from, to)} `, source: from });
      edits.push({ start: from, end: to, text: '' });
    }
    i = tailEnd - 1;
  }
  return edits;
}

/** The `)` matching the `(` at `open`; the last token when there is none. */
function closing(tokens: readonly Token[], open: number): number {
  const close = matchingParen(tokens, open);
  return close < 0 ? tokens.length - 1 : close;
}

/** The index of the first token after the SELECT that `from` is in: `)` closing it, `;`, or a set operator. */
function statementEnd(tokens: readonly Token[], from: number): number {
  let depth = 0;
  for (let j = from; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')' && --depth < 0) return j;
    else if (depth === 0 && t.kind === 'punct' && t.text === ';') return j;
    else if (depth === 0 && t.kind === 'word' && SET_OPERATORS.has(t.text.toLowerCase())) return j;
  }
  return tokens.length;
}
