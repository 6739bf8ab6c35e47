// floe's built-in MCP tools: `sql`, `list_datasets`, `table_schema`, `sample`, `search`: their schemas and what a call runs.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { typeName } from '../../engine/index.js';
import { DEFAULT_MCP_CONFIG } from '../config/mcp-config.js';
import type { DatasetState } from '../datasets/datasets.js';
import { readDatasetSchema } from '../iceberg/dataset-schema.js';
import { collectAnswer } from '../nsql/collect-answer.js';
import type { McpSession } from './mcp-session.js';
import { runSample, SAMPLE_LIMIT_DEFAULT, SAMPLE_LIMIT_MAX, SAMPLE_METHODS } from './sample-tool.js';
import { runSearchTool, SEARCH_TOOL } from './search-tool.js';
import { integerIn, oneOf, optionalString, optionalStrings, requiredString, type ToolArgs } from './tool-args.js';
import { errorResult, jsonResult, queryErrorResult, textResult } from './tool-result.js';

const DATASET_ARG = {
  type: 'string',
  description: 'A dataset name exactly as list_datasets returns it, e.g. "orders".',
} as const;

export const BUILTIN_TOOLS: readonly Tool[] = [
  {
    name: 'sql',
    description:
      'Run one SQL query (PostgreSQL dialect) over the datasets and get its rows as a JSON array of objects. ' +
      'Read-only unless your API key may write. Call list_datasets and table_schema first to learn table and ' +
      'column names; a query that fails returns the error text so you can fix it and retry.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The SQL statement, e.g. SELECT count(*) FROM "orders".' },
      },
      required: ['query'],
    },
  },
  {
    name: 'list_datasets',
    description:
      'List the datasets you can query: name, source (from), status (Ready, Loading, Error, ...) and ' +
      'can_search_documents (the search tool can search it).',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'table_schema',
    description: "A dataset's columns: name, PostgreSQL type and whether it can be NULL.",
    inputSchema: { type: 'object', properties: { dataset: DATASET_ARG }, required: ['dataset'] },
  },
  {
    name: 'sample',
    description:
      "Sample a dataset to see what its values look like. method 'distinct' (default): up to `limit` distinct " +
      "values of each column (or of `columns`) as {column: [values as text]}; 'random': `limit` random rows; " +
      "'top_n': the first `limit` rows ordered by `order_by` (descending unless `ascending`).",
    inputSchema: {
      type: 'object',
      properties: {
        dataset: DATASET_ARG,
        method: { type: 'string', enum: [...SAMPLE_METHODS], default: 'distinct' },
        limit: { type: 'integer', minimum: 1, maximum: SAMPLE_LIMIT_MAX, default: SAMPLE_LIMIT_DEFAULT },
        columns: { type: 'array', items: { type: 'string' }, description: 'distinct: the columns to sample.' },
        order_by: { type: 'string', description: 'top_n: the column to rank rows by.' },
        ascending: { type: 'boolean', default: false, description: 'top_n: smallest first.' },
      },
      required: ['dataset'],
    },
  },
  SEARCH_TOOL,
];

type ToolRun = (session: McpSession, args: ToolArgs, signal: AbortSignal) => Promise<CallToolResult>;

/** The built-in tools by name. Argument errors throw -32602; failed queries give `isError` results. */
export const BUILTIN_RUNS: ReadonlyMap<string, ToolRun> = new Map<string, ToolRun>([
  ['sql', runSql],
  ['list_datasets', async (session) => jsonResult(session.datasets().map(datasetItem))],
  ['table_schema', runTableSchema],
  ['sample', runSampleTool],
  ['search', runSearchTool],
]);

/** Runs as the session's principal, so writes need a `:rw` key (the query service sets allowWrites from it). */
async function runSql(session: McpSession, args: ToolArgs, signal: AbortSignal): Promise<CallToolResult> {
  const query = requiredString(args, 'query');
  try {
    const limit = session.maxResultBytes ?? DEFAULT_MCP_CONFIG.maxResultBytes;
    const { body } = await collectAnswer(session.service, query, 'json', session.principal, signal, false, limit);
    return textResult(body.toString('utf8'));
  } catch (error) {
    return queryErrorResult(error);
  }
}

/** `can_search_documents` (Spice's key): the `search` tool can search it. */
function datasetItem(d: DatasetState) {
  const item = {
    name: d.name,
    from: d.from,
    status: d.status,
    can_search_documents: d.properties.search === 'supported',
  };
  return d.errorMessage === null ? item : { ...item, error_message: d.errorMessage };
}

async function runTableSchema(session: McpSession, args: ToolArgs): Promise<CallToolResult> {
  const dataset = requiredString(args, 'dataset');
  const unknown = checkDataset(session, dataset);
  if (unknown !== null) return unknown;
  const fields = await readDatasetSchema(session.service, dataset, session.principal).catch(() => null);
  if (fields === null) return errorResult(`the schema of '${dataset}' cannot be read now (is it loaded?)`);
  return jsonResult({
    dataset,
    columns: fields.map((f) => ({ name: f.name, type: typeName(f.type), nullable: f.nullable })),
  });
}

async function runSampleTool(session: McpSession, args: ToolArgs, signal: AbortSignal): Promise<CallToolResult> {
  const dataset = requiredString(args, 'dataset');
  const method = oneOf(args, 'method', SAMPLE_METHODS, 'distinct');
  const limit = integerIn(args, 'limit', 1, SAMPLE_LIMIT_MAX, SAMPLE_LIMIT_DEFAULT);
  const columns = optionalStrings(args, 'columns');
  const orderBy = optionalString(args, 'order_by');
  const ascending = args.ascending ?? false;
  if (typeof ascending !== 'boolean') return errorResult("'ascending' must be true or false");
  const unknown = checkDataset(session, dataset);
  if (unknown !== null) return unknown;
  const fields = await readDatasetSchema(session.service, dataset, session.principal).catch(() => null);
  if (fields === null) return errorResult(`the schema of '${dataset}' cannot be read now (is it loaded?)`);
  const request = { dataset, fields, method, limit, columns, orderBy, descending: !ascending };
  try {
    return await runSample(session, request, signal);
  } catch (error) {
    return queryErrorResult(error);
  }
}

/** An `isError` result naming the datasets when `name` is not one of them (the agent can pick a right name). */
function checkDataset(session: McpSession, name: string): CallToolResult | null {
  const names = session.datasets().map((d) => d.name);
  if (names.includes(name)) return null;
  return errorResult(`unknown dataset '${name}'; the datasets are: ${names.join(', ')}`);
}
