// The `sample` tool: distinct values per column, random rows, or the top rows by a column, through the query service.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Field } from '../../engine/index.js';
import { queryRows, quoteIdent } from '../nsql/collect-answer.js';
import { distinctValues, randomRows } from '../nsql/sample-queries.js';
import type { McpSession } from './mcp-session.js';
import { errorResult, jsonResult } from './tool-result.js';

export const SAMPLE_METHODS = ['distinct', 'random', 'top_n'] as const;
export type SampleMethod = (typeof SAMPLE_METHODS)[number];
export const SAMPLE_LIMIT_MAX = 100;
export const SAMPLE_LIMIT_DEFAULT = 10;

export interface SampleRequest {
  readonly dataset: string;
  readonly fields: readonly Field[];
  readonly method: SampleMethod;
  readonly limit: number;
  /** distinct: the columns to sample (default all); top_n: unused. */
  readonly columns?: readonly string[];
  /** top_n: the column to rank by, and the direction. */
  readonly orderBy?: string;
  readonly descending: boolean;
}

/** Runs one sample as the session's principal; a column the dataset lacks is an `isError` result naming the columns. */
export async function runSample(session: McpSession, req: SampleRequest, signal: AbortSignal): Promise<CallToolResult> {
  const names = req.fields.map((f) => f.name);
  const unknown = [...(req.columns ?? []), ...(req.orderBy === undefined ? [] : [req.orderBy])].filter(
    (c) => !names.includes(c),
  );
  if (unknown.length > 0) {
    return errorResult(
      `dataset '${req.dataset}' has no column ${unknown.join(', ')}; its columns: ${names.join(', ')}`,
    );
  }
  const query = (sql: string) => queryRows(session.service, sql, session.principal, signal);
  const from = quoteIdent(req.dataset);
  if (req.method === 'distinct') {
    const columns = req.columns ?? names;
    const values = await distinctValues(query, from, columns, req.limit);
    return jsonResult(Object.fromEntries(columns.map((c, i) => [c, values[i]])));
  }
  if (req.method === 'top_n') {
    if (req.orderBy === undefined) return errorResult("method 'top_n' needs 'order_by', the column to rank by");
    const dir = req.descending ? 'DESC NULLS LAST' : 'ASC NULLS LAST';
    return jsonResult(
      await query(`SELECT * FROM ${from} ORDER BY ${quoteIdent(req.orderBy)} ${dir} LIMIT ${req.limit}`),
    );
  }
  return jsonResult(await randomRows(query, from, req.limit));
}
