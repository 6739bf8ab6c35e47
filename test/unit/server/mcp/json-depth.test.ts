// jsonDepthExceeds: [ and { counted outside strings (escapes honoured), before any parse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonDepthExceeds, MCP_MAX_JSON_DEPTH } from '../../../../server/mcp/json-depth.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('jsonDepthExceeds', () => {
  it('allows 32 levels and refuses 33 (arrays, objects, mixed)', () => {
    assert.equal(MCP_MAX_JSON_DEPTH, 32);
    assert.equal(jsonDepthExceeds(bytes(nested(32))), false);
    assert.equal(jsonDepthExceeds(bytes(nested(33))), true);
    const objects = (d: number) => `${'{"a":'.repeat(d - 1)}{}${'}'.repeat(d - 1)}`;
    assert.equal(jsonDepthExceeds(bytes(objects(32))), false);
    assert.equal(jsonDepthExceeds(bytes(objects(33))), true);
    assert.equal(jsonDepthExceeds(bytes(`{"x":[${nested(31)}]}`)), true);
    assert.equal(jsonDepthExceeds(bytes(`{"x":${nested(31)}}`)), false);
  });

  it('counts the depth at once, not the total: siblings do not add up', () => {
    assert.equal(jsonDepthExceeds(bytes(`[${Array(100).fill(nested(31)).join(',')}]`)), false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    assert.equal(jsonDepthExceeds(bytes(JSON.stringify({ q: '['.repeat(100) }))), false);
    assert.equal(jsonDepthExceeds(bytes(JSON.stringify({ q: `\\"${'{'.repeat(100)}\\` }))), false);
    assert.equal(jsonDepthExceeds(bytes(`["\\\\", ${nested(32)}]`)), true);
    assert.equal(jsonDepthExceeds(bytes(`["é[[[", {"ü": "\\u005b"}]`)), false);
  });

  it('a custom limit', () => {
    assert.equal(jsonDepthExceeds(bytes('[[]]'), 1), true);
    assert.equal(jsonDepthExceeds(bytes('[]'), 1), false);
  });
});
