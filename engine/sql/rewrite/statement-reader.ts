// `StatementReader`: a cursor over a statement's significant tokens for the hand-read statement headers
// (write-statement.ts): keywords, qualified names, integers; a syntax error is thrown as the parser throws one.
import { isWord, keyword, significant, type Token, tokenize } from './tokenize.js';

/** A syntax error shaped like node-sql-parser's, so that parse.ts reports it with its position. */
export interface SyntaxErrorLike {
  readonly location: { readonly start: { readonly offset: number; readonly line: number; readonly column: number } };
  readonly found: string | null;
  readonly hint?: string;
}

export class StatementReader {
  readonly tokens: readonly Token[];
  readonly sql: string;
  at = 0;

  constructor(sql: string) {
    this.sql = sql;
    this.tokens = significant(tokenize(sql)).filter((t, i, all) => !(t.text === ';' && i === all.length - 1));
  }

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.at + ahead];
  }

  /** The lower-cased keyword `ahead` tokens on, or null. */
  keyword(ahead = 0): string | null {
    return keyword(this.peek(ahead));
  }

  /** Consumes the keywords `words` when they all come next; false (nothing consumed) otherwise. */
  accept(...words: string[]): boolean {
    if (!words.every((w, k) => isWord(this.peek(k), w))) return false;
    this.at += words.length;
    return true;
  }

  expect(...words: string[]): void {
    for (const w of words) if (!this.accept(w)) this.fail();
  }

  /** Consumes the punctuation `text` (`(`, `,`, `)`) when it comes next. */
  acceptPunct(text: string): boolean {
    if (this.peek()?.text !== text) return false;
    this.at++;
    return true;
  }

  expectPunct(text: string): void {
    if (!this.acceptPunct(text)) this.fail();
  }

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  /** Offset of the next token in the text (its length at the end). */
  get offset(): number {
    return this.peek()?.start ?? this.sql.length;
  }

  /** An identifier: unquoted ones fold to lower case (PostgreSQL), quoted ones keep theirs. */
  identifier(): string {
    const t = this.peek();
    if (t?.kind === 'word') {
      this.at++;
      return t.text.toLowerCase();
    }
    if (t?.kind === 'quoted' && t.text.startsWith('"') && t.text.length >= 2 && t.text.endsWith('"')) {
      this.at++;
      return t.text.slice(1, -1).replaceAll('""', '"');
    }
    return this.fail();
  }

  /** `a`, `a.b`, `a.b.c`: the parts of a qualified name. */
  name(): string[] {
    const parts = [this.identifier()];
    while (this.acceptPunct('.')) parts.push(this.identifier());
    return parts;
  }

  /** A non-negative integer literal. */
  integer(): number {
    const t = this.peek();
    if (t?.kind !== 'number' || !/^\d+$/.test(t.text)) return this.fail();
    this.at++;
    return Number(t.text);
  }

  /** Throws a syntax error at the next token (or at the end of the text). */
  fail(hint?: string): never {
    const t = this.peek();
    const error: SyntaxErrorLike = {
      location: { start: { offset: t?.start ?? this.sql.length, line: 0, column: 0 } },
      found: t?.text ?? null,
      ...(hint ? { hint } : {}),
    };
    throw error;
  }
}
