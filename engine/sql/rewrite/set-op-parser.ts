// `SetOpParser` parses query expressions (UNION/INTERSECT/EXCEPT [ALL], VALUES) in front of node-sql-parser.
//
// node-sql-parser 5.4 gets set operations wrong in several ways: it rejects INTERSECT ALL / EXCEPT ALL, standalone
// VALUES and parenthesised arms that hold set operations, reads `FROM t UNION (SELECT …)` as a join, keeps no
// precedence (INTERSECT binds tighter), and hangs the final ORDER BY/LIMIT on the last arm. So this module splits
// every query expression at its set-operation keywords itself, hands each arm (a plain SELECT) to the parser, and
// builds the normalised nodes below. A parenthesised query expression nested anywhere (FROM, IN, a scalar
// subquery, a CTE body) is parsed the same way and reaches the parser as the placeholder
// `SELECT __floe_query_<n> FROM __floe_query_<n>`, swapped for the real node once the enclosing text is parsed.
import type { Ast } from '../parse.js';
import { isWord, keyword, matchingParen, significant, type Token, tokenize } from './tokenize.js';

/** The normalised set-operation node (binary; left-associative chains nest to the left). */
export interface SetOpAst {
  readonly type: 'set_op';
  readonly op: 'union' | 'intersect' | 'except';
  readonly all: boolean;
  readonly left: Ast;
  readonly right: Ast;
  /** ORDER BY / LIMIT written after the last arm: they apply to the whole result. */
  orderby: Ast[] | null;
  limit: Ast | null;
  /** A leading WITH list, in node-sql-parser's shape. */
  with: Ast[] | null;
}

/** A VALUES query, shaped as node-sql-parser shapes `(VALUES …)` in FROM, plus ORDER BY/LIMIT/WITH. */
export interface ValuesAst {
  readonly type: 'values';
  readonly values: Ast[];
  orderby: Ast[] | null;
  limit: Ast | null;
  with: Ast[] | null;
}

export type Astify = (text: string) => Ast;

const SET_OPS = new Set(['union', 'intersect', 'except']);
const QUERY_START = new Set(['select', 'values', 'with']);
const PLACEHOLDER = /^__floe_query_(\d+)$/;

/** Text assembled from pieces of the source, remembering where each piece came from (for error positions). */
class Piece {
  text = '';
  readonly #origins: { at: number; origin: number }[] = [];

  add(text: string, origin: number): void {
    this.#origins.push({ at: this.text.length, origin });
    this.text += text;
  }

  /** The source offset of offset `at` in this text. */
  origin(at: number): number {
    let best = { at: 0, origin: 0 };
    for (const o of this.#origins) if (o.at <= at) best = o;
    return best.origin + (at - best.at);
  }
}

export class SetOpParser {
  readonly #sql: string;
  readonly #tokens: Token[];
  readonly #astify: Astify;
  readonly #nodes: Ast[] = [];

  constructor(sql: string, astify: Astify) {
    this.#sql = sql;
    this.#tokens = significant(tokenize(sql));
    this.#astify = astify;
  }

  /** Parses the whole text as one statement (several statements go to the parser as they are). */
  statement(): Ast {
    const t = this.#tokens;
    let end = t.length;
    while (end > 0 && t[end - 1]!.text === ';') end--;
    if (end === 0 || t.slice(0, end).some((x) => x.text === ';')) return this.#astify(this.#sql);
    const first = t[0]!;
    if (first.text === '(' || QUERY_START.has(keyword(first) ?? '')) return this.#query(0, end);
    return this.#plain(0, end);
  }

  /** A query expression over tokens [from, to). */
  #query(from: number, to: number): Ast {
    const t = this.#tokens;
    if (from >= to) throw this.#syntaxError(from);
    if (this.#isWrapped(from, to)) return this.#query(from + 1, to - 1);
    if (t[from]!.text === '(' && this.#setOps(from, to).length === 0) return this.#wrapped(from, to);
    const body = isWord(t[from], 'with') ? this.#cteEnd(from, to) : from;
    if (body < 0 || body >= to) return this.#plain(from, to);
    const ops = this.#setOps(body, to);
    let node: SetOpAst | ValuesAst;
    if (ops.length > 0) node = this.#setOpChain(body, to, ops);
    else if (isWord(t[body], 'values')) node = this.#values(body, to);
    else return this.#plain(from, to);
    if (body > from) node.with = this.#parse([[from, body]], ' SELECT 1').with ?? null;
    return node;
  }

  /**
   * `( query ) ORDER BY … LIMIT …`: the clauses join the inner query, as in PostgreSQL (which rejects a second
   * ORDER BY or LIMIT).
   */
  #wrapped(from: number, to: number): Ast {
    const close = this.#close(from);
    if (close < 0 || this.#trailingClause(from, to) !== close + 1) return this.#plain(from, to);
    const inner = this.#query(from + 1, close);
    const tail = this.#parse([[close + 1, to]], '', 'SELECT 1 ');
    for (const [key, clause] of [
      ['orderby', 'ORDER BY'],
      ['limit', 'LIMIT'],
    ] as const) {
      if (!hasClause(tail, key)) continue;
      if (hasClause(inner, key)) throw this.#syntaxError(close + 1, `multiple ${clause} clauses not allowed`);
      inner[key] = tail[key];
    }
    return inner;
  }

  /** Tokens of set-operation keywords at the base depth of [from, to). */
  #setOps(from: number, to: number): number[] {
    const depth = this.#tokens[from]!.depth;
    const out: number[] = [];
    for (let i = from; i < to; i++) {
      const x = this.#tokens[i]!;
      if (x.depth === depth && SET_OPS.has(keyword(x) ?? '')) out.push(i);
    }
    return out;
  }

  /** Arms between the operators; INTERSECT binds tighter, then left to right. */
  #setOpChain(from: number, to: number, ops: readonly number[]): SetOpAst {
    const t = this.#tokens;
    const arms: [number, number][] = [];
    const kinds: { op: SetOpAst['op']; all: boolean }[] = [];
    let start = from;
    for (const at of ops) {
      arms.push([start, at]);
      const quantifier = keyword(t[at + 1]);
      const skip = quantifier === 'all' || quantifier === 'distinct' ? 2 : 1;
      kinds.push({ op: keyword(t[at]) as SetOpAst['op'], all: quantifier === 'all' });
      start = at + skip;
    }
    const clause = this.#trailingClause(start, to);
    arms.push([start, clause ?? to]);
    for (const [s, e] of arms.slice(0, -1)) this.#requireParenthesised(s, e);
    const parsed = arms.map(([s, e]) => this.#query(s, e));
    const terms: Ast[] = [parsed[0]];
    const termOps: (typeof kinds)[number][] = [];
    kinds.forEach((k, i) => {
      if (k.op === 'intersect') terms[terms.length - 1] = makeSetOp(k, terms[terms.length - 1], parsed[i + 1]);
      else {
        terms.push(parsed[i + 1]);
        termOps.push(k);
      }
    });
    let node = terms[0] as SetOpAst;
    termOps.forEach((k, i) => {
      node = makeSetOp(k, node, terms[i + 1]);
    });
    const tail = clause === null ? null : this.#parse([[clause, to]], '', 'SELECT 1 ');
    node.orderby = tail?.orderby ?? null;
    node.limit = tail?.limit?.value?.length ? tail.limit : null;
    return node;
  }

  #values(from: number, to: number): ValuesAst {
    const clause = this.#trailingClause(from, to);
    const select =
      clause === null
        ? this.#parse([[from, to]], ') AS __floe_values', 'SELECT * FROM (')
        : this.#parse(
            [
              [from, clause],
              [clause, to],
            ],
            '',
            'SELECT * FROM (',
            ') AS __floe_values ',
          );
    const values = select.from[0].expr;
    // `VALUES ()` reads as a call of a function named VALUES: an empty row list, which PostgreSQL rejects too.
    if (!Array.isArray(values?.values)) {
      let at = from + 1;
      while (at < to - 1 && !(this.#tokens[at]!.text === '(' && this.#tokens[at + 1]!.text === ')')) at++;
      if (at < to - 1) throw this.#syntaxError(at + 1, 'a VALUES row needs at least one value');
    }
    // `VALUES (1), k` reads as a parenthesised table list: a row that is not `( … )` is a syntax error.
    if (values?.type !== 'values') throw this.#syntaxError(this.#badValuesRow(from, clause ?? to));
    return {
      type: 'values',
      values: values.values,
      orderby: select.orderby ?? null,
      limit: select.limit?.value?.length ? select.limit : null,
      with: null,
    };
  }

  /** The first token of [from, to) (after VALUES) that starts a row without `(`. */
  #badValuesRow(from: number, to: number): number {
    for (let i = from + 1; i < to; i = this.#close(i) + 2) {
      if (this.#tokens[i]?.text !== '(' || this.#close(i) < 0) return i;
    }
    return to;
  }

  /** The first ORDER BY / LIMIT / OFFSET at the base depth of [from, to), or null. */
  #trailingClause(from: number, to: number): number | null {
    const depth = this.#tokens[from]?.depth;
    for (let i = from; i < to; i++) {
      const x = this.#tokens[i]!;
      const word = x.depth === depth ? keyword(x) : null;
      if (word === 'limit' || word === 'offset') return i;
      if (word === 'order' && isWord(this.#tokens[i + 1], 'by')) return i;
    }
    return null;
  }

  /** PostgreSQL: an arm other than the last may carry ORDER BY/LIMIT only inside parentheses. */
  #requireParenthesised(from: number, to: number): void {
    if (this.#isWrapped(from, to)) return;
    const at = this.#trailingClause(from, to);
    if (at === null) return;
    throw this.#syntaxError(
      to,
      'an arm of UNION/INTERSECT/EXCEPT with its own ORDER BY, LIMIT or OFFSET must be written in parentheses',
    );
  }

  /** After `WITH [RECURSIVE] name [(cols)] AS (…) [, …]`: the first token of the body, or -1. */
  #cteEnd(from: number, to: number): number {
    const t = this.#tokens;
    let i = from + 1;
    if (isWord(t[i], 'recursive')) i++;
    for (;;) {
      if (t[i]?.kind !== 'word' && t[i]?.kind !== 'quoted') return -1;
      i++;
      if (t[i]?.text === '(') i = this.#close(i) + 1;
      if (!isWord(t[i], 'as')) return -1;
      i++;
      if (isWord(t[i], 'not')) i++;
      if (isWord(t[i], 'materialized')) i++;
      const close = this.#close(i);
      if (close < 0 || close >= to) return -1;
      i = close + 1;
      if (t[i]?.text !== ',') return i;
      i++;
    }
  }

  /** Tokens [from, to) as one node-sql-parser statement. */
  #plain(from: number, to: number): Ast {
    return this.#parse([[from, to]], '');
  }

  /**
   * Parses `prefix + ranges (joined by spaces) + suffix`, with parenthesised set-operation queries inside the
   * ranges replaced by placeholders, then swaps the placeholders for their nodes. Errors carry source offsets.
   */
  #parse(ranges: readonly [number, number][], suffix: string, prefix = '', between = ' '): Ast {
    const piece = new Piece();
    const first = this.#tokens[ranges[0]![0]]!.start;
    piece.add(prefix, first);
    ranges.forEach(([from, to], k) => {
      if (k > 0) piece.add(between, this.#tokens[from]!.start);
      this.#emit(piece, from, to);
    });
    piece.add(suffix, this.#tokens[ranges[ranges.length - 1]![1] - 1]!.end);
    let ast: Ast;
    try {
      ast = this.#astify(piece.text);
    } catch (e) {
      throw relocateError(e, (at) => piece.origin(at));
    }
    return this.#substitute(Array.isArray(ast) ? ast[0] : ast);
  }

  /** Appends the text of tokens [from, to), replacing each parenthesised set-operation query by a placeholder. */
  #emit(piece: Piece, from: number, to: number): void {
    const t = this.#tokens;
    let copied = t[from]!.start;
    for (let i = from; i < to; i++) {
      const x = t[i]!;
      const close = this.#close(i);
      if (close < 0 || !this.#isSetOpQuery(i + 1, close)) continue;
      const node = this.#query(i + 1, close);
      piece.add(this.#sql.slice(copied, x.end), copied);
      // `SELECT *` would be rejected in a scalar subquery, so the placeholder names one column.
      const name = `__floe_query_${this.#nodes.length}`;
      piece.add(`SELECT ${name} FROM ${name}`, x.end);
      this.#nodes.push(node);
      copied = t[close]!.start;
      i = close - 1;
    }
    piece.add(this.#sql.slice(copied, t[to - 1]!.end), copied);
  }

  /** Whether [from, to) is a query (possibly in parentheses) with a set operation at its top level. */
  #isSetOpQuery(from: number, to: number): boolean {
    const t = this.#tokens;
    let i = from;
    while (i < to && t[i]!.text === '(') i++;
    if (i >= to || !QUERY_START.has(keyword(t[i]) ?? '')) return false;
    return this.#setOps(from, to).length > 0;
  }

  /** Replaces placeholder SELECTs (at any depth) with the nodes they stand for. */
  #substitute(ast: Ast): Ast {
    const visit = (x: Ast): Ast => {
      if (x === null || typeof x !== 'object') return x;
      const n = placeholderIndex(x);
      if (n !== null) return this.#nodes[n];
      for (const k of Object.keys(x)) x[k] = visit(x[k]);
      return x;
    };
    return visit(ast);
  }

  /** Whether [from, to) is one parenthesised group. */
  #isWrapped(from: number, to: number): boolean {
    return from < to && this.#close(from) === to - 1;
  }

  /** The index of the `)` matching a `(` at `open`; -1 when tokens[open] is no `(` or has no match. */
  #close(open: number): number {
    return this.#tokens[open]?.text === '(' ? matchingParen(this.#tokens, open) : -1;
  }

  /** An error shaped like node-sql-parser's, so that parse.ts reports it with line, column and caret. */
  #syntaxError(at: number, hint?: string): SyntaxErrorLike {
    const x = this.#tokens[at];
    const offset = x ? x.start : this.#sql.length;
    const found = x ? this.#sql.slice(x.start, x.end) : null;
    const message = `unexpected ${found === null ? 'end of input' : `"${found}"`}`;
    return { name: 'SyntaxError', message, hint, found, location: { start: { offset, line: 0, column: 0 } } };
  }
}

export interface SyntaxErrorLike {
  name: string;
  message: string;
  /** Why the text is wrong, when more can be said than "unexpected …". */
  hint?: string | undefined;
  found: string | null;
  location: { start: { offset: number; line: number; column: number } };
}

function hasClause(ast: Ast, key: 'orderby' | 'limit'): boolean {
  return key === 'orderby' ? Boolean(ast.orderby?.length) : Boolean(ast.limit?.value?.length);
}

function makeSetOp(k: { op: SetOpAst['op']; all: boolean }, left: Ast, right: Ast): SetOpAst {
  return { type: 'set_op', op: k.op, all: k.all, left, right, orderby: null, limit: null, with: null };
}

function placeholderIndex(x: Ast): number | null {
  if (x.type !== 'select' || x.from?.length !== 1 || x.where || x.columns?.length !== 1) return null;
  const m = PLACEHOLDER.exec(String(x.from[0].table ?? ''));
  return m ? Number(m[1]) : null;
}

/** A parser error with its offset mapped through `toSource` (other errors pass unchanged). */
export function relocateError(e: unknown, toSource: (at: number) => number): unknown {
  const err = e as { location?: { start: { offset: number } } };
  if (!err?.location?.start) return e;
  const start = { ...err.location.start, offset: toSource(err.location.start.offset) };
  return Object.assign(Object.create(Object.getPrototypeOf(err)), err, { location: { ...err.location, start } });
}
