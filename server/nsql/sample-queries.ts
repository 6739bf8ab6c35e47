// Sampling queries NSQL's context and the MCP `sample` tool share: distinct values per column, rows at random.
import { quoteIdent } from './collect-answer.js';

/** Runs one query and resolves with its rows (the caller decides as whom, and with which signal). */
export type RowQuery = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * Up to `limit` distinct non-null values of each of `columns` as text, in column order, read in one UNION ALL
 * query over `from` (an already quoted table name).
 */
export async function distinctValues(
  query: RowQuery,
  from: string,
  columns: readonly string[],
  limit: number,
): Promise<string[][]> {
  const arms = columns.map((c, i) => {
    const col = quoteIdent(c);
    const inner = `SELECT DISTINCT CAST(${col} AS TEXT) AS v FROM ${from} WHERE ${col} IS NOT NULL LIMIT ${limit}`;
    return `SELECT ${i} AS i, v FROM (${inner}) s${i}`;
  });
  const values = columns.map(() => [] as string[]);
  for (const r of await query(arms.join(' UNION ALL '))) values[Number(r.i)]?.push(String(r.v));
  return values;
}

/**
 * `limit` rows of `from` at distinct random offsets, or all its rows when it has no more than `limit`. The engine
 * has no random(): the offsets are drawn here from the row count, one `LIMIT 1 OFFSET k` arm each.
 */
export async function randomRows(query: RowQuery, from: string, limit: number): Promise<Record<string, unknown>[]> {
  const [counted] = await query(`SELECT count(*) AS n FROM ${from}`);
  const n = Number(counted?.n ?? 0);
  if (n <= limit) return query(`SELECT * FROM ${from} LIMIT ${limit}`);
  const offsets = new Set<number>();
  while (offsets.size < limit) offsets.add(Math.floor(Math.random() * n));
  const arms = [...offsets].map((k, i) => `SELECT * FROM (SELECT * FROM ${from} LIMIT 1 OFFSET ${k}) r${i}`);
  return query(arms.join(' UNION ALL '));
}
