// Tool results: a JSON text item, or an `isError` result the agent reads and corrects its call from.
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { QueryFailedError } from '../nsql/collect-answer.js';

/** One text content item holding `text` (already JSON, e.g. a query's rows). */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value));
}

/**
 * A normal result with `isError: true`. Used for failures the agent can act on (a query that does not bind, an
 * unknown dataset or column): the SDK hands the text to the model, which can fix its SQL and retry, while a
 * JSON-RPC -32603 is usually shown to the user as a failed call and never reaches the model.
 */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * `error` as an `isError` result when the query failed for a reason the agent can act on (bad SQL, an unknown
 * table, a time-out, an overload, a forbidden write: its kind and message). A fault of floe (kind `internal`: a bug,
 * a worker that died) is a JSON-RPC -32603 carrying only the reference its stack was logged under; anything else
 * is rethrown (the SDK answers it with -32603 too).
 */
export function queryErrorResult(error: unknown): CallToolResult {
  if (!(error instanceof QueryFailedError)) throw error;
  if (error.wire.kind === 'internal') {
    const ref = error.wire.ref === undefined ? '' : ` (ref ${error.wire.ref})`;
    throw new McpError(ErrorCode.InternalError, `${error.message}${ref}`);
  }
  return errorResult(`query failed (${error.wire.kind}): ${error.message}`);
}
