// `buildContext`: what the model is told about the data: each allowed table's columns, then samples, within a budget.
import { typeName } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { readDatasetSchema } from '../iceberg/dataset-schema.js';
import type { QueryService } from '../runtime/query-service.js';
import { queryRows, quoteIdent } from './collect-answer.js';
import { distinctValues, randomRows } from './sample-queries.js';

/** Contract §8: distinct values per column and random rows per dataset in the sample context. */
export const SAMPLE_DISTINCT_VALUES = 3;
export const SAMPLE_ROWS = 3;
/** Columns per table whose distinct values are sampled (the first ones, in table order). */
export const SAMPLED_COLUMNS_MAX = 20;
/** A sampled value longer than this is cut (with `…`). */
export const SAMPLE_VALUE_CHARS = 64;
/** The whole context's budget, estimated at ~4 characters per token. */
export const CONTEXT_TOKEN_BUDGET = 6000;
export const CHARS_PER_TOKEN = 4;

export interface NsqlContext {
  /** The tables described (the allowed datasets whose schema could be read). */
  readonly tables: readonly string[];
  /** The context as the system message carries it. */
  readonly text: string;
}

export interface ContextRequest {
  readonly service: QueryService;
  /** Who the schema and sample queries run as (read-only). */
  readonly principal: Principal;
  /** The datasets the model may query. */
  readonly allowed: readonly string[];
  /** The datasets to sample; empty: no samples. */
  readonly sampled: readonly string[];
  readonly signal: AbortSignal;
}

/**
 * Schemas of `allowed` (a dataset whose schema cannot be read, e.g. one in Error, is left out), then for each
 * of `sampled` up to 3 distinct values of its first 20 columns and 3 random rows, all through the query service.
 * Schemas come first and are cut only past the budget; a table's samples are added only while they fit.
 */
export async function buildContext(req: ContextRequest): Promise<NsqlContext> {
  const budget = CONTEXT_TOKEN_BUDGET * CHARS_PER_TOKEN;
  const tables: string[] = [];
  const columns = new Map<string, string[]>();
  let text = '## Tables\n';
  for (const name of req.allowed) {
    const fields = await readDatasetSchema(req.service, name).catch(() => null);
    if (fields === null) continue;
    tables.push(name);
    columns.set(
      name,
      fields.map((f) => f.name),
    );
    const lines = fields.map((f) => `  ${quoteIfNeeded(f.name)} ${typeName(f.type)}${f.nullable ? '' : ' NOT NULL'}`);
    text += `\nTable ${quoteIfNeeded(name)} (${fields.length} columns):\n${lines.join('\n')}\n`;
  }
  if (text.length > budget) return { tables, text: `${text.slice(0, budget)}\n… (cut at the context budget)\n` };
  const samples: string[] = [];
  for (const name of req.sampled) {
    const cols = columns.get(name);
    if (cols === undefined) continue;
    const block = await sampleTable(req, name, cols).catch(() => '');
    if (text.length + samples.join('').length + block.length > budget) break;
    samples.push(block);
  }
  if (samples.length > 0) text += `\n## Sample data\n${samples.join('')}`;
  return { tables, text };
}

async function sampleTable(req: ContextRequest, table: string, columns: readonly string[]): Promise<string> {
  const from = quoteIdent(table);
  const sampled = columns.slice(0, SAMPLED_COLUMNS_MAX);
  const query = (sql: string) => queryRows(req.service, sql, req.principal, req.signal);
  const values = await distinctValues(query, from, sampled, SAMPLE_DISTINCT_VALUES);
  let block = `\nTable ${quoteIfNeeded(table)}: up to ${SAMPLE_DISTINCT_VALUES} distinct values per column\n`;
  block += sampled.map((c, i) => `  ${quoteIfNeeded(c)}: ${(values[i] ?? []).map(cut).join(' | ')}\n`).join('');
  const rows = await randomRows(query, from, SAMPLE_ROWS);
  block += `Table ${quoteIfNeeded(table)}: ${rows.length} random rows\n  ${columns.map(quoteIfNeeded).join(' | ')}\n`;
  for (const row of rows) block += `  ${columns.map((c) => cut(cellText(row[c]))).join(' | ')}\n`;
  return block;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cut(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length <= SAMPLE_VALUE_CHARS ? flat : `${flat.slice(0, SAMPLE_VALUE_CHARS)}…`;
}

/** A name as SQL must spell it: bare when lower-case letters, digits and `_`, else double-quoted. */
export function quoteIfNeeded(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : quoteIdent(name);
}
