// POST /v1/sql result formats over real HTTP: every Accept form, Content-Types, values, empty results.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;
const ALL = 'SELECT * FROM people ORDER BY id';
const EMPTY = 'SELECT id, name FROM people WHERE id < 0';

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([
    { name: 'people', from: `file:${file}` },
    { name: 'people_mem', from: `file:${file}`, acceleration: { enabled: true } },
  ]);
});
after(() => srv.close());

const query = (sql: string, accept?: string) => post(srv.sql, sql, accept === undefined ? {} : { accept });

describe('application/json (default)', () => {
  it('is the answer without an Accept header, with explicit nulls and typed values', async () => {
    const res = await query(ALL);
    assert.equal(res.status, 200);
    assert.equal(res.contentType, 'application/json');
    const rows = JSON.parse(res.text);
    assert.equal(rows.length, 5);
    assert.deepEqual(rows[0], {
      id: 1,
      name: 'Alice',
      note: 'plain',
      amount: 12.5,
      born: '1990-01-02',
      score: 1.5,
      active: true,
    });
    assert.deepEqual(rows[2], {
      id: 3,
      name: null,
      note: 'has "quotes"',
      amount: null,
      born: '2000-02-29',
      score: null,
      active: null,
    });
    assert.deepEqual([rows[1].score, rows[3].score], ['NaN', 'Infinity']);
    assert.deepEqual([rows[3].name, rows[3].note, rows[4].name], ['Zoë', 'line1\nline2', '日本']);
  });

  it('writes decimals with their exact digits', async () => {
    const res = await query('SELECT amount FROM people WHERE id IN (4, 5) ORDER BY id');
    assert.equal(res.text, '[{"amount":0.00},{"amount":1234567.89}]');
  });

  it('is [] for an empty result', async () => {
    assert.equal((await query(EMPTY)).text, '[]');
  });

  for (const accept of ['application/json', '*/*', 'text/html', 'application/xml;q=0.9', 'nonsense;;']) {
    it(`answers Accept ${JSON.stringify(accept)} with JSON, never 406`, async () => {
      const res = await query('SELECT 1 AS one', accept);
      assert.deepEqual([res.status, res.contentType, res.text], [200, 'application/json', '[{"one":1}]']);
    });
  }

  it('serves accelerated tables identically', async () => {
    assert.equal((await query('SELECT * FROM people_mem ORDER BY id')).text, (await query(ALL)).text);
  });
});

describe('application/vnd.service.sql.v1+json', () => {
  const VND = 'application/vnd.service.sql.v1+json';

  it('returns schema, data and row_count, in that key order', async () => {
    const res = await query('SELECT id, name, amount, born FROM people ORDER BY id LIMIT 2', VND);
    assert.equal(res.contentType, VND);
    const body = JSON.parse(res.text);
    assert.deepEqual(Object.keys(body), ['schema', 'data', 'row_count']);
    assert.deepEqual(
      body.schema.fields.map((f: { name: string; data_type: string }) => [f.name, f.data_type]),
      [
        ['id', 'Int32'],
        ['name', 'Utf8'],
        ['amount', 'Decimal128(15, 2)'],
        ['born', 'Date32'],
      ],
    );
    assert.equal(typeof body.schema.fields[0].nullable, 'boolean');
    assert.deepEqual(body.data, [
      { id: 1, name: 'Alice', amount: 12.5, born: '1990-01-02' },
      { id: 2, name: 'Bob', amount: -3.05, born: null },
    ]);
    assert.equal(body.row_count, 2);
  });

  it('keeps the real schema for an empty result', async () => {
    const body = JSON.parse((await query(EMPTY, VND)).text);
    assert.deepEqual(
      body.schema.fields.map((f: { name: string }) => f.name),
      ['id', 'name'],
    );
    assert.deepEqual([body.data, body.row_count], [[], 0]);
  });
});

describe('text/csv', () => {
  it('quotes the header and quotes values per RFC 4180; nulls are empty', async () => {
    const res = await query(ALL, 'text/csv');
    assert.equal(res.contentType, 'text/csv; charset=utf-8');
    assert.equal(
      res.text,
      '"id","name","note","amount","born","score","active"\n' +
        '1,Alice,plain,12.50,1990-01-02,1.5,true\n' +
        '2,Bob,"has, comma",-3.05,,NaN,false\n' +
        '3,,"has ""quotes""",,2000-02-29,,\n' +
        '4,Zoë,"line1\nline2",0.00,1970-01-01,Infinity,true\n' +
        '5,日本,"",1234567.89,2024-12-31,-0.25,false\n',
    );
  });

  it('writes the header for an empty result', async () => {
    assert.equal((await query(EMPTY, 'text/csv')).text, '"id","name"\n');
  });

  it('honours q-values and parameters', async () => {
    assert.equal((await query('SELECT 1 AS one', 'text/csv;q=0.9, application/json;q=0.1')).text, '"one"\n1\n');
    assert.equal((await query('SELECT 1 AS one', 'text/csv; charset=utf-8')).contentType, 'text/csv; charset=utf-8');
    assert.equal(
      (await query('SELECT 1 AS one', 'application/json;q=0.2, text/csv;q=0.3')).contentType,
      'text/csv; charset=utf-8',
    );
    assert.equal(
      (await query('SELECT 1 AS one', 'text/csv;q=0.1, application/json;q=0.9')).contentType,
      'application/json',
    );
    assert.equal((await query('SELECT 1 AS one', 'text/csv; charset=latin1')).contentType, 'application/json');
  });
});

describe('text/plain', () => {
  it('draws an ASCII table with a border line between rows, nulls blank', async () => {
    const res = await query('SELECT id, name, amount FROM people WHERE id <= 3 ORDER BY id', 'text/plain');
    assert.equal(res.contentType, 'text/plain; charset=utf-8');
    assert.equal(
      res.text,
      [
        '+----+-------+--------+',
        '| id | name  | amount |',
        '+----+-------+--------+',
        '| 1  | Alice | 12.50  |',
        '+----+-------+--------+',
        '| 2  | Bob   | -3.05  |',
        '+----+-------+--------+',
        '| 3  |       |        |',
        '+----+-------+--------+',
        '',
      ].join('\n'),
    );
  });

  it('keeps wide characters aligned and newlines escaped', async () => {
    const res = await query('SELECT name, note FROM people WHERE id IN (4, 5) ORDER BY id', 'text/plain');
    assert.deepEqual(res.text.split('\n').slice(3, 6), [
      '| Zoë  | line1\\nline2 |',
      '+------+--------------+',
      '| 日本 |              |',
    ]);
  });

  it('draws the header alone for an empty result', async () => {
    assert.equal((await query(EMPTY, 'text/plain')).text, '+----+------+\n| id | name |\n+----+------+\n');
  });
});
