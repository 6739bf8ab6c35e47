// The `search` MCP tool: BM25 full-text search over the datasets' indexed columns, through `SearchService`.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from '../search/search-request.js';
import { SearchRequestError, SearchUnavailableError } from '../search/search-service.js';
import type { McpSession } from './mcp-session.js';
import { integerIn, optionalString, requiredString, type ToolArgs } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';

export const SEARCH_TOOL: Tool = {
  name: 'search',
  description:
    'Full-text search (BM25 keyword ranking) over the text columns of the datasets that have search. Returns a ' +
    'JSON array, best first: [{dataset, score, <row id columns>, matches: {column: text}}]; use the row id ' +
    'columns in a sql query to read the whole row. Words match exactly (case-insensitive; no prefixes, no stemming).',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The words to look for, e.g. "late delivery complaint".' },
      limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT },
      dataset: { type: 'string', description: 'Search only this dataset; default: every searchable dataset.' },
    },
    required: ['query'],
  },
};

/** Bad arguments are -32602; a dataset without search, or an index not built yet, an `isError` result. */
export async function runSearchTool(session: McpSession, args: ToolArgs): Promise<CallToolResult> {
  const text = requiredString(args, 'query');
  const limit = integerIn(args, 'limit', 1, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT);
  const dataset = optionalString(args, 'dataset');
  if (session.search === undefined) return errorResult('no dataset has full-text search');
  try {
    const hits = await session.search.search({
      text,
      limit,
      ...(dataset === undefined ? {} : { datasets: [dataset] }),
    });
    return jsonResult(hits.map((h) => ({ dataset: h.dataset, score: h.score, ...h.primaryKey, matches: h.matches })));
  } catch (e) {
    if (e instanceof SearchRequestError || e instanceof SearchUnavailableError) return errorResult(e.message);
    throw e;
  }
}
