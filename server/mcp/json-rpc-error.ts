// `jsonRpcErrorBody`: the JSON-RPC error object an MCP route answers with when no message could be handled.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** Codes of the errors an MCP route answers itself, before any session sees the message. */
export const MCP_HTTP_ERRORS = {
  /** Not JSON (-32700). */
  parse: ErrorCode.ParseError,
  /** JSON, but not one JSON-RPC message, or nested too deeply (-32600). */
  invalid: ErrorCode.InvalidRequest,
  /** Refused before reading it (a Host or Origin not allowed): -32000, the generic server error the SDK uses too. */
  refused: -32000,
  /** No such session (-32001, as the SDK's own transports answer). */
  noSession: -32001,
} as const;

/** `{"jsonrpc":"2.0","error":{"code":…,"message":…},"id":null}`: `id` is null since no request id was read. */
export function jsonRpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}
