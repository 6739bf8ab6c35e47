// The fuzzer's own parts: response parsing, the oracle's verdicts and signatures, reproducible cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCase } from './fuzz-case.js';
import { tokenize } from './mutate-sql.js';
import { judge, messageShape } from './oracle.js';
import { parseResponses, type RawOutcome } from './raw-send.js';

const response = (status: number, body: string) =>
  `HTTP/1.1 ${status} X\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('parseResponses', () => {
  it('reads pipelined Content-Length and chunked answers, and reports a partial one', () => {
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n';
    const buf = Buffer.from(response(400, 'bad') + chunked + response(200, 'cut off'));
    const { responses, partial } = parseResponses(buf.subarray(0, buf.length - 3), false);
    assert.deepEqual(responses, [
      { status: 400, body: 'bad' },
      { status: 200, body: 'abcde' },
    ]);
    assert.equal(partial, true);
  });

  it('expects no body after a HEAD request', () => {
    const { responses, partial } = parseResponses(
      Buffer.from('HTTP/1.1 405 X\r\nContent-Length: 18\r\n\r\n'),
      false,
      true,
    );
    assert.deepEqual([responses, partial], [[{ status: 405, body: '' }], false]);
  });
});

describe('oracle', () => {
  const c = makeCase(1, 0, () => true);
  const outcome = (status: number, body: string): RawOutcome => ({
    responses: [{ status, body }],
    closed: false,
    timedOut: false,
    error: null,
  });
  const none = () => undefined;

  it('passes a 200 and a 4xx with a message; fails a 5xx, an empty 4xx, a stack frame and a hang', () => {
    assert.equal(judge(c, outcome(200, '[]'), none).ok, true);
    assert.equal(judge(c, outcome(400, 'syntax error'), none).ok, true);
    const failed = (o: RawOutcome) => {
      const v = judge(c, o, () => 'TypeError: x is undefined');
      return v.ok ? null : v.kind;
    };
    assert.equal(failed(outcome(500, 'Internal server error (ref 1a2b3c4d)')), '5xx');
    assert.equal(failed(outcome(400, '')), 'empty-message');
    assert.equal(failed(outcome(400, 'oops\n    at run (file:///x/y.js:1:2)')), 'stack');
    assert.equal(failed({ responses: [], closed: false, timedOut: true, error: null }), 'hang');
  });

  it('gives one signature to messages that differ only in quoted text and numbers', () => {
    assert.equal(
      messageShape(`column "a" not in input [x] (ref 1234abcd)`),
      messageShape(`column "b.c" not in input [x] (ref ffff0000)`),
    );
    assert.equal(messageShape('round(1, -2147483648) at 12'), messageShape('round(7, 400) at 3'));
  });
});

describe('cases', () => {
  it('are made again from (seed, index) alone, from all three sources', () => {
    const allows = () => true;
    assert.deepEqual(makeCase(5, 17, allows).raw.bytes, makeCase(5, 17, allows).raw.bytes);
    const sources = new Set(Array.from({ length: 100 }, (_, i) => makeCase(5, i, allows).source));
    assert.deepEqual([...sources].sort(), ['grammar', 'http', 'mutation']);
  });

  it('tokenizes quoted strings, numbers and operators whole', () => {
    assert.deepEqual(tokenize("SELECT 'it''s', 1.5e3, a::int <> b"), [
      'SELECT',
      "'it''s'",
      ',',
      '1.5e3',
      ',',
      'a',
      '::',
      'int',
      '<>',
      'b',
    ]);
  });
});
