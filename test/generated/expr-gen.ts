// Random typed SQL expressions, printed with PostgreSQL's operator precedence and only the parentheses it needs.
import { TEXTS } from './tables.js';

export type Kind = 'int' | 'num' | 'text' | 'date' | 'bool';

/** SQL text and the binding strength of its outermost operator (PREC; higher binds tighter). */
export interface Sql {
  readonly sql: string;
  readonly prec: number;
}

/** PostgreSQL 15's precedence, loosest last (gram.y): OR < AND < NOT < IS < comparison < BETWEEN/IN/LIKE < other (||) < + - < * / % < unary minus. */
export const PREC = { or: 1, and: 2, not: 3, is: 4, cmp: 5, range: 6, other: 7, add: 8, mul: 9, neg: 10, atom: 11 };

export interface Scope {
  /** Columns by kind, as qualified references (`t1.a`). */
  readonly cols: Readonly<Record<Kind, readonly string[]>>;
}

export interface ExprContext {
  readonly rng: () => number;
  /** False when the form is on this run's exclusion list. */
  allows(form: string): boolean;
  /** Row-level columns in reach (the FROM items, plus outer ones in a correlated subquery). */
  readonly scope: Scope;
  /** In a grouped query: group-key expressions by kind, and a maker of aggregate calls; null otherwise. */
  readonly grouped: { keys: Record<Kind, Sql[]>; aggregate(kind: Kind): Sql | null } | null;
  /** A scalar subquery of `kind`, an [NOT] EXISTS or an `x [NOT] IN (subquery)`; null when none may be made here. */
  subquery(kind: Kind | 'exists' | 'in', depth: number): Sql | null;
}

export const atom = (sql: string): Sql => ({ sql, prec: PREC.atom });
export const paren = (e: Sql, min: number) => (e.prec < min ? `(${e.sql})` : e.sql);

export const int = (rng: () => number, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
export const chance = (rng: () => number, p: number) => rng() < p;

/** A left-associative binary operator at `prec`: the right side needs to bind tighter. */
const binary = (l: Sql, op: string, r: Sql, prec: number): Sql => ({
  sql: `${paren(l, prec)} ${op} ${paren(r, prec + 1)}`,
  prec,
});
/** A non-associative operator (comparison, IS, BETWEEN): both sides bind tighter. */
const nonAssoc = (l: Sql, rest: string, prec: number): Sql => ({ sql: `${paren(l, prec + 1)} ${rest}`, prec });

/** `x IS ...`: a comparison, IN, LIKE or BETWEEN operand goes bare (`a < b IS NULL`). */
const isOver = (l: Sql, rest: string): Sql => nonAssoc(l, rest, PREC.is);

export function literal(rng: () => number, kind: Kind): Sql {
  switch (kind) {
    case 'int': {
      const v = int(rng, -3, 9);
      return { sql: String(v), prec: v < 0 ? PREC.neg : PREC.atom };
    }
    case 'num': {
      const v = (int(rng, -3000, 3000) / 100).toFixed(2);
      return { sql: v, prec: v.startsWith('-') ? PREC.neg : PREC.atom };
    }
    case 'text':
      return atom(`'${pick(rng, TEXTS).replaceAll("'", "''")}'`);
    case 'date':
      return atom(`DATE '2020-0${int(rng, 1, 3)}-${String(int(rng, 1, 28)).padStart(2, '0')}'`);
    case 'bool':
      return atom(pick(rng, ['TRUE', 'FALSE']));
  }
}

const NULL_CASTS: Record<Kind, string> = {
  int: 'CAST(NULL AS INTEGER)',
  num: 'CAST(NULL AS NUMERIC(8,2))',
  text: 'CAST(NULL AS VARCHAR)',
  date: 'CAST(NULL AS DATE)',
  bool: 'CAST(NULL AS BOOLEAN)',
};

/** A column, group key, aggregate, literal or typed NULL of `kind`. */
export function leaf(ctx: ExprContext, kind: Kind): Sql {
  const { rng } = ctx;
  if (chance(rng, 0.05)) return atom(NULL_CASTS[kind]);
  if (ctx.grouped) {
    const keys = ctx.grouped.keys[kind];
    if (keys.length > 0 && chance(rng, 0.5)) return pick(rng, keys);
    const agg = chance(rng, 0.8) ? ctx.grouped.aggregate(kind) : null;
    return agg ?? literal(rng, kind);
  }
  const cols = ctx.scope.cols[kind];
  return cols.length > 0 && chance(rng, 0.75) ? atom(pick(rng, cols)) : literal(rng, kind);
}

/** A random expression of `kind`; `depth` bounds the nesting. */
export function expr(ctx: ExprContext, kind: Kind, depth: number): Sql {
  if (depth <= 0 || chance(ctx.rng, 0.3)) return leaf(ctx, kind);
  switch (kind) {
    case 'int':
      return intExpr(ctx, depth - 1);
    case 'num':
      return numExpr(ctx, depth - 1);
    case 'text':
      return textExpr(ctx, depth - 1);
    case 'date':
      return dateExpr(ctx);
    case 'bool':
      return boolExpr(ctx, depth - 1);
  }
}

/** A divisor that is never zero: a positive literal or NULLIF(x, 0) (division by zero is not what we test here). */
function divisor(ctx: ExprContext, depth: number): Sql {
  if (chance(ctx.rng, 0.5)) return atom(String(int(ctx.rng, 1, 4)));
  return atom(`NULLIF(${expr(ctx, 'int', depth).sql}, 0)`);
}

function intExpr(ctx: ExprContext, d: number): Sql {
  const { rng } = ctx;
  const e = (k: Kind = 'int') => expr(ctx, k, d);
  switch (int(rng, 0, 11)) {
    case 0:
      return binary(e(), pick(rng, ['+', '-']), e(), PREC.add);
    case 1:
      return binary(e(), '*', e(), PREC.mul);
    case 2:
      return binary(e(), pick(rng, ['/', '%']), divisor(ctx, d), PREC.mul);
    case 3:
      return { sql: `-${paren(e(), PREC.atom)}`, prec: PREC.neg };
    case 4:
      return atom(`abs(${e().sql})`);
    case 5:
    case 6:
      return caseExpr(ctx, 'int', d);
    case 7:
      return atom(`COALESCE(${e().sql}, ${e().sql})`);
    case 8:
      return atom(`NULLIF(${e().sql}, ${e().sql})`);
    case 9:
      return atom(`length(${e('text').sql})`);
    case 10:
      return ctx.subquery('int', d) ?? leaf(ctx, 'int');
    default:
      if (chance(rng, 0.3)) return atom(`COALESCE(${int(rng, 1, 5)}, ${e().sql} / 0)`);
      return { sql: `(${e().sql} - ${e().sql}) * 2`, prec: PREC.mul };
  }
}

/** Decimals stay at scale 2 (a sum, difference or int multiple of scale-2 values): one scale per column. */
function numExpr(ctx: ExprContext, d: number): Sql {
  const { rng } = ctx;
  const scale2 = () => leaf(ctx, 'num');
  switch (int(rng, 0, 4)) {
    case 0:
      return binary(expr(ctx, 'num', d), pick(rng, ['+', '-']), expr(ctx, 'num', d), PREC.add);
    case 1:
      return binary(expr(ctx, 'num', d), '*', atom(String(int(rng, 1, 3))), PREC.mul);
    case 2:
      return atom(`COALESCE(${scale2().sql}, ${scale2().sql})`);
    case 3:
      return caseExpr(ctx, 'num', 0);
    default:
      return atom(`abs(${expr(ctx, 'num', d).sql})`);
  }
}

function textExpr(ctx: ExprContext, d: number): Sql {
  const { rng } = ctx;
  const e = () => expr(ctx, 'text', d);
  switch (int(rng, 0, 5)) {
    case 0:
      return binary(e(), '||', e(), PREC.other);
    case 1: {
      // text || int: the int side may be arithmetic (`a + b || s`), which binds tighter than ||.
      const n = expr(ctx, 'int', d);
      return chance(rng, 0.5) ? binary(n, '||', e(), PREC.other) : binary(e(), '||', n, PREC.other);
    }
    case 2:
      return atom(`${pick(rng, ['upper', 'lower'])}(${e().sql})`);
    case 3:
      return atom(`substr(${e().sql}, ${int(rng, 1, 3)}, ${int(rng, 0, 3)})`);
    case 4:
      return caseExpr(ctx, 'text', d);
    default:
      return atom(`COALESCE(${e().sql}, ${e().sql})`);
  }
}

function dateExpr(ctx: ExprContext): Sql {
  if (chance(ctx.rng, 0.5))
    return binary(leaf(ctx, 'date'), pick(ctx.rng, ['+', '-']), atom(String(int(ctx.rng, 0, 9))), PREC.add);
  return atom(`COALESCE(${leaf(ctx, 'date').sql}, ${literal(ctx.rng, 'date').sql})`);
}

/** Searched or simple CASE; every branch of one kind (num branches are plain scale-2 values). */
function caseExpr(ctx: ExprContext, kind: Kind, d: number): Sql {
  const { rng } = ctx;
  const value = () => (kind === 'num' ? leaf(ctx, 'num') : expr(ctx, kind, d));
  const elseSql = chance(rng, 0.6) ? ` ELSE ${value().sql}` : '';
  if (chance(rng, 0.35)) {
    let operand = expr(ctx, 'int', d).sql;
    if (chance(rng, 0.3)) operand = `(${operand})`;
    const whens = Array.from({ length: int(rng, 1, 3) }, () => `WHEN ${literal(rng, 'int').sql} THEN ${value().sql}`);
    return atom(`CASE ${operand} ${whens.join(' ')}${elseSql} END`);
  }
  const whens = Array.from({ length: int(rng, 1, 2) }, () => `WHEN ${expr(ctx, 'bool', d).sql} THEN ${value().sql}`);
  return atom(`CASE ${whens.join(' ')}${elseSql} END`);
}

const COMPARABLE: readonly Kind[] = ['int', 'int', 'int', 'num', 'text', 'date'];

function boolExpr(ctx: ExprContext, d: number): Sql {
  const { rng } = ctx;
  const k = pick(rng, COMPARABLE);
  const e = (kind: Kind = k) => expr(ctx, kind, d);
  switch (int(rng, 0, 13)) {
    case 0:
    case 1:
      return nonAssoc(e(), `${pick(rng, ['=', '<>', '<', '<=', '>', '>='])} ${paren(e(), PREC.cmp + 1)}`, PREC.cmp);
    case 2:
      return binary(e('bool'), 'AND', e('bool'), PREC.and);
    case 3: {
      // `a OR b AND c`: AND binds tighter
      return binary(e('bool'), 'OR', e('bool'), PREC.or);
    }
    case 4: {
      const x = e('bool');
      // `NOT (a = b) IS NULL`, `NOT EXISTS (...) IS FALSE`: NOT binds looser than IS
      return { sql: `NOT ${paren(x, PREC.not)}`, prec: PREC.not };
    }
    case 5:
      return isOver(e(), pick(rng, ['IS NULL', 'IS NOT NULL']));
    case 6: {
      const not = chance(rng, 0.3) ? 'NOT ' : '';
      return nonAssoc(e(), `${not}BETWEEN ${paren(e(), PREC.range + 1)} AND ${paren(e(), PREC.range + 1)}`, PREC.range);
    }
    case 7: {
      const items = Array.from({ length: int(rng, 1, 4) }, () => (chance(rng, 0.15) ? 'NULL' : literal(rng, k).sql));
      return nonAssoc(e(), `${chance(rng, 0.3) ? 'NOT ' : ''}IN (${items.join(', ')})`, PREC.range);
    }
    case 8: {
      const pattern = pick(rng, ['%', 'a%', '%b%', '_', '__', 'a_c', '%x', 'O%', '', 'b\\_c', '%\\%%']);
      return nonAssoc(e('text'), `${chance(rng, 0.3) ? 'NOT ' : ''}LIKE '${pattern}'`, PREC.range);
    }
    case 9:
      return isOver(e(), `IS ${chance(rng, 0.5) ? 'NOT ' : ''}DISTINCT FROM ${paren(e(), PREC.is + 1)}`);
    case 10:
      return isOver(e('bool'), pick(rng, ['IS TRUE', 'IS NOT TRUE', 'IS FALSE', 'IS NOT FALSE']));
    case 11:
      return ctx.subquery('exists', d) ?? leaf(ctx, 'bool');
    case 12:
      return ctx.subquery('in', d) ?? leaf(ctx, 'bool');
    default:
      return leaf(ctx, 'bool');
  }
}
