// Malformed and odd HTTP requests as raw bytes: content types, JSON bodies, parameters, UTF-8, headers,
// methods, targets, truncated bodies and pipelined garbage.
import { chance, int, pick } from '../generated/expr-gen.js';
import { ALL_EXTREMES } from './extremes.js';

type Rng = () => number;

/** What goes on the socket. */
export interface RawRequest {
  readonly bytes: Buffer;
  /** The request may be unfinished (cut short, a bad length): the server may rightly wait for the rest. */
  readonly incomplete?: boolean;
}

export function rawRequest(
  method: string,
  target: string,
  headers: readonly [string, string][],
  body: Buffer | string = '',
  contentLength: string | null = null,
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([k, v]) => `${k}: ${v}`)];
  const length = contentLength ?? (method === 'GET' && bytes.length === 0 ? null : String(bytes.length));
  if (length !== null && !headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k)))
    lines.push(`Content-Length: ${length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}

/** A POST /v1/sql of `body` as JSON. */
export const jsonPost = (body: string | Buffer, type = 'application/json') =>
  rawRequest('POST', '/v1/sql', [['Content-Type', type]], body);

const CONTENT_TYPES = [
  'text/plain',
  'application/json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/sql',
  'application/octet-stream',
  'text/csv',
  'garbage',
  '',
  ';;;',
  'application/json;;;charset',
  `application/${'x'.repeat(5000)}`,
  'TEXT/PLAIN; CHARSET=UTF-8',
];

const ACCEPTS = [
  'application/json',
  'text/csv',
  'text/plain',
  'application/vnd.apache.arrow.stream',
  'application/vnd.spiceai.sql.v1+json',
  '*/*;q=abc',
  'text/csv;q=0',
  'image/png',
  '',
  'application/json;q=0, */*;q=0',
  Array.from({ length: 300 }, (_, i) => `type/x${i};q=0.${i % 10}`).join(', '),
];

const PARAMETERS = [
  '[]',
  '{}',
  'null',
  '"x"',
  '1',
  'true',
  '[1,2,3]',
  '[[1]]',
  '[{"a":1}]',
  '{"1":2}',
  '{"name":{"x":1}}',
  '[1e400]',
  '[-0]',
  '[12345678901234567890123]',
  '["\\u0000"]',
  '["\\ud800"]',
  `[${Array.from({ length: 5000 }, (_, i) => i).join(',')}]`,
  `{${Array.from({ length: 200 }, (_, i) => `"p${i}":${i}`).join(',')}}`,
  '{"__proto__":{"x":1}}',
  '{"constructor":1}',
];

const JSON_SQLS = [
  'SELECT $1',
  'SELECT $1 + 1',
  'SELECT :name',
  'SELECT $2',
  'SELECT $0',
  'SELECT $99999999999',
  "SELECT $1 || 'x'",
  'SELECT * FROM nation WHERE n_nationkey = $1',
  'SELECT :constructor',
  'SELECT :__proto__',
  'SELECT $1::date',
  'SELECT count(*) FROM region WHERE r_name = ANY($1)',
];

const BAD_JSON = [
  '{',
  '{"sql":',
  '[]',
  'null',
  '"SELECT 1"',
  '{"sql":1}',
  '{"sql":null}',
  '{"sql":["SELECT 1"]}',
  '{"sql":"SELECT 1","sql":"SELECT 2"}',
  '{"SQL":"SELECT 1"}',
  '{"sql":"SELECT 1",}',
  "{'sql':'SELECT 1'}",
  '{"sql":"SELECT 1"} trailing',
  '{"sql":"\\ud800"}',
  '{"sql":"SELECT 1","parameters":',
  `${'['.repeat(20000)}${']'.repeat(20000)}`,
  `{"sql":"SELECT 1","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
  '\uFEFF{"sql":"SELECT 1"}',
  '{"sql":"SELECT 1","parameters":[1],"format":"csv"}',
  '',
  ' ',
];

const BAD_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf0, 0x9f, 0x98]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0x00]),
];

const METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'get', 'POST'];
/** Request lines uWS cannot parse (see `uws-bad-head`). */
const BAD_METHODS = ['P OST', ''];
/** Targets uWS cannot parse (see `uws-bad-head`). */
const BAD_TARGETS = ['v1/sql', 'x'];
/** Request targets (those not starting with `/` are the `odd-target` form, see known-failures.ts). */
const TARGETS = [
  '/v1/sql',
  '/v1/sql?x=1',
  '/v1/sql/',
  '//v1/sql',
  '/V1/SQL',
  '/v1/%00',
  '/v1/sql#frag',
  '/health',
  '/health?',
  '/v1/ready',
  '/',
  '/..%2f..%2fetc/passwd',
  `/${'a'.repeat(20_000)}`,
  '/v1/sql%',
  '/%ZZ',
  '/v1/sql?%ff=%fe',
];

const sqlText = (rng: Rng, sqls: () => string) => (chance(rng, 0.7) ? sqls() : 'SELECT 1');

/** One malformed or odd request; `sqls` supplies a query (grammar or mutation) for the body. */
export function httpCase(
  rng: Rng,
  allows: (form: string) => boolean,
  sqls: () => string,
): { label: string; raw: RawRequest } {
  const shape = int(rng, 0, 11);
  switch (shape) {
    case 0: {
      const type = pick(rng, CONTENT_TYPES);
      const body = chance(rng, 0.5) ? sqlText(rng, sqls) : JSON.stringify({ sql: sqlText(rng, sqls) });
      return {
        label: 'content-type',
        raw: { bytes: rawRequest('POST', '/v1/sql', type === '' ? [] : [['Content-Type', type]], body) },
      };
    }
    case 1:
      return { label: 'bad-json', raw: { bytes: jsonPost(pick(rng, BAD_JSON)) } };
    case 2: {
      const parameters = chance(rng, 0.8) ? pick(rng, PARAMETERS) : `[${pick(rng, ALL_EXTREMES).replaceAll("'", '"')}]`;
      const body = `{"sql":${JSON.stringify(pick(rng, JSON_SQLS))},"parameters":${parameters}}`;
      return { label: 'parameters', raw: { bytes: jsonPost(body) } };
    }
    case 3: {
      const bad = pick(rng, BAD_UTF8);
      const sql = Buffer.from(sqlText(rng, sqls));
      const at = int(rng, 0, sql.length);
      const body = Buffer.concat([sql.subarray(0, at), bad, sql.subarray(at)]);
      const json = chance(rng, 0.4);
      const wrapped = json ? Buffer.concat([Buffer.from('{"sql":"'), body, Buffer.from('"}')]) : body;
      return {
        label: 'bad-utf8',
        raw: { bytes: rawRequest('POST', '/v1/sql', json ? [['Content-Type', 'application/json']] : [], wrapped) },
      };
    }
    case 4: {
      const heads: [string, string][][] = [
        [['X-Big', 'v'.repeat(int(rng, 1000, 60_000))]],
        [['Accept', pick(rng, ACCEPTS)]],
        [
          ['Cache-Control', pick(rng, ['no-cache', 'no-store, max-age=-1', 'x'.repeat(3000)])],
          ['Spice-Cache-Key', '\u00ff\u00fe'],
        ],
      ];
      // Heads uWS cannot parse: it sends no 400 and closes only at its idle timeout (~10 s).
      if (allows('uws-bad-head'))
        heads.push(
          Array.from({ length: int(rng, 100, 600) }, (_, i) => [`X-H${i}`, String(i)]),
          [['X-Ctl', 'a\x01b\x7fc']],
          [['Bad Header', 'x']],
          [['', 'x']],
        );
      return { label: 'headers', raw: { bytes: rawRequest('POST', '/v1/sql', pick(rng, heads), sqlText(rng, sqls)) } };
    }
    case 5: {
      const cl = pick(rng, ['abc', '-1', '99999999999999999999', '1.5', ' 5', '0x10', '', '5, 5']);
      return {
        label: 'content-length',
        raw: { bytes: rawRequest('POST', '/v1/sql', [['Content-Length', cl]], 'SELECT 1'), incomplete: true },
      };
    }
    case 6: {
      const body = pick(rng, [
        '8\r\nSELECT 1\r\n0\r\n\r\n',
        'zz\r\nSELECT 1\r\n0\r\n\r\n',
        'FFFFFFFFFFFFFFFF\r\nSELECT 1\r\n0\r\n\r\n',
        '8\r\nSELECT 1',
        '4\r\nSELE\r\n4\r\nCT 1\r\n0\r\n\r\n',
        '-1\r\nx\r\n0\r\n\r\n',
      ]);
      const headers: [string, string][] = [
        ['Transfer-Encoding', pick(rng, ['chunked', 'gzip, chunked', 'identity', 'chunked, chunked'])],
      ];
      if (chance(rng, 0.3)) headers.push(['Content-Length', '3']);
      // An unterminated or undecodable chunked body leaves the server waiting for the rest.
      return { label: 'chunked', raw: { bytes: rawRequest('POST', '/v1/sql', headers, body), incomplete: true } };
    }
    case 7: {
      const method = pick(rng, allows('uws-bad-head') ? [...METHODS, ...BAD_METHODS] : METHODS);
      const targets = [
        ...TARGETS,
        ...(allows('odd-target') ? ['*', 'http://127.0.0.1/v1/sql'] : []),
        ...(allows('uws-bad-head') ? BAD_TARGETS : []),
      ];
      const body = chance(rng, 0.5) ? sqlText(rng, sqls) : '';
      return { label: 'method-target', raw: { bytes: rawRequest(method, pick(rng, targets), [], body) } };
    }
    case 8: {
      const full = rawRequest('POST', '/v1/sql', [], sqlText(rng, sqls));
      const cut = int(rng, 1, full.length - 1);
      return { label: 'truncated', raw: { bytes: full.subarray(0, cut), incomplete: true } };
    }
    case 9: {
      const first = rawRequest('POST', '/v1/sql', [], sqlText(rng, sqls));
      const garbage = pick(rng, [
        Buffer.from('GARBAGE\r\n\r\n'),
        Buffer.from(Array.from({ length: int(rng, 1, 400) }, () => int(rng, 0, 255))),
        rawRequest('POST', '/v1/sql', [], sqlText(rng, sqls)),
        Buffer.from('\r\n\r\n\r\n'),
        Buffer.from('POST /v1/sql HTTP/1.1\r\nContent-Length: 5\r\n\r\nSELECT 1'),
      ]);
      return { label: 'pipelined', raw: { bytes: Buffer.concat([first, garbage]), incomplete: true } };
    }
    case 10: {
      // uWS 20.30 answers HTTP/1.1 only: any other version gets no answer until its idle timeout (~10 s).
      const odd = ['HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1', 'http/1.1', '', 'HTTP/1.1 extra', 'HTTP/1.1 '];
      const version = allows('uws-bad-head') && chance(rng, 0.5) ? pick(rng, odd) : 'HTTP/1.1';
      const host = pick(rng, [
        'Host: x\r\n',
        '',
        'Host:\r\n',
        'Host: a\r\nHost: b\r\n',
        `Host: ${'h'.repeat(5000)}\r\n`,
      ]);
      const head = `POST /v1/sql ${version}\r\n${host}Content-Length: 8\r\n\r\nSELECT 1`;
      return { label: 'version-host', raw: { bytes: Buffer.from(head, 'latin1') } };
    }
    default: {
      const bytes = Buffer.from(Array.from({ length: int(rng, 1, 2000) }, () => int(rng, 0, 255)));
      return { label: 'binary', raw: { bytes, incomplete: true } };
    }
  }
}
