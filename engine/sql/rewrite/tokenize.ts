// `tokenize`: the one SQL lexer of the pre-parse rewrites (PostgreSQL rules): quotes, comments and parentheses.

export type TokenKind =
  | 'word'
  | 'quoted'
  | 'string'
  | 'number'
  | 'param'
  | 'variable'
  | 'op'
  | 'punct'
  | 'space'
  | 'comment';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Offsets into the tokenized text: [start, end). */
  readonly start: number;
  readonly end: number;
  /** Parenthesis nesting level; a `(` and its matching `)` share the level outside them. */
  readonly depth: number;
}

// Words take any non-ASCII character, as PostgreSQL takes any high-bit byte, except Unicode whitespace (NBSP …).
const WORD_START = /(?!\s)[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /(?!\s)[A-Za-z0-9_$\u0080-\uffff]/;
/** `$$` or `$tag$`: a tag follows identifier rules but holds no `$`. */
const DOLLAR_QUOTE = /^\$(?:(?!\s)[A-Za-z_\u0080-\uffff](?:(?!\s)[A-Za-z0-9_\u0080-\uffff])*)?\$/;
const OP_CHARS = '+-*/<>=~!@#%^&|?';
const PUNCT = '(),;[].';

/**
 * Splits SQL into tokens covering every character (whitespace and comments included), so that rewrites can
 * match keywords without ever looking inside string literals ('…', E'…' with backslash escapes, B'…', X'…',
 * N'…', $tag$…$tag$), quoted identifiers or comments (-- and nested /* *\/). Does not validate: unterminated
 * strings and comments run to the end of the text and unbalanced parentheses stay unmatched (the parser reports
 * them, at its own position).
 */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < sql.length) {
    const [kind, end] = scan(sql, i);
    const text = sql.slice(i, end);
    if (text === ')') depth = Math.max(0, depth - 1);
    out.push({ kind, text, start: i, end, depth });
    if (text === '(') depth++;
    i = end;
  }
  return out;
}

function scan(sql: string, i: number): [TokenKind, number] {
  const c = sql[i]!;
  const next = sql[i + 1] ?? '';
  if (/\s/.test(c)) return ['space', runWhile(sql, i, (ch) => /\s/.test(ch))];
  if (c === '-' && next === '-') return ['comment', lineEnd(sql, i)];
  if (c === '/' && next === '*') return ['comment', blockCommentEnd(sql, i)];
  if (c === "'") return ['string', quoteEnd(sql, i, "'", false)];
  // E'…' (backslash escapes), B'…', X'…', N'…'
  if (/[EeBbXxNn]/.test(c) && next === "'") return ['string', quoteEnd(sql, i + 1, "'", /[Ee]/.test(c))];
  if (c === '"') return ['quoted', quoteEnd(sql, i, '"', false)];
  if (c === '$') return dollar(sql, i);
  if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next))) return ['number', numberEnd(sql, i)];
  if (WORD_START.test(c)) return ['word', runWhile(sql, i + 1, (ch) => WORD_PART.test(ch))];
  if (c === ':') return ['op', next === ':' ? i + 2 : i + 1];
  if (PUNCT.includes(c)) return ['punct', i + 1];
  if (OP_CHARS.includes(c)) return ['op', opEnd(sql, i)];
  return ['punct', i + 1];
}

function runWhile(sql: string, i: number, ok: (ch: string) => boolean): number {
  while (i < sql.length && ok(sql[i]!)) i++;
  return i;
}

function lineEnd(sql: string, i: number): number {
  const nl = sql.indexOf('\n', i);
  return nl < 0 ? sql.length : nl;
}

/** PostgreSQL block comments nest. */
function blockCommentEnd(sql: string, i: number): number {
  let level = 0;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      level++;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      level--;
      i += 2;
      if (level === 0) return i;
    } else i++;
  }
  return sql.length;
}

/** The end of a quoted run starting at `i` (the opening quote); a doubled quote stays inside. */
function quoteEnd(sql: string, i: number, q: string, backslash: boolean): number {
  i++;
  while (i < sql.length) {
    const c = sql[i]!;
    if (backslash && c === '\\') i += 2;
    else if (c === q && sql[i + 1] === q) i += 2;
    else if (c === q) return i + 1;
    else i++;
  }
  return sql.length;
}

/**
 * `$1` is a parameter; `$$…$$` and `$tag$…$tag$` are dollar-quoted strings; `$name` is one token, a variable to
 * node-sql-parser (so no rewrite reads `name` as a keyword).
 */
function dollar(sql: string, i: number): [TokenKind, number] {
  const next = sql[i + 1] ?? '';
  if (/[0-9]/.test(next)) return ['param', runWhile(sql, i + 1, (ch) => /[0-9]/.test(ch))];
  const m = DOLLAR_QUOTE.exec(sql.slice(i));
  if (m) {
    const close = sql.indexOf(m[0], i + m[0].length);
    return ['string', close < 0 ? sql.length : close + m[0].length];
  }
  if (WORD_START.test(next)) return ['variable', runWhile(sql, i + 2, (ch) => WORD_PART.test(ch))];
  return ['op', i + 1];
}

function numberEnd(sql: string, i: number): number {
  const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(sql.slice(i));
  return i + (m ? m[0].length : 1);
}

/** An operator run stops before a comment start. */
function opEnd(sql: string, i: number): number {
  let j = i + 1;
  while (j < sql.length && OP_CHARS.includes(sql[j]!) && !sql.startsWith('--', j) && !sql.startsWith('/*', j)) j++;
  return j;
}

/** Tokens without whitespace and comments: what rewrites match against. */
export function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

/** The lower-cased text of a word token (a keyword or unquoted name), else null. */
export function keyword(t: Token | undefined): string | null {
  return t?.kind === 'word' ? t.text.toLowerCase() : null;
}

/** Whether `t` is the keyword `word` (case-insensitive; quoted identifiers never are). */
export function isWord(t: Token | undefined, word: string): boolean {
  return t !== undefined && t.kind === 'word' && t.text.toLowerCase() === word;
}

/** Index (into `tokens`) of the `)` matching the `(` at `open`, or -1 when unbalanced. */
export function matchingParen(tokens: readonly Token[], open: number): number {
  const depth = tokens[open]!.depth;
  for (let j = open + 1; j < tokens.length; j++) {
    if (tokens[j]!.text === ')' && tokens[j]!.depth === depth) return j;
  }
  return -1;
}
