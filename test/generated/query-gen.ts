// Seeded random queries over g1/g2: filters, projections, joins, GROUP BY/HAVING and subqueries, PostgreSQL syntax.
import { makeRng } from '../helpers/gen-data.js';
import {
  atom,
  chance,
  type ExprContext,
  expr,
  int,
  type Kind,
  PREC,
  paren,
  pick,
  type Scope,
  type Sql,
} from './expr-gen.js';
import { COLUMNS } from './tables.js';

export interface GeneratedCase {
  /** Position in the run: with the seed, all it takes to make the same query again. */
  readonly index: number;
  readonly sql: string;
  /** True when the query ends in ORDER BY over every output column (rows compare in order). */
  readonly ordered: boolean;
}

/** Case `index` of the run seeded with `seed`; each case has its own generator, so one can be remade alone. */
export function generateCase(seed: number, index: number, excluded: ReadonlySet<string>): GeneratedCase {
  const rng = makeRng((seed * 1_000_003 + index * 7919) >>> 0);
  const sql = query(rng, (form) => !excluded.has(form));
  return { index, sql, ordered: /ORDER BY \d/.test(sql.slice(sql.lastIndexOf(')') + 1)) };
}

type Table = keyof typeof COLUMNS;

function scopeOf(tables: readonly [Table, string][]): Scope {
  const cols: Record<Kind, string[]> = { int: [], num: [], text: [], date: [], bool: [] };
  for (const [table, alias] of tables) {
    for (const [name, kind] of Object.entries(COLUMNS[table])) cols[kind].push(`${alias}.${name}`);
  }
  return { cols };
}

const merge = (a: Scope, b: Scope): Scope => {
  const cols: Record<Kind, string[]> = { int: [], num: [], text: [], date: [], bool: [] };
  for (const k of Object.keys(cols) as Kind[]) cols[k].push(...a.cols[k], ...b.cols[k]);
  return { cols };
};

function rowContext(rng: () => number, allows: (f: string) => boolean, scope: Scope, nest: boolean): ExprContext {
  const ctx: ExprContext = {
    rng,
    allows,
    scope,
    grouped: null,
    subquery: (kind, depth) => (nest ? subquery(rng, allows, scope, kind, depth) : null),
  };
  return ctx;
}

/** A subquery over `g2 u`, correlated with the outer scope half of the time. */
function subquery(
  rng: () => number,
  allows: (f: string) => boolean,
  outer: Scope,
  kind: Kind | 'exists' | 'in',
  depth: number,
): Sql | null {
  const inner = scopeOf([['g2', 'u']]);
  // Outer columns in the subquery's filter, beyond the correlating equality.
  let correlated = chance(rng, 0.5);
  const ctx = rowContext(rng, allows, correlated ? merge(inner, outer) : inner, false);
  const outerInt = outer.cols.int.length > 0 ? pick(rng, outer.cols.int) : null;
  const conds: string[] = [];
  if (outerInt && chance(rng, 0.5)) {
    conds.push(`u.${pick(rng, ['a', 'b'])} = ${outerInt}`);
    correlated = true;
  }
  const pred = expr(ctx, 'bool', Math.min(depth, 2));
  // A correlated scalar subquery's extra filter may leave it no rows (NULL, or COUNT's 0).
  if (chance(rng, 0.6)) conds.push(paren(pred, PREC.and + 1));
  const where = conds.length > 0 ? ` WHERE ${conds.join(' AND ')}` : '';
  if (kind === 'exists') {
    const exists = atom(`EXISTS (SELECT 1 FROM g2 u${where})`);
    return chance(rng, 0.3) ? { sql: `NOT ${exists.sql}`, prec: PREC.not } : exists;
  }
  if (kind === 'in') {
    const k = pick(rng, ['int', 'int', 'text'] as const);
    const col = k === 'int' ? `u.${pick(rng, ['a', 'b'])}` : 'u.s';
    const probe = paren(expr(rowContext(rng, allows, outer, false), k, 1), PREC.range + 1);
    if (chance(rng, 0.25)) {
      const op = pick(rng, ['=', '<>', '<', '>=']);
      const q = pick(rng, ['ALL', 'ANY', 'SOME']);
      return {
        sql: `${paren(atom(probe), PREC.cmp + 1)} ${op} ${q} (SELECT ${col} FROM g2 u${where})`,
        prec: PREC.cmp,
      };
    }
    const not = chance(rng, 0.3) ? 'NOT ' : '';
    return { sql: `${probe} ${not}IN (SELECT ${col} FROM g2 u${where})`, prec: PREC.range };
  }
  // Scalar: an aggregate, so exactly one row (a second row would be an error PostgreSQL raises only if it looks).
  if (kind === 'bool' || kind === 'num') return null;
  const agg =
    kind === 'int'
      ? pick(rng, ['count(*)', 'max(u.a)', 'min(u.b)', 'sum(u.b)'])
      : `max(u.${kind === 'text' ? 's' : 'd'})`;
  return atom(`(SELECT ${agg} FROM g2 u${where})`);
}

/** FROM g1 t1, or a join of g1 t1 with g2 t2. */
function fromClause(rng: () => number, allows: (f: string) => boolean): { from: string; scope: Scope } {
  const t1 = scopeOf([['g1', 't1']]);
  if (chance(rng, 0.55)) return { from: 'g1 t1', scope: t1 };
  const scope = merge(t1, scopeOf([['g2', 't2']]));
  const key = pick(rng, ['a', 'b', 's', 'd', 'c']);
  const kind = pick(rng, ['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN', 'CROSS']);
  if (kind === 'CROSS') return { from: 'g1 t1, g2 t2', scope };
  let on = `t1.${key} = t2.${key}`;
  // PostgreSQL runs FULL JOIN only on merge- or hash-joinable conditions: extra conditions for the others.
  if (kind !== 'FULL JOIN' && chance(rng, 0.4)) {
    on += ` AND ${paren(expr(rowContext(rng, allows, scope, false), 'bool', 1), PREC.and + 1)}`;
  }
  return { from: `g1 t1 ${kind} g2 t2 ON ${on}`, scope };
}

const KINDS: readonly Kind[] = ['int', 'int', 'num', 'text', 'date', 'bool'];

function query(rng: () => number, allows: (f: string) => boolean): string {
  const { from, scope } = fromClause(rng, allows);
  const row = rowContext(rng, allows, scope, true);
  const conjuncts = chance(rng, 0.7) ? [expr(row, 'bool', int(rng, 1, 4))] : [];
  // IN (subquery) nests in expressions, and comes as a WHERE conjunct of its own too
  if (chance(rng, 0.15)) conjuncts.push(subquery(rng, allows, scope, 'in', 2)!);
  const where = conjuncts.length > 0 ? ` WHERE ${conjuncts.map((c) => paren(c, PREC.and + 1)).join(' AND ')}` : '';
  const shape = int(rng, 0, 9);
  const select = chance(rng, 0.05) ? 'SELECT ALL' : 'SELECT';
  if (shape < 6) {
    const items = Array.from({ length: int(rng, 1, 3) }, () => expr(row, pick(rng, KINDS), int(rng, 1, 3)).sql);
    // A divisor that may be zero, at the top of a select item: PostgreSQL raises iff an output row divides by 0.
    if (chance(rng, 0.08))
      items.push(`${paren(expr(row, 'int', 1), PREC.mul)} ${pick(rng, ['/', '%'])} ${pick(rng, scope.cols.int)}`);
    const distinct = chance(rng, 0.15) ? ' DISTINCT' : '';
    return `${distinct ? 'SELECT' : select}${distinct} ${items.join(', ')} FROM ${from}${where}${orderBy(rng, items.length)}`;
  }
  return grouped(rng, allows, row, `${select} `, ` FROM ${from}${where}`, shape === 9);
}

/** ORDER BY every output column (so that a LIMIT picks fixed rows), sometimes; else nothing. */
function orderBy(rng: () => number, width: number): string {
  if (chance(rng, 0.6)) return '';
  const keys = Array.from({ length: width }, (_, i) => {
    const dir = pick(rng, ['', ' DESC', ' ASC']);
    return `${i + 1}${dir}${chance(rng, 0.2) ? pick(rng, [' NULLS FIRST', ' NULLS LAST']) : ''}`;
  });
  const limit = chance(rng, 0.5)
    ? ` LIMIT ${int(rng, 0, 6)}${chance(rng, 0.3) ? ` OFFSET ${int(rng, 0, 4)}` : ''}`
    : '';
  return ` ORDER BY ${keys.join(', ')}${limit}`;
}

/** Group keys the row scope offers, by kind (expressions in parentheses so that they stay whole subtrees). */
function groupKeys(rng: () => number, scope: Scope): { kind: Kind; sql: Sql }[] {
  const options: { kind: Kind; sql: Sql }[] = [];
  for (const kind of ['int', 'text', 'date', 'bool', 'num'] as const) {
    for (const col of scope.cols[kind]) if (!col.endsWith('.id')) options.push({ kind, sql: atom(col) });
  }
  options.push({ kind: 'int', sql: atom(`(${pick(rng, scope.cols.int)} % 3)`) });
  return Array.from({ length: int(rng, 1, 2) }, () => pick(rng, options)).filter(
    (k, i, all) => all.findIndex((x) => x.sql.sql === k.sql.sql) === i,
  );
}

/** An aggregate of a row-level expression of the given kind. */
function aggregateOf(rng: () => number, row: ExprContext, kind: Kind): Sql | null {
  const arg = (k: Kind) => expr(row, k, int(rng, 0, 2)).sql;
  switch (kind) {
    case 'int': {
      // count((a) * 2) and count(DISTINCT (a) * 2): a parenthesised operand first
      const counts = ['count(*)', `count(${arg(pick(rng, KINDS))})`, `count(DISTINCT ${arg('int')})`];
      return atom(pick(rng, [...counts, `sum(${arg('int')})`, `max(${arg('int')})`, `min(${arg('int')})`]));
    }
    case 'num':
      return atom(`${pick(rng, ['sum', 'min', 'max'])}(${arg('num')})`);
    case 'text':
    case 'date':
      return atom(`${pick(rng, ['min', 'max'])}(${arg(kind)})`);
    case 'bool':
      return null;
  }
}

function grouped(
  rng: () => number,
  allows: (f: string) => boolean,
  row: ExprContext,
  select: string,
  from: string,
  global: boolean,
): string {
  const keys = global ? [] : groupKeys(rng, row.scope);
  const inAggregate: ExprContext = row;
  const byKind: Record<Kind, Sql[]> = { int: [], num: [], text: [], date: [], bool: [] };
  for (const k of keys) byKind[k.kind].push(k.sql);
  const agg: ExprContext = {
    rng,
    allows,
    scope: row.scope,
    grouped: { keys: byKind, aggregate: (kind) => aggregateOf(rng, inAggregate, kind) },
    subquery: () => null,
  };
  const items = [...keys.map((k) => k.sql.sql)];
  for (let i = int(rng, 1, 3); i > 0; i--) {
    // avg is numeric with PostgreSQL's own scale: only ever a whole output column.
    if (chance(rng, 0.15)) items.push(`avg(${expr(inAggregate, 'int', 1).sql})`);
    else items.push(expr(agg, pick(rng, KINDS), int(rng, 0, 2)).sql);
  }
  const groupBy = keys.length > 0 ? ` GROUP BY ${keys.map((k) => k.sql.sql).join(', ')}` : '';
  // HAVING without aggregates (global too) groups the query into one row
  const having = chance(rng, 0.4) ? ` HAVING ${expr(agg, 'bool', 2).sql}` : '';
  return `${select}${items.join(', ')}${from}${groupBy}${having}${orderBy(rng, items.length)}`;
}
