// Body forms of POST /v1/sql: plain text, JSON with positional or named parameters, and their errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeUtf8 } from '../../../../server/http/decode-utf8.js';
import { negotiateFormat } from '../../../../server/http/negotiate-format.js';
import { BadRequestError, parseSqlRequest } from '../../../../server/http/parse-sql-request.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const rejection = (body: Uint8Array | string, contentType = 'application/json') => {
  try {
    parseSqlRequest(typeof body === 'string' ? bytes(body) : body, contentType);
  } catch (e) {
    assert.ok(e instanceof BadRequestError);
    return e.message;
  }
  assert.fail('request was accepted');
};

describe('parseSqlRequest', () => {
  it('takes any non-JSON body as the SQL text', () => {
    for (const type of ['', 'text/plain', 'application/sql', 'application/x-www-form-urlencoded']) {
      assert.deepEqual(parseSqlRequest(bytes('SELECT 1'), type), { sql: 'SELECT 1' });
    }
  });

  it('parses JSON with positional and named parameters, also with a charset parameter', () => {
    assert.deepEqual(
      parseSqlRequest(bytes('{"sql":"SELECT $1","parameters":[1,"a",null,true,2.5]}'), 'application/json'),
      {
        sql: 'SELECT $1',
        params: [1, 'a', null, true, 2.5],
      },
    );
    assert.deepEqual(
      parseSqlRequest(bytes('{"sql":"SELECT :x","parameters":{"x":41}}'), 'Application/JSON; charset=utf-8'),
      {
        sql: 'SELECT :x',
        params: { x: 41 },
      },
    );
    assert.deepEqual(parseSqlRequest(bytes('{"sql":"SELECT 1"}'), 'application/json'), { sql: 'SELECT 1' });
  });

  it('names each JSON problem', () => {
    assert.equal(rejection('{"parameters":[]}'), 'Invalid JSON: missing field sql');
    assert.equal(rejection('{"sql":1}'), 'Invalid JSON: field sql must be a string');
    assert.equal(rejection('[1]'), 'Invalid JSON: expected an object with a field sql');
    assert.equal(
      rejection('{"sql":"S","parameters":[[1]]}'),
      'Invalid JSON: Nested arrays or objects are not supported as parameter values',
    );
    assert.equal(
      rejection('{"sql":"S","parameters":{"a":{"b":1}}}'),
      'Invalid JSON: Nested arrays or objects are not supported as parameter values',
    );
    assert.equal(rejection('{"sql":"S","parameters":5}'), 'Invalid JSON: Parameters must be a JSON array or an object');
    assert.match(rejection('{"sql": "S",'), /^Invalid JSON: .+/);
  });

  it('rejects invalid UTF-8 with the index of the first bad byte', () => {
    assert.equal(
      rejection(new Uint8Array([0x53, 0xff, 0x31]), 'text/plain'),
      'invalid utf-8 sequence of 1 bytes from index 1',
    );
  });
});

describe('decodeUtf8', () => {
  const message = (b: number[]) => {
    try {
      decodeUtf8(new Uint8Array(b));
    } catch (e) {
      return (e as Error).message;
    }
    return 'ok';
  };
  it('matches Rust wording for each kind of bad sequence', () => {
    assert.equal(message([0x80]), 'invalid utf-8 sequence of 1 bytes from index 0');
    assert.equal(message([0x41, 0xe2, 0x82, 0x41]), 'invalid utf-8 sequence of 2 bytes from index 1');
    assert.equal(message([0xc0, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 0');
    assert.equal(message([0xed, 0xa0, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 0');
    assert.equal(message([0x41, 0xf0, 0x9f, 0x98]), 'incomplete utf-8 byte sequence from index 1');
    assert.equal(message([0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x82, 0xac]), 'ok');
  });
});

describe('negotiateFormat', () => {
  const cases: [string, string][] = [
    ['', 'json'],
    ['*/*', 'json'],
    ['text/html', 'json'],
    ['application/json', 'json'],
    ['application/vnd.service.sql.v1+json', 'vnd-json'],
    ['text/csv', 'csv'],
    ['text/csv; charset=utf-8', 'csv'],
    ['text/csv; charset=latin1', 'json'],
    ['text/plain', 'table-text'],
    ['TEXT/PLAIN', 'table-text'],
    ['text/csv;q=0.9, application/json;q=0.1', 'csv'],
    ['application/json;q=0.5, text/plain', 'table-text'],
    ['text/plain;q=0, */*', 'json'],
    ['text/*', 'csv'],
    ['not a media type;;;', 'json'],
  ];
  for (const [accept, format] of cases) {
    it(`Accept ${JSON.stringify(accept)} -> ${format}`, () => assert.equal(negotiateFormat(accept), format));
  }
});
