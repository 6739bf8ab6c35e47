// `tokenize` splits SQL text into words, quoted names, literals and punctuation, skipping comments, for text rewrites.

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Offsets into the original text: [start, end). */
  readonly start: number;
  readonly end: number;
}

/**
 * Tokens of `sql` in order. String literals ('…', E'…', $tag$…$tag$), quoted identifiers ("…") and
 * comments (-- and nested /* *\/) are single tokens or skipped, so a rewrite never looks inside them.
 * Does not validate: an unterminated literal runs to the end of the text (the parser reports it).
 */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number) => {
    out.push({ kind, text: sql.slice(start, end), start, end });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) i++;
    else if (sql.startsWith('--', i)) i = lineEnd(sql, i);
    else if (sql.startsWith('/*', i)) i = blockCommentEnd(sql, i);
    else if (c === "'") push('string', i, quotedEnd(sql, i + 1, "'", false));
    else if ((c === 'e' || c === 'E') && sql[i + 1] === "'") push('string', i, quotedEnd(sql, i + 2, "'", true));
    else if (c === '"') push('quoted', i, quotedEnd(sql, i + 1, '"', false));
    else if (c === '$') push(...dollarToken(sql, i));
    else if (/[A-Za-z_\u0080-\uffff]/.test(c)) push('word', i, scan(sql, i, /[\w$\u0080-\uffff]/));
    else if (/[0-9.]/.test(c) && /[0-9]/.test(sql[i + 1] ?? c)) push('number', i, scan(sql, i, /[0-9.eE]/));
    else push('punct', i, i + 1);
  }
  return out;
}

function scan(sql: string, from: number, re: RegExp): number {
  let j = from + 1;
  while (j < sql.length && re.test(sql[j]!)) j++;
  return j;
}

function lineEnd(sql: string, from: number): number {
  const j = sql.indexOf('\n', from);
  return j < 0 ? sql.length : j + 1;
}

/** PostgreSQL block comments nest. */
function blockCommentEnd(sql: string, from: number): number {
  let depth = 0;
  let j = from;
  while (j < sql.length) {
    if (sql.startsWith('/*', j)) {
      depth++;
      j += 2;
    } else if (sql.startsWith('*/', j)) {
      depth--;
      j += 2;
      if (depth === 0) return j;
    } else j++;
  }
  return sql.length;
}

/** The end of a quoted run starting after its opening quote; a doubled quote is an escaped one. */
function quotedEnd(sql: string, from: number, quote: string, backslash: boolean): number {
  let j = from;
  while (j < sql.length) {
    const c = sql[j]!;
    if (backslash && c === '\\') j += 2;
    else if (c === quote && sql[j + 1] === quote) j += 2;
    else if (c === quote) return j + 1;
    else j++;
  }
  return sql.length;
}

/** `$1` (a parameter) or `$tag$…$tag$` (a dollar-quoted string). */
function dollarToken(sql: string, from: number): [TokenKind, number, number] {
  const param = /^\$\d+/.exec(sql.slice(from, from + 12));
  if (param) return ['param', from, from + param[0].length];
  const tag = /^\$(?:[A-Za-z_][\w]*)?\$/.exec(sql.slice(from, from + 64));
  if (!tag) return ['punct', from, from + 1];
  const close = sql.indexOf(tag[0], from + tag[0].length);
  return ['string', from, close < 0 ? sql.length : close + tag[0].length];
}
