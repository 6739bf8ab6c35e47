// Token-level mutations of test queries: delete, duplicate, swap, splice, truncate, extreme literals.
import { chance, int, pick } from '../generated/expr-gen.js';
import { ALL_EXTREMES } from './extremes.js';

type Rng = () => number;

/** Quoted strings, numbers, words, two-character operators, then any other single character. */
const TOKEN = /'(?:[^']|'')*'?|"[^"]*"?|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|[A-Za-z_][A-Za-z_0-9$]*|::|<=|>=|<>|!=|\|\||\S/g;

export function tokenize(sql: string): string[] {
  return sql.match(TOKEN) ?? [];
}

const isLiteral = (t: string) => /^('|\d)/.test(t) || /^(NULL|TRUE|FALSE)$/i.test(t);

const KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP BY',
  'HAVING',
  'ORDER BY',
  'LIMIT',
  'OFFSET',
  'UNION',
  'EXCEPT',
  'JOIN',
  'ON',
  'NOT',
  'AND',
  'OR',
  'IN',
  'EXISTS',
  'CASE',
  'WHEN',
  'END',
  'AS',
  'DISTINCT',
  'NULL',
  '(',
  ')',
  ',',
  '*',
  '-',
  '::',
  'OVER',
  'PARTITION BY',
  'ROLLUP',
  'LATERAL',
  'WITH',
  'RECURSIVE',
  'VALUES',
  'INTERVAL',
  'DATE',
  'CAST',
  'ALL',
  'ANY',
  'BETWEEN',
  'IS',
  'ESCAPE',
  'FILTER',
  'WITHIN GROUP',
  'COLLATE',
  'ARRAY',
  '[',
  ']',
  ';',
  '$1',
  ':name',
];

type Mutation = (tokens: string[], rng: Rng, other: readonly string[]) => string[];

const at = (tokens: string[], rng: Rng) => int(rng, 0, Math.max(0, tokens.length - 1));

const MUTATIONS: readonly Mutation[] = [
  // delete a token, or a run of them
  (t, rng) => {
    const i = at(t, rng);
    return [...t.slice(0, i), ...t.slice(i + (chance(rng, 0.7) ? 1 : int(rng, 2, 5)))];
  },
  // duplicate a token
  (t, rng) => {
    const i = at(t, rng);
    return [...t.slice(0, i + 1), ...t.slice(i)];
  },
  // swap two tokens
  (t, rng) => {
    const out = [...t];
    const [i, j] = [at(t, rng), at(t, rng)];
    [out[i], out[j]] = [out[j]!, out[i]!];
    return out;
  },
  // a literal (or, failing that, any token) becomes an extreme value
  (t, rng) => {
    const literals = t.flatMap((x, i) => (isLiteral(x) ? [i] : []));
    const i = literals.length > 0 ? pick(rng, literals) : at(t, rng);
    const out = [...t];
    out[i] = pick(rng, ALL_EXTREMES);
    return out;
  },
  // insert a keyword or punctuation
  (t, rng) => {
    const i = at(t, rng);
    return [...t.slice(0, i), pick(rng, KEYWORDS), ...t.slice(i)];
  },
  // splice: the head of this query with the tail of another
  (t, rng, other) => {
    const o = tokenize(pick(rng, other));
    return [...t.slice(0, at(t, rng)), ...o.slice(at(o, rng))];
  },
  // a token from another query
  (t, rng, other) => {
    const out = [...t];
    out[at(t, rng)] = pick(rng, tokenize(pick(rng, other))) ?? '1';
    return out;
  },
  // truncate
  (t, rng) => t.slice(0, at(t, rng)),
  // wrap a stretch in parentheses
  (t, rng) => {
    const [i, j] = [at(t, rng), at(t, rng)].sort((a, b) => a - b) as [number, number];
    return [...t.slice(0, i), '(', ...t.slice(i, j + 1), ')', ...t.slice(j + 1)];
  },
];

/** One to three mutations of a random corpus query. */
export function mutateSql(rng: Rng, corpus: readonly string[]): string {
  let tokens = tokenize(pick(rng, corpus));
  for (let n = int(rng, 1, 3); n > 0; n--) tokens = pick(rng, MUTATIONS)(tokens, rng, corpus);
  // A subquery wrapper now and then: the same text in a new setting.
  const sql = tokens.join(' ');
  return chance(rng, 0.05) ? `SELECT * FROM (${sql}) AS m` : sql;
}
