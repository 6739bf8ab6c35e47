// POST /v1/sql as an Arrow IPC stream and as NDJSON over real HTTP: negotiation, bodies, errors, the results cache.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as arrow from 'apache-arrow';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { post, rawPost } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ARROW = 'application/vnd.apache.arrow.stream';
const NDJSON = 'application/x-ndjson';
const ALL = 'SELECT * FROM people ORDER BY id';

let srv: TestServer;

before(async () => {
  const dir = await makeTempDir();
  const people = `file:${await writePeople(join(dir, 'people.parquet'))}`;
  const big = `file:${await writeBig(join(dir, 'big.parquet'), 100_000)}`;
  srv = await startTestServer(
    [
      { name: 'people', from: people },
      { name: 'big', from: big, acceleration: { enabled: true } },
    ],
    { runtime: { caching: { sql_results: { max_size: '8MiB', item_ttl: '1h' } } } },
  );
});
after(() => srv.close());

/** The answer's status, headers and raw bytes. */
async function fetchBytes(sql: string, accept: string, headers: Record<string, string> = {}) {
  const res = await fetch(srv.sql, { method: 'POST', body: sql, headers: { accept, ...headers } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Arrow rows as plain objects (bigint, Decimal and date values as the JSON format spells them where asked). */
function rowsOf(table: arrow.Table): Record<string, unknown>[] {
  return table.toArray().map((r) => ({ ...r.toJSON() }));
}

describe('Accept: application/vnd.apache.arrow.stream', () => {
  it('streams an Arrow IPC stream that apache-arrow reads back equal to the JSON rows', async () => {
    const res = await fetchBytes(ALL, ARROW);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), ARROW);
    const table = arrow.tableFromIPC(res.bytes);
    const json = JSON.parse((await post(srv.sql, ALL)).text);
    assert.equal(table.numRows, json.length);
    assert.deepEqual(
      table.schema.fields.map((f) => [f.name, String(f.type)]),
      [
        ['id', 'Int32'],
        ['name', 'Utf8'],
        ['note', 'Utf8'],
        ['amount', 'Decimal[15e+2]'],
        ['born', 'Date32<DAY>'],
        ['score', 'Float64'],
        ['active', 'Bool'],
      ],
    );
    const rows = rowsOf(table);
    for (const [i, row] of rows.entries()) {
      const expected = json[i];
      assert.equal(row.id, expected.id);
      assert.equal(row.name, expected.name);
      assert.equal(row.note, expected.note);
      assert.equal(row.active, expected.active);
      const score = row.score as number | null;
      assert.equal(score === null || Number.isFinite(score) ? score : String(score), expected.score);
      const born = row.born as number | null;
      assert.equal(born === null ? null : new Date(born).toISOString().slice(0, 10), expected.born);
    }
    // Decimal128 keeps the scaled integer: 1234567.89 -> 123456789 at scale 2.
    const amount = table.getChild('amount')!.data[0]!.values as Uint32Array;
    assert.equal(amount[4 * 4], 123456789);
  });

  it('sends an empty result as a valid stream with the schema', async () => {
    const res = await fetchBytes('SELECT id, name FROM people WHERE id < 0', ARROW);
    assert.equal(res.status, 200);
    const table = arrow.tableFromIPC(res.bytes);
    assert.deepEqual([table.numRows, table.schema.fields.map((f) => f.name)], [0, ['id', 'name']]);
  });

  it('streams a large result in many record batches, every row in order, query after query', async () => {
    // Three times over two workers: a worker's later streams must not differ from its first (a shared buffer
    // transferred to the main thread once would be empty after).
    for (let run = 0; run < 3; run++) {
      const res = await fetchBytes('SELECT id, label FROM big ORDER BY id', ARROW);
      const batches = [...arrow.RecordBatchReader.from(res.bytes)];
      assert.ok(batches.length > 1, `${batches.length} batches`);
      const table = new arrow.Table(batches);
      assert.equal(table.numRows, 100_000);
      const ids = table.getChild('id')!.toArray() as Int32Array;
      assert.ok(ids.every((v, i) => v === i));
      assert.equal(table.getChild('label')!.get(99_999), 'label-99999');
    }
  });

  it('answers a bad query with the usual text error and status', async () => {
    const res = await fetchBytes('SELECT nope FROM people', ARROW);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(Buffer.from(res.bytes).toString(), /nope/);
  });

  it('cuts the connection on an error after the stream started, as JSON does (the reader sees a cut stream)', async () => {
    const res = await rawPost(srv.sql, 'SELECT id, 1 / (id - 99990) AS x FROM big', { accept: ARROW });
    assert.equal(res.status, 200);
    assert.equal(res.complete, false);
    assert.ok(res.body.length > 64 * 1024);
    // A reader gets fewer rows than the table holds (or fails on the cut message), never a complete-looking answer.
    let rows = -1;
    try {
      rows = arrow.tableFromIPC(res.body).numRows;
    } catch {}
    assert.ok(rows < 99_990, `${rows} rows`);
  });

  it('is cached under its own key: MISS, then HIT with the same bytes, never the JSON entry', async () => {
    const sql = 'SELECT id, amount FROM people ORDER BY id';
    const json = await post(srv.sql, sql);
    const first = await fetchBytes(sql, ARROW);
    const second = await fetchBytes(sql, ARROW);
    assert.equal(json.headers.get('results-cache-status'), 'MISS');
    assert.equal(first.headers.get('results-cache-status'), 'MISS');
    assert.equal(second.headers.get('results-cache-status'), 'HIT');
    assert.equal(second.headers.get('content-type'), ARROW);
    assert.deepEqual(second.bytes, first.bytes);
    assert.equal(arrow.tableFromIPC(second.bytes).numRows, 5);
  });
});

describe('Accept: application/x-ndjson', () => {
  it('streams one JSON object per line, each equal to the JSON row', async () => {
    const res = await post(srv.sql, ALL, { accept: NDJSON });
    assert.equal(res.status, 200);
    assert.equal(res.contentType, NDJSON);
    const lines = res.text.split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      JSON.parse((await post(srv.sql, ALL)).text),
    );
  });

  it('is an empty body for no rows, and cached apart from JSON', async () => {
    const empty = await post(srv.sql, 'SELECT id FROM people WHERE id < 0', { accept: NDJSON });
    assert.deepEqual([empty.status, empty.text], [200, '']);
    const sql = 'SELECT name FROM people ORDER BY id LIMIT 2';
    await post(srv.sql, sql);
    const first = await post(srv.sql, sql, { accept: NDJSON });
    const second = await post(srv.sql, sql, { accept: NDJSON });
    assert.deepEqual(
      [first.headers.get('results-cache-status'), second.headers.get('results-cache-status')],
      ['MISS', 'HIT'],
    );
    assert.equal(second.text, '{"name":"Alice"}\n{"name":"Bob"}\n');
  });
});

describe('negotiation', () => {
  const cases: [string, string][] = [
    [`application/json;q=0.5, ${ARROW}`, ARROW],
    [`${ARROW};q=0.1, ${NDJSON};q=0.9`, NDJSON],
    // Equal q: the client's first listed type.
    [`${NDJSON}, ${ARROW}`, NDJSON],
    [`${ARROW}, application/json`, ARROW],
    [`application/json, ${ARROW}`, 'application/json'],
    [`${ARROW};q=0, application/*;q=0.5`, 'application/json'],
    [`${NDJSON};q=0.4, text/csv;q=0.5`, 'text/csv; charset=utf-8'],
  ];
  for (const [accept, expected] of cases) {
    it(`answers Accept ${JSON.stringify(accept)} with ${expected}`, async () => {
      const res = await post(srv.sql, 'SELECT 1 AS one', { accept });
      assert.deepEqual([res.status, res.contentType], [200, expected]);
    });
  }
});
