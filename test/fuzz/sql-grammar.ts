// Seeded random SQL over the built-in TPC-H sample: expr-gen's typed expressions plus functions with extreme
// arguments, casts, intervals, windows, ROLLUP/CUBE, set operations, CTEs and nested subqueries.
import {
  atom,
  chance,
  type ExprContext,
  expr,
  int,
  type Kind,
  literal,
  PREC,
  paren,
  pick,
  type Scope,
  type Sql,
} from '../generated/expr-gen.js';
import { EXTREME_DATES, EXTREME_INTERVALS, EXTREME_INTS, EXTREME_NUMBERS, EXTREME_TEXTS } from './extremes.js';
import { SAMPLE_JOINS, SAMPLE_TABLES, SMALL_TABLES } from './sample-schema.js';

type Rng = () => number;
type Allows = (form: string) => boolean;

interface From {
  readonly sql: string;
  readonly scope: Scope;
}

const emptyCols = (): Record<Kind, string[]> => ({ int: [], num: [], text: [], date: [], bool: [] });

function tableScope(table: string, alias: string): Scope {
  const cols = emptyCols();
  for (const [name, kind] of Object.entries(SAMPLE_TABLES[table]!)) cols[kind].push(`${alias}.${name}`);
  return { cols };
}

function merge(a: Scope, b: Scope): Scope {
  const cols = emptyCols();
  for (const k of Object.keys(cols) as Kind[]) cols[k].push(...a.cols[k], ...b.cols[k]);
  return { cols };
}

/** One table, a join along a foreign key (inner or outer), or a cross join of two small tables. */
function fromClause(rng: Rng): From {
  const shape = int(rng, 0, 9);
  if (shape < 5) {
    const table = pick(rng, Object.keys(SAMPLE_TABLES));
    return { sql: `${table} t1`, scope: tableScope(table, 't1') };
  }
  if (shape < 9) {
    const [lt, lc, rt, rc] = pick(rng, SAMPLE_JOINS);
    const join = pick(rng, ['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN', 'INNER JOIN']);
    return {
      sql: `${lt} t1 ${join} ${rt} t2 ON t1.${lc} = t2.${rc}`,
      scope: merge(tableScope(lt, 't1'), tableScope(rt, 't2')),
    };
  }
  const [a, b] = [pick(rng, SMALL_TABLES), pick(rng, SMALL_TABLES)];
  return { sql: `${a} t1 CROSS JOIN ${b} t2`, scope: merge(tableScope(a, 't1'), tableScope(b, 't2')) };
}

function context(rng: Rng, allows: Allows, scope: Scope, depth: number): ExprContext {
  return {
    rng,
    allows,
    scope,
    grouped: null,
    subquery: (kind, d) => (depth > 0 ? nestedSubquery(rng, allows, scope, kind, Math.min(d, depth - 1)) : null),
  };
}

/** Scalar, EXISTS or IN subqueries over a sample table, correlated half the time; they nest `depth` deep. */
function nestedSubquery(rng: Rng, allows: Allows, outer: Scope, kind: Kind | 'exists' | 'in', depth: number): Sql {
  const table = pick(rng, Object.keys(SAMPLE_TABLES));
  const inner = tableScope(table, `s${depth}`);
  const ctx = context(rng, allows, chance(rng, 0.5) ? merge(inner, outer) : inner, depth);
  const where = chance(rng, 0.7) ? ` WHERE ${expr(ctx, 'bool', 2).sql}` : '';
  const from = ` FROM ${table} s${depth}${where}`;
  if (kind === 'exists') return atom(`${chance(rng, 0.3) ? 'NOT ' : ''}EXISTS (SELECT 1${from})`);
  const col = (k: Kind) => (inner.cols[k].length > 0 ? pick(rng, inner.cols[k]) : literal(rng, k).sql);
  if (kind === 'in') {
    const k = pick(rng, ['int', 'text', 'num', 'date'] as const);
    const probe = paren(expr(context(rng, allows, outer, 0), k, 1), PREC.range + 1);
    return { sql: `${probe} ${chance(rng, 0.3) ? 'NOT ' : ''}IN (SELECT ${col(k)}${from})`, prec: PREC.range };
  }
  // Sometimes not an aggregate: more than one row is an error the engine must report, not crash on.
  const pickOne = chance(rng, 0.2) ? col(kind) : `max(${col(kind)})`;
  const limit = chance(rng, 0.3) ? ` LIMIT ${pick(rng, ['0', '1', '2', '-1', 'NULL'])}` : '';
  return atom(`(SELECT ${pickOne}${from}${limit})`);
}

const arg = (ctx: ExprContext, kind: Kind) => expr(ctx, kind, 1).sql;

/** A count that stays small unless the run allows the huge ones (a value of 2^31 characters exhausts memory). */
function sizeArg(rng: Rng, allows: Allows): string {
  if (allows('huge-size') && chance(rng, 0.3)) return pick(rng, EXTREME_INTS);
  return pick(rng, ['0', '-1', '1', '5', '100', 'NULL', '-2147483648']);
}

/** Functions and operators called with edge-case arguments. */
function hazard(rng: Rng, allows: Allows, ctx: ExprContext): Sql {
  const i = () => pick(rng, EXTREME_INTS);
  const n = () => pick(rng, EXTREME_NUMBERS);
  const t = () => (chance(rng, 0.5) ? pick(rng, EXTREME_TEXTS) : arg(ctx, 'text'));
  const d = () => (chance(rng, 0.5) ? pick(rng, EXTREME_DATES) : arg(ctx, 'date'));
  const iv = () => pick(rng, EXTREME_INTERVALS);
  const num = () => (chance(rng, 0.5) ? n() : arg(ctx, pick(rng, ['int', 'num'] as const)));
  const forms: (() => string)[] = [
    () => `round(${num()}, ${i()})`,
    () => `trunc(${num()}, ${i()})`,
    () => `${pick(rng, ['ceil', 'floor', 'abs', 'sign', 'sqrt', 'cbrt', 'exp', 'ln', 'log10', 'degrees'])}(${num()})`,
    () => `${pick(rng, ['power', 'mod', 'log'])}(${num()}, ${num()})`,
    () => `${num()} ${pick(rng, ['+', '-', '*', '/', '%', '^'])} ${num()}`,
    () => `-${paren(atom(num()), PREC.atom)}`,
    () => `substr(${t()}, ${i()}${chance(rng, 0.5) ? `, ${i()}` : ''})`,
    () => `${pick(rng, ['left', 'right'])}(${t()}, ${i()})`,
    () => `${pick(rng, ['lpad', 'rpad'])}(${t()}, ${sizeArg(rng, allows)}${chance(rng, 0.5) ? `, ${t()}` : ''})`,
    () => `repeat(${t()}, ${sizeArg(rng, allows)})`,
    () => `split_part(${t()}, ${t()}, ${i()})`,
    () => `chr(${i()})`,
    () => `ascii(${t()})`,
    () => `strpos(${t()}, ${t()})`,
    () => `position(${t()} IN ${t()})`,
    () => `translate(${t()}, ${t()}, ${t()})`,
    () => `replace(${t()}, ${t()}, ${t()})`,
    () => `concat_ws(${t()}, ${t()}, ${num()}, ${d()})`,
    () =>
      `${pick(rng, ['upper', 'lower', 'initcap', 'reverse', 'md5', 'btrim', 'ltrim', 'rtrim', 'length', 'octet_length'])}(${t()})`,
    () =>
      `regexp_replace(${t()}, ${pick(rng, ["'a|b'", "'[0-9]+'", "'('", "'x{2,}'", "''", "'\\d'"])}, ${t()}${chance(rng, 0.5) ? ", 'g'" : ''})`,
    () =>
      `${t()} ${pick(rng, ['~', '~*', '!~', 'LIKE', 'ILIKE', 'NOT LIKE', 'SIMILAR TO'])} ${pick(rng, ["'%a%'", "'['", "'\\'", "'a_'", "'(x'", "''"])}`,
    () => `make_date(${i()}, ${pick(rng, ['1', '2', '13', '0', '-1'])}, ${pick(rng, ['1', '29', '31', '0'])})`,
    () => `date_trunc(${pick(rng, ["'year'", "'month'", "'week'", "'day'", "'hour'", "'nope'", "''"])}, ${d()})`,
    () =>
      `extract(${pick(rng, ['year', 'month', 'day', 'dow', 'doy', 'epoch', 'century', 'week', 'isoyear', 'quarter'])} FROM ${d()})`,
    () => `date_part(${pick(rng, ["'year'", "'epoch'", "'nope'"])}, ${d()})`,
    () =>
      `to_char(${chance(rng, 0.5) ? d() : num()}, ${pick(rng, ["'YYYY-MM-DD'", "'999.99'", "'FM9990'", "''", "'Day Month'", "'9G999D9'"])})`,
    () => `${d()} ${pick(rng, ['+', '-'])} ${chance(rng, 0.5) ? i() : iv()}`,
    () => `${d()} - ${d()}`,
    () => `age(${d()}, ${d()})`,
    () => `${iv()} ${pick(rng, ['*', '/'])} ${num()}`,
    () => `${iv()} ${pick(rng, ['+', '-'])} ${iv()}`,
    () =>
      `CAST(${num()} AS ${pick(rng, ['smallint', 'integer', 'bigint', 'numeric(5,2)', 'numeric(38,0)', 'real', 'double precision', 'text', 'boolean'])})`,
    () =>
      `${t()}::${pick(rng, ['integer', 'bigint', 'numeric', 'date', 'timestamp', 'interval', 'boolean', 'double precision', 'varchar(3)', 'char(2)'])}`,
    () => `${d()}::${pick(rng, ['timestamp', 'text', 'integer', 'date'])}`,
    () => `${iv()}::${pick(rng, ['text', 'numeric', 'interval'])}`,
    () => `${pick(rng, ['greatest', 'least', 'coalesce'])}(${num()}, ${num()}${chance(rng, 0.3) ? `, ${t()}` : ''})`,
    () => `nullif(${t()}, ${num()})`,
    () => `CASE WHEN ${arg(ctx, 'bool')} THEN ${num()} ELSE ${t()} END`,
    () => `${num()} ${pick(rng, ['IN', 'NOT IN'])} (${num()}, NULL, ${num()})`,
    () => `${num()} BETWEEN ${num()} AND ${num()}`,
  ];
  return atom(`(${pick(rng, forms)()})`);
}

const KINDS: readonly Kind[] = ['int', 'int', 'num', 'text', 'date', 'bool'];

function selectItem(rng: Rng, allows: Allows, ctx: ExprContext): string {
  return chance(rng, 0.35) ? hazard(rng, allows, ctx).sql : expr(ctx, pick(rng, KINDS), int(rng, 1, 3)).sql;
}

function whereClause(rng: Rng, allows: Allows, ctx: ExprContext): string {
  if (chance(rng, 0.35)) return '';
  const cond = chance(rng, 0.2)
    ? `${hazard(rng, allows, ctx).sql} ${pick(rng, ['IS NULL', 'IS NOT NULL', '= 0', "<> ''"])}`
    : expr(ctx, 'bool', int(rng, 1, 4)).sql;
  return ` WHERE ${cond}`;
}

function limitClause(rng: Rng): string {
  if (chance(rng, 0.7)) return '';
  const v = () => pick(rng, ['0', '1', '3', '-1', 'NULL', '2147483647', '9223372036854775807', '1e10', "'1'"]);
  return ` LIMIT ${v()}${chance(rng, 0.3) ? ` OFFSET ${v()}` : ''}`;
}

function orderClause(rng: Rng, width: number, ctx: ExprContext): string {
  if (chance(rng, 0.6)) return '';
  const key = () => (chance(rng, 0.7) ? String(int(rng, 0, width + 1)) : expr(ctx, pick(rng, KINDS), 1).sql);
  const keys = Array.from({ length: int(rng, 1, 3) }, () => `${key()}${pick(rng, ['', ' DESC', ' ASC NULLS FIRST'])}`);
  return ` ORDER BY ${keys.join(', ')}`;
}

function plainSelect(rng: Rng, allows: Allows, depth: number): string {
  const from = fromClause(rng);
  const ctx = context(rng, allows, from.scope, depth);
  const items = Array.from({ length: int(rng, 1, 4) }, () => selectItem(rng, allows, ctx));
  const distinct = chance(rng, 0.1) ? ' DISTINCT' : '';
  return `SELECT${distinct} ${items.join(', ')} FROM ${from.sql}${whereClause(rng, allows, ctx)}${orderClause(rng, items.length, ctx)}${limitClause(rng)}`;
}

const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'stddev', 'variance', 'var_pop', 'stddev_pop'];

function aggregate(rng: Rng, allows: Allows, ctx: ExprContext): string {
  const shape = int(rng, 0, 9);
  if (shape === 0) return 'count(*)';
  if (shape === 1) return `string_agg(${arg(ctx, 'text')}, ${pick(rng, ["','", "''", 'NULL'])})`;
  if (shape === 2) return `${pick(rng, ['bool_and', 'bool_or'])}(${arg(ctx, 'bool')})`;
  const x = chance(rng, 0.2) ? hazard(rng, allows, ctx).sql : arg(ctx, pick(rng, ['int', 'num'] as const));
  const distinct = chance(rng, 0.15) ? 'DISTINCT ' : '';
  const filter = chance(rng, 0.1) ? ` FILTER (WHERE ${arg(ctx, 'bool')})` : '';
  return `${pick(rng, AGGREGATES)}(${distinct}${x})${filter}`;
}

function groupedSelect(rng: Rng, allows: Allows, depth: number): string {
  const from = fromClause(rng);
  const ctx = context(rng, allows, from.scope, depth);
  const keys = Array.from({ length: int(rng, 1, 3) }, () =>
    chance(rng, 0.75)
      ? pick(rng, [...from.scope.cols.int, ...from.scope.cols.text, ...from.scope.cols.date])
      : arg(ctx, pick(rng, KINDS)),
  );
  const wrap = pick(rng, ['', '', 'ROLLUP', 'CUBE', 'GROUPING SETS']);
  const groupBy =
    wrap === ''
      ? keys.join(', ')
      : wrap === 'GROUPING SETS'
        ? `GROUPING SETS ((${keys.join(', ')}), (${keys[0]}), ())`
        : `${wrap} (${keys.join(', ')})`;
  const items = [...keys.slice(0, int(rng, 0, keys.length))];
  for (let n = int(rng, 1, 3); n > 0; n--) items.push(aggregate(rng, allows, ctx));
  if (wrap !== '' && chance(rng, 0.3)) items.push(`GROUPING(${keys[0]})`);
  const having = chance(rng, 0.3)
    ? ` HAVING ${aggregate(rng, allows, ctx)} ${pick(rng, ['>', '<', '=', 'IS NOT'])} ${pick(rng, ['0', 'NULL', '1e308'])}`
    : '';
  const byOrdinal = chance(rng, 0.1) ? String(int(rng, 0, items.length + 1)) : groupBy;
  return `SELECT ${items.join(', ')} FROM ${from.sql}${whereClause(rng, allows, ctx)} GROUP BY ${byOrdinal}${having}${orderClause(rng, items.length, ctx)}${limitClause(rng)}`;
}

function windowSelect(rng: Rng, allows: Allows): string {
  const from = fromClause(rng);
  const ctx = context(rng, allows, from.scope, 0);
  const col = (k: Kind) => (from.scope.cols[k].length > 0 ? pick(rng, from.scope.cols[k]) : literal(rng, k).sql);
  const partition = chance(rng, 0.6) ? `PARTITION BY ${col(pick(rng, ['int', 'text'] as const))} ` : '';
  const order = chance(rng, 0.8) ? `ORDER BY ${col(pick(rng, KINDS))}${pick(rng, ['', ' DESC'])}` : '';
  const bound = () =>
    pick(rng, [
      'UNBOUNDED PRECEDING',
      'CURRENT ROW',
      'UNBOUNDED FOLLOWING',
      `${pick(rng, EXTREME_INTS)} PRECEDING`,
      `${pick(rng, ['0', '1', '3', '2147483647'])} FOLLOWING`,
    ]);
  const frame =
    order && chance(rng, 0.4) ? ` ${pick(rng, ['ROWS', 'RANGE', 'GROUPS'])} BETWEEN ${bound()} AND ${bound()}` : '';
  const over = `OVER (${partition}${order}${frame})`;
  const fn = pick(rng, [
    'row_number()',
    'rank()',
    'dense_rank()',
    'percent_rank()',
    'cume_dist()',
    `ntile(${pick(rng, EXTREME_INTS)})`,
    `lag(${col('int')}, ${pick(rng, EXTREME_INTS)})`,
    `lead(${col('text')}, ${pick(rng, ['1', '0', '-1', '2147483647'])}, ${pick(rng, ["'x'", 'NULL', '1'])})`,
    `first_value(${col(pick(rng, KINDS))})`,
    `last_value(${col(pick(rng, KINDS))})`,
    `nth_value(${col('int')}, ${pick(rng, EXTREME_INTS)})`,
    `${pick(rng, ['sum', 'avg', 'min', 'max', 'count'])}(${col(pick(rng, ['int', 'num'] as const))})`,
  ]);
  const items = [`${fn} ${over}`, ...(chance(rng, 0.5) ? [expr(ctx, pick(rng, KINDS), 1).sql] : [])];
  return `SELECT ${items.join(', ')} FROM ${from.sql}${whereClause(rng, allows, ctx)}${limitClause(rng)}`;
}

function setOperation(rng: Rng, allows: Allows, depth: number): string {
  const op = pick(rng, ['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT', 'INTERSECT ALL', 'EXCEPT ALL']);
  const side = () => (chance(rng, 0.5) ? plainSelect(rng, allows, depth) : `(${plainSelect(rng, allows, depth)})`);
  return `${side()} ${op} ${side()}${chance(rng, 0.3) ? ' ORDER BY 1' : ''}${limitClause(rng)}`;
}

function derivedTable(rng: Rng, allows: Allows, depth: number): string {
  const inner = chance(rng, 0.5) ? plainSelect(rng, allows, depth) : groupedSelect(rng, allows, depth);
  const shape = int(rng, 0, 3);
  if (shape === 0) return `SELECT * FROM (${inner}) AS d${limitClause(rng)}`;
  if (shape === 1) return `WITH w AS (${inner}) SELECT count(*), min(1) FROM w`;
  if (shape === 2) {
    const stop = pick(rng, ['0', '5', '100', '-1', 'NULL']);
    return `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < ${stop}) SELECT count(*), max(n) FROM r`;
  }
  const rows = Array.from(
    { length: int(rng, 1, 3) },
    () => `(${pick(rng, EXTREME_INTS)}, ${pick(rng, EXTREME_TEXTS.slice(0, 6))})`,
  );
  return `SELECT * FROM (VALUES ${rows.join(', ')}) AS v(a, b)${chance(rng, 0.5) ? ' ORDER BY 1' : ''}`;
}

/** A bare expression statement: SELECT <hazard>, the shape most reproducers shrink to. */
function scalarSelect(rng: Rng, allows: Allows): string {
  const ctx = context(rng, allows, { cols: emptyCols() }, 1);
  return `SELECT ${Array.from({ length: int(rng, 1, 2) }, () => hazard(rng, allows, ctx).sql).join(', ')}`;
}

/** A random statement over the sample; EXPLAIN in front of some. */
export function grammarSql(rng: Rng, allows: Allows): string {
  const depth = int(rng, 0, 2);
  const shape = int(rng, 0, 19);
  let sql: string;
  if (shape < 5) sql = scalarSelect(rng, allows);
  else if (shape < 10) sql = plainSelect(rng, allows, depth);
  else if (shape < 13) sql = groupedSelect(rng, allows, depth);
  else if (shape < 15) sql = windowSelect(rng, allows);
  else if (shape < 17) sql = setOperation(rng, allows, depth);
  else sql = derivedTable(rng, allows, depth);
  return chance(rng, 0.05) ? `EXPLAIN ${sql}` : sql;
}
