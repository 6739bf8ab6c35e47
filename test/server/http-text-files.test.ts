// CSV and JSON datasets end to end: a real server from a manifest object, files and accelerated mode, real HTTP.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, startServer } from '../../server/main.js';
import { post } from '../helpers/http.js';

let dir: string;
let server: RunningServer;
let sqlUrl: string;

const CSV = 'id,name,price,day\n1,"Smith, J",2.50,2024-01-02\n2,"say ""hi""",,2024-01-03\n3,plain,4,2024-01-04\n';
const NDJSON = [
  { id: 1, tags: ['a', 'b'], ok: true },
  { id: 2, tags: { k: 1 }, ok: false },
  { id: 3, ok: null },
]
  .map((o) => JSON.stringify(o))
  .join('\n');

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-http-text-'));
  await writeFile(join(dir, 'items.csv'), CSV);
  await writeFile(join(dir, 'events.jsonl'), NDJSON);
  await writeFile(join(dir, 'rows.tsv'), 'a\tb\n1\tx\n2\ty\n');
  const bad = ['k,v', ...Array.from({ length: 9 }, (_, i) => `${i},${i}.5`), '9,n/a'];
  await writeFile(join(dir, 'bad.csv'), `${bad.join('\n')}\n`);
  const manifest = {
    version: 'v1',
    kind: 'Spicepod',
    name: 'text-files',
    datasets: [
      { name: 'items', from: 'file:items.csv', columns: [{ name: 'price', type: 'decimal(10,2)' }] },
      { name: 'items_acc', from: 'file:items.csv', params: { file_format: 'csv' }, acceleration: { enabled: true } },
      { name: 'events', from: 'file:events.jsonl' },
      {
        name: 'events_acc',
        from: 'file:events.jsonl',
        params: { file_format: 'json' },
        acceleration: { enabled: true },
      },
      { name: 'tabbed', from: 'file:rows.tsv' },
      { name: 'bad', from: 'file:bad.csv', params: { csv_schema_infer_max_records: 5 } },
    ],
  };
  server = await startServer({ manifest, baseDir: dir, host: '127.0.0.1', port: 0, workers: 2, log: () => {} });
  sqlUrl = `http://127.0.0.1:${server.port}/v1/sql`;
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function rows(sql: string): Promise<unknown> {
  const res = await post(sqlUrl, sql);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text);
}

describe('CSV and JSON datasets over HTTP', () => {
  for (const table of ['items', 'items_acc']) {
    it(`${table}: quoted fields, NULLs, inferred and declared types`, async () => {
      const got = await rows(`SELECT id, name, price, day FROM ${table} ORDER BY id`);
      assert.deepEqual(got, [
        { id: 1, name: 'Smith, J', price: 2.5, day: '2024-01-02' },
        { id: 2, name: 'say "hi"', price: null, day: '2024-01-03' },
        { id: 3, name: 'plain', price: 4, day: '2024-01-04' },
      ]);
    });
  }

  for (const table of ['events', 'events_acc']) {
    it(`${table}: NDJSON with nested values as JSON text`, async () => {
      assert.deepEqual(await rows(`SELECT id, tags, ok FROM ${table} ORDER BY id`), [
        { id: 1, tags: '["a","b"]', ok: true },
        { id: 2, tags: '{"k":1}', ok: false },
        { id: 3, tags: null, ok: null },
      ]);
    });
  }

  it('the declared type is the column type', async () => {
    // numeric(10,2) prints its scale; the inferred double does not.
    assert.deepEqual(await rows('SELECT price::text AS t FROM items WHERE id = 1'), [{ t: '2.50' }]);
    assert.deepEqual(await rows('SELECT price::text AS t FROM items_acc WHERE id = 1'), [{ t: '2.5' }]);
  });

  it('a .tsv file is read with tabs', async () => {
    assert.deepEqual(await rows('SELECT b FROM tabbed WHERE a = 2'), [{ b: 'y' }]);
  });

  it('a bad row is a 400 naming file, line and column', async () => {
    const res = await post(sqlUrl, 'SELECT sum(v) FROM bad');
    assert.equal(res.status, 400);
    assert.equal(res.text, `${join(dir, 'bad.csv')} line 11, column "v": 'n/a' is not a DOUBLE`);
    // The other datasets keep serving, and so does the bad one's good column.
    assert.deepEqual(await rows('SELECT count(k) AS n FROM bad'), [{ n: 10 }]);
  });
});
