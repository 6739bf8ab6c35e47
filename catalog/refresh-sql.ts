// Refresh SQL: which SELECTs may choose what a refresh loads (checked on their plan), and the SQL an append runs.
import {
  type Column,
  cellText,
  type DataType,
  type Engine,
  type Field,
  type Schema,
  typeName,
} from '../engine/index.js';
import type { DatasetFailure } from './datasets.js';

/** What refresh SQL may say, as the errors tell it. */
export const REFRESH_SQL_RULE =
  'refresh_sql must be one SELECT of plain column names (or *) from the dataset, with an optional WHERE';

/** A refresh cannot run as asked: bad refresh SQL, a time column it cannot use, rows that no longer fit. */
export class RefreshError extends Error {
  readonly failure: DatasetFailure = 'refresh';
  constructor(message: string) {
    super(message);
    this.name = 'RefreshError';
  }
}

/** Plan nodes refresh SQL may not plan to, by the EXPLAIN name, with what in the SQL makes them. */
const FORBIDDEN: Readonly<Record<string, string>> = {
  Aggregate: 'aggregates, GROUP BY or DISTINCT',
  Join: 'joins or subqueries',
  Sort: 'ORDER BY',
  TopK: 'ORDER BY',
  Limit: 'LIMIT or OFFSET',
  Union: 'UNION, INTERSECT or EXCEPT',
  SetOp: 'UNION, INTERSECT or EXCEPT',
  Window: 'window functions',
  Values: 'rows that are not the dataset’s',
  CteScan: 'WITH queries read more than once',
  RecursiveCte: 'WITH RECURSIVE',
};

/**
 * Checks `sql` as refresh SQL over `engine`, whose catalog holds one table, `name` (the dataset's source), and
 * returns the source's fields it selects, in order. Accepted: anything that plans to a projection of plain columns,
 * each at most once, over an optional filter over one scan of the dataset, such as `SELECT a, b FROM t WHERE ...`,
 * `SELECT * FROM t` or a subquery or WITH of that shape. The check reads the optimized plan's EXPLAIN lines (node
 * names, and the projection printed as `t.a, t.b` exactly when it selects plain columns): it binds against the
 * source's schema and reads no data. Throws `RefreshError` saying what is wrong.
 */
export async function selectedFields(engine: Engine, sql: string, name: string, source: Schema): Promise<Field[]> {
  let lines: string[];
  let output: Schema;
  try {
    lines = await engine.explain(sql, { allowWrites: false });
    output = (await engine.execute(sql, { allowWrites: false })).schema;
  } catch (e) {
    throw new RefreshError(planProblem(e as Error, name));
  }
  const kinds = lines.map((l) => /^\s*(\w+)/.exec(l)?.[1] ?? '');
  const scan = /^\s*Scan: (.*?)(?: AS (.*?))? projection=\[.*?\](?<rest>.*)$/.exec(lines.at(-1) ?? '');
  const other = kinds.find((k) => k !== 'Projection' && k !== 'Filter' && k !== 'Scan');
  if (other !== undefined)
    throw new RefreshError(`refresh_sql may not use ${FORBIDDEN[other] ?? other}: ${REFRESH_SQL_RULE}`);
  if (scan === null || kinds.filter((k) => k === 'Scan').length !== 1)
    throw new RefreshError(`refresh_sql must read the dataset "${name}" once: ${REFRESH_SQL_RULE}`);
  if (/ limit=\d/.test(scan.groups?.rest ?? ''))
    throw new RefreshError(`refresh_sql may not use LIMIT: ${REFRESH_SQL_RULE}`);
  const qualifier = scan[2] ?? scan[1];
  const plain = `Projection: ${output.fields.map((f) => `${qualifier}.${f.name}`).join(', ')}`;
  const fields = output.fields.map((f) => source.fields.find((s) => s.name === f.name));
  if (kinds[0] !== 'Projection' || lines[0] !== plain || fields.some((f) => f === undefined))
    throw new RefreshError(
      `refresh_sql may select only the dataset's columns by name, each once (no expressions or renames): ${REFRESH_SQL_RULE}`,
    );
  return fields as Field[];
}

/** The message for refresh SQL the engine could not plan. */
function planProblem(e: Error, name: string): string {
  const kind = (e as { kind?: string }).kind;
  if (kind === 'parse') return `refresh_sql does not parse: ${e.message}`;
  if (/^table .* does not exist/.test(e.message))
    return `refresh_sql may read only the dataset "${name}": ${e.message}`;
  if (kind === 'not_supported' || kind === 'forbidden') return `refresh_sql: ${e.message}; ${REFRESH_SQL_RULE}`;
  return `refresh_sql: ${e.message}`;
}

/** A SQL identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `sql` keeping only rows whose `timeColumn` is after `newest` (a SQL literal), or, `newest` null, only rows where it
 * is set. A filter on the subquery's output: the optimizer pushes it into the source's scan, where it prunes.
 */
export function newerRowsSql(sql: string, timeColumn: string, newest: string | null): string {
  // On lines of their own: a trailing `-- comment` in `sql` must not swallow the closing parenthesis.
  const inner = sql.replace(/;\s*$/, '');
  const condition = newest === null ? 'IS NOT NULL' : `> ${newest}`;
  return `SELECT * FROM (\n${inner}\n) AS __refresh WHERE __refresh.${quoteIdent(timeColumn)} ${condition}`;
}

const TIME_TYPES = new Set<DataType['id']>(['int32', 'int64', 'float64', 'decimal', 'date', 'timestamp', 'utf8']);

/** Whether a time column of this type can order rows for append refreshes. */
export function isTimeType(type: DataType): boolean {
  return TIME_TYPES.has(type.id);
}

/** Row 0 of `col` (a `max(timeColumn)`) as a SQL literal of its type; null when it is NULL. */
export function literalOf(col: Column): string | null {
  const text = cellText(col, 0);
  if (text === null) return null;
  return `CAST('${text.replaceAll("'", "''")}' AS ${typeName(col.type)})`;
}
