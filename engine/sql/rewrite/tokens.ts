// `tokenize`: a light SQL lexer for the pre-parse rewrites: words, parentheses and opaque literals, with nesting depth.

export interface Token {
  /** `word` = keyword or identifier (upper-cased in `upper`); `quoted` = "identifier"; `literal` = string/number. */
  readonly kind: 'word' | 'quoted' | 'literal' | 'open' | 'close' | 'semicolon' | 'other';
  readonly start: number;
  readonly end: number;
  /** Upper-cased text for words, the raw text otherwise. */
  readonly upper: string;
  /** Parentheses enclosing the token (an open/close paren counts at the outer level). */
  readonly depth: number;
  /** For `open`/`close`, the index of the matching paren (-1 when unbalanced). */
  match: number;
}

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_$]/u;

/**
 * Splits SQL text into tokens, skipping whitespace and comments. Does not validate anything: unterminated
 * strings run to the end of the text and unbalanced parentheses keep `match = -1`, so that node-sql-parser
 * still reports the syntax error with its own position.
 */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  const opens: number[] = [];
  let i = 0;
  while (i < sql.length) {
    const [kind, end] = scan(sql, i);
    if (kind !== null) {
      const text = sql.slice(i, end);
      const upper = kind === 'word' ? text.toUpperCase() : text;
      const open = kind === 'close' ? opens.pop() : undefined;
      out.push({ kind, start: i, end, upper, depth: opens.length, match: open ?? -1 });
      if (kind === 'open') opens.push(out.length - 1);
      if (open !== undefined) out[open]!.match = out.length - 1;
    }
    i = end;
  }
  return out;
}

/** The token starting at `i` and where it ends; kind `null` for whitespace and comments. */
function scan(sql: string, i: number): [Token['kind'] | null, number] {
  const c = sql[i]!;
  if (/\s/.test(c)) return [null, i + 1];
  if (sql.startsWith('--', i)) return [null, endOf(sql, '\n', i + 2)];
  if (sql.startsWith('/*', i)) return [null, endOf(sql, '*/', i + 2)];
  if (c === "'") return ['literal', quoteEnd(sql, i, "'", false)];
  if ((c === 'E' || c === 'e') && sql[i + 1] === "'") return ['literal', quoteEnd(sql, i + 1, "'", true)];
  if (c === '"') return ['quoted', quoteEnd(sql, i, '"', false)];
  if (c === '$') return dollar(sql, i);
  if (WORD_START.test(c)) {
    let j = i + 1;
    while (j < sql.length && WORD_PART.test(sql[j]!)) j++;
    return ['word', j];
  }
  if (/[0-9.]/.test(c) && /[0-9]/.test(sql[c === '.' ? i + 1 : i] ?? '')) {
    return ['literal', i + /^\d*\.?\d*(?:[eE][+-]?\d+)?/.exec(sql.slice(i))![0].length];
  }
  if (c === '(') return ['open', i + 1];
  if (c === ')') return ['close', i + 1];
  return [c === ';' ? 'semicolon' : 'other', i + 1];
}

function endOf(sql: string, close: string, from: number): number {
  const at = sql.indexOf(close, from);
  return at < 0 ? sql.length : at + close.length;
}

/** End of a quoted run starting at `open` ('' or "" doubles the quote; E'' strings also take backslash escapes). */
function quoteEnd(sql: string, open: number, q: string, backslash: boolean): number {
  let i = open + 1;
  while (i < sql.length) {
    const c = sql[i]!;
    if (backslash && c === '\\') i += 2;
    else if (c === q && sql[i + 1] === q) i += 2;
    else if (c === q) return i + 1;
    else i++;
  }
  return sql.length;
}

/** `$tag$ … $tag$` is one literal; `$1` or `$name` (a parameter) is one other token. */
function dollar(sql: string, i: number): [Token['kind'], number] {
  const m = /^\$([\p{L}_][\p{L}\p{N}_]*)?\$/u.exec(sql.slice(i));
  if (m) return ['literal', endOf(sql, m[0], i + m[0].length)];
  let j = i + 1;
  while (j < sql.length && WORD_PART.test(sql[j]!)) j++;
  return ['other', j];
}
