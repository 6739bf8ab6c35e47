// `jsonDepthExceeds`: contract §8's JSON nesting limit, checked on the raw bytes before anything parses them.

/** Contract §8: an MCP message nests at most 32 levels of arrays and objects. */
export const MCP_MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * True when `bytes` (UTF-8 JSON text) opens more than `max` arrays or objects at once. Counts `[` and `{` outside
 * strings (a `\` escapes the next byte inside one), so `JSON.parse` never recurses deeply on a hostile body. Does
 * not validate the JSON: a malformed text is left for the parser to refuse. UTF-8 continuation bytes are all
 * ≥ 0x80, so they never look like the ASCII brackets or quotes.
 */
export function jsonDepthExceeds(bytes: Uint8Array, max: number = MCP_MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) depth--;
  }
  return false;
}
