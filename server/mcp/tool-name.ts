// `checkToolName`: contract §8's tool-name rules, applied before a tools/call looks the tool up.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Contract §8: at most 256 characters. */
export const TOOL_NAME_MAX = 256;
/** Contract §8: letters, digits, `_ - . /` (the `/` for proxied tools, `<entry>/<tool>`). */
const TOOL_NAME_CHARS = /^[A-Za-z0-9_\-./]+$/;

/** Throws -32602 (invalid params) for a name the rules refuse; a well-formed name may still be unknown (-32601). */
export function checkToolName(name: string): void {
  if (name.length === 0 || name.length > TOOL_NAME_MAX) {
    throw new McpError(ErrorCode.InvalidParams, `tool name must be 1 to ${TOOL_NAME_MAX} characters long`);
  }
  if (!TOOL_NAME_CHARS.test(name)) {
    throw new McpError(ErrorCode.InvalidParams, 'tool name may hold only letters, digits and _ - . /');
  }
}

/** -32601 for a well-formed name no tool has. */
export function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `unknown tool '${name}': tools/list names the tools`);
}
