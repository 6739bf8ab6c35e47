// Iceberg catalogs over HTTP: DDL and writes through /v1/sql on a real server, read back by floe, icebird and DuckDB.
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { icebergRead } from 'icebird';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { shimFetchForFiles } from './helpers.js';

type Row = Record<string, unknown>;

const sqlOk = async (srv: TestServer, sql: string, headers: Record<string, string> = {}): Promise<Row[]> => {
  const a = await post(srv.sql, sql, headers);
  assert.equal(a.status, 200, `${sql}\n${a.text}`);
  return JSON.parse(a.text) as Row[];
};
const sqlFails = async (srv: TestServer, sql: string, status: number, message: RegExp) => {
  const a = await post(srv.sql, sql);
  assert.equal(a.status, status, `${sql}\n${a.text}`);
  assert.match(a.text, message);
  assert.doesNotMatch(a.text, /\n\s+at /, 'no stack trace');
};
/** The table's rows as icebird reads them from the warehouse (through version-hint.text), as plain JSON values. */
const icebird = async (tableDir: string): Promise<Row[]> => {
  shimFetchForFiles();
  const rows = await icebergRead({ tableUrl: pathToFileURL(tableDir).href });
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
  );
};
/** `FROM series(n)`: the integers 1..n as column `g` (floe has no generate_series yet). */
const series = (n: number) =>
  `(WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${n}) SELECT g FROM s) AS t`;
const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);
const metadataVersions = async (tableDir: string) =>
  (await readdir(join(tableDir, 'metadata'))).filter((f) => /^v\d+\.metadata\.json$/.test(f)).length;
const dataFiles = async (tableDir: string): Promise<string[]> =>
  (await readdir(join(tableDir, 'data'), { recursive: true }))
    .filter((f) => String(f).endsWith('.parquet'))
    .map(String);

describe('Iceberg writes through SQL', () => {
  let wh: string;
  let srv: TestServer;
  const catalog = () => ({ from: `iceberg:${pathToFileURL(wh).href}`, name: 'lake', access: 'read_write' });
  const open = () =>
    startTestServer([], { catalogs: [catalog()], runtime: { caching: { sql_results: { enabled: true } } } });
  before(async () => {
    wh = await makeTempDir('floe-ice-sql-');
    srv = await open();
  });
  after(async () => {
    await srv.close();
    await rm(wh, { recursive: true, force: true });
  });

  it('creates a schema and a table, appends VALUES and reads them back', async () => {
    assert.deepEqual(await sqlOk(srv, 'CREATE SCHEMA lake.sales'), [{ status: 'CREATE SCHEMA' }]);
    await sqlOk(
      srv,
      'CREATE TABLE lake.sales.orders (id bigint NOT NULL, item text, qty int, price numeric(10,2), day date)',
    );
    assert.deepEqual(await sqlOk(srv, 'SELECT count(*) AS n FROM lake.sales.orders'), [{ n: 0 }]);
    const values =
      "(1, 'apple', 3, 1.25, '2024-01-02'), (2, 'pear', NULL, 0.5, '2024-01-03'), (3, 'Zoë 日本', 7, -2, NULL)";
    assert.deepEqual(await sqlOk(srv, `INSERT INTO lake.sales.orders VALUES ${values}`), [{ count: 3 }]);
    const rows = await sqlOk(srv, 'SELECT id, item, qty, price, day FROM lake.sales.orders ORDER BY id');
    assert.deepEqual(rows, [
      { id: 1, item: 'apple', qty: 3, price: 1.25, day: '2024-01-02' },
      { id: 2, item: 'pear', qty: null, price: 0.5, day: '2024-01-03' },
      { id: 3, item: 'Zoë 日本', qty: 7, price: -2, day: null },
    ]);
  });

  it('appends, overwrites and appends: floe and icebird read the same rows; snapshots say what happened', async () => {
    const dir = join(wh, 'sales', 'orders');
    await sqlOk(srv, "INSERT INTO lake.sales.orders (id, item) SELECT id + 10, item || '!' FROM lake.sales.orders");
    assert.deepEqual(await sqlOk(srv, 'SELECT count(*) AS n, sum(id) AS s FROM lake.sales.orders'), [{ n: 6, s: 42 }]);
    await sqlOk(srv, 'INSERT OVERWRITE lake.sales.orders SELECT * FROM lake.sales.orders WHERE id > 10');
    await sqlOk(srv, "INSERT INTO lake.sales.orders VALUES (20, 'fig', 1, 9.99, '2024-02-01')");
    const floe = await sqlOk(srv, 'SELECT id, item, qty, day FROM lake.sales.orders ORDER BY id');
    assert.deepEqual(
      floe.map((r) => r.id),
      [11, 12, 13, 20],
    );
    const theirs = (await icebird(dir)).sort(byId).map((r) => ({
      id: r.id,
      item: r.item,
      qty: r.qty ?? null,
      day: r.day === null || r.day === undefined ? null : new Date(r.day as Date).toISOString().slice(0, 10),
    }));
    assert.deepEqual(theirs, floe);
    const hint = (await readFile(join(dir, 'metadata', 'version-hint.text'), 'utf8')).trim();
    const meta = JSON.parse(await readFile(join(dir, 'metadata', `v${hint}.metadata.json`), 'utf8'));
    const ops = meta.snapshots.map((s: { summary: Record<string, string> }) => s.summary.operation);
    assert.deepEqual(ops, ['append', 'append', 'overwrite', 'append']);
    const last = meta.snapshots.at(-1).summary;
    assert.equal(last['total-records'], '4');
    assert.equal(meta['current-snapshot-id'], meta.refs.main['snapshot-id']);
    assert.equal(meta['metadata-log'].length, Number(hint) - 1);
  });

  it('writes Parquet files DuckDB reads, with the Iceberg field ids', async () => {
    const dir = join(wh, 'sales', 'orders');
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const files = (await dataFiles(dir)).map((f) => join(dir, 'data', f));
    const schema = await duck.runAndReadAll(
      `SELECT name, field_id FROM parquet_schema('${files[0]}') WHERE field_id IS NOT NULL ORDER BY field_id`,
    );
    assert.deepEqual(schema.getRowObjectsJson(), [
      { name: 'id', field_id: '1' },
      { name: 'item', field_id: '2' },
      { name: 'qty', field_id: '3' },
      { name: 'price', field_id: '4' },
      { name: 'day', field_id: '5' },
    ]);
    // DuckDB over every file ever written would count overwritten rows too: read the live ones floe lists.
    const live = await sqlOk(srv, 'SELECT sum(id) AS s FROM lake.sales.orders');
    assert.equal(live[0]!.s, 56);
  });

  it('a read right after a write sees it, with the results cache on', async () => {
    await sqlOk(srv, 'CREATE TABLE lake.sales.hits (n int)');
    const count = async () => (await sqlOk(srv, 'SELECT count(*) AS c FROM lake.sales.hits'))[0]!.c;
    assert.equal(await count(), 0);
    assert.equal(await count(), 0);
    for (let i = 1; i <= 3; i++) {
      await sqlOk(srv, `INSERT INTO lake.sales.hits VALUES (${i})`);
      assert.equal(await count(), i);
    }
  });

  it('CREATE TABLE AS: a new table, then the third mode: refused while the table holds rows', async () => {
    assert.deepEqual(
      await sqlOk(srv, 'CREATE TABLE lake.sales.big AS SELECT id, item FROM lake.sales.orders WHERE id < 13'),
      [{ count: 2 }],
    );
    await sqlFails(
      srv,
      'CREATE TABLE lake.sales.big AS SELECT id, item FROM lake.sales.orders',
      400,
      /already holds data/,
    );
    await sqlOk(srv, 'CREATE TABLE lake.sales.empty (id bigint, item text)');
    assert.deepEqual(await sqlOk(srv, 'CREATE TABLE lake.sales.empty AS SELECT id, item FROM lake.sales.orders'), [
      { count: 4 },
    ]);
    assert.deepEqual(await sqlOk(srv, 'SELECT count(*) AS n FROM lake.sales.big'), [{ n: 2 }]);
  });

  it('a failed write commits nothing and leaves no data file behind', async () => {
    const dir = join(wh, 'sales', 'orders');
    const [versions, files] = [await metadataVersions(dir), (await dataFiles(dir)).length];
    // The NULL comes in the middle of the source: rows before it were already on their way to a data file.
    await sqlFails(
      srv,
      `INSERT INTO lake.sales.orders (id) SELECT CASE WHEN g = 5000 THEN NULL ELSE g END FROM ${series(10000)}`,
      400,
      /null value in column "id" of relation "orders" violates not-null constraint/,
    );
    assert.equal(await metadataVersions(dir), versions);
    assert.equal((await dataFiles(dir)).length, files);
  });

  it('partitioned tables: one file per partition, and a filter on the partition column skips files', async () => {
    await sqlOk(
      srv,
      'CREATE TABLE lake.sales.events (id int, ts timestamp, kind text) PARTITIONED BY (day(ts), bucket(4, id))',
    );
    await sqlOk(
      srv,
      `INSERT INTO lake.sales.events SELECT g, CASE g % 3 WHEN 0 THEN TIMESTAMP '2024-03-01 10:00' WHEN 1 THEN TIMESTAMP '2024-03-02 11:00' ELSE TIMESTAMP '2024-03-03 12:00' END, 'k' || (g % 5) FROM ${series(300)}`,
    );
    const files = await dataFiles(join(wh, 'sales', 'events'));
    assert.equal(files.length, 12, files.join('\n'));
    assert.ok(
      files.every((f) => /^ts_day=2024-03-0[123]\/id_bucket=[0-3]\//.test(f)),
      files.join('\n'),
    );
    const plan = (await sqlOk(srv, "EXPLAIN SELECT count(*) FROM lake.sales.events WHERE ts >= '2024-03-03'"))
      .map((r) => r.plan)
      .join('\n');
    assert.match(plan, /files=4\/12/);
    assert.deepEqual(await sqlOk(srv, "SELECT count(*) AS n FROM lake.sales.events WHERE ts >= '2024-03-03'"), [
      { n: 100 },
    ]);
  });

  it('concurrent INSERT streams lose no row', async () => {
    await sqlOk(srv, 'CREATE TABLE lake.sales.stream (writer int, i int)');
    await Promise.all(
      [1, 2, 3].map(async (w) => {
        for (let i = 0; i < 8; i++)
          await sqlOk(srv, `INSERT INTO lake.sales.stream SELECT ${w}, g FROM ${series(100)}`);
      }),
    );
    assert.deepEqual(
      await sqlOk(srv, 'SELECT writer, count(*) AS n FROM lake.sales.stream GROUP BY writer ORDER BY writer'),
      [
        { writer: 1, n: 800 },
        { writer: 2, n: 800 },
        { writer: 3, n: 800 },
      ],
    );
  });

  it('DDL mistakes get clear 4xx answers', async () => {
    await sqlFails(srv, 'CREATE TABLE lake.nope.t (a int)', 400, /schema "nope" does not exist/);
    await sqlFails(srv, 'CREATE TABLE other.sales.t (a int)', 400, /catalog "other" does not exist/);
    await sqlFails(srv, 'CREATE TABLE lake.sales.orders (a int)', 400, /already exists/);
    await sqlFails(srv, 'DROP TABLE lake.sales.missing', 400, /does not exist/);
    await sqlFails(srv, 'CREATE SCHEMA lake.sales', 400, /schema "sales" already exists/);
    assert.deepEqual(await sqlOk(srv, 'CREATE SCHEMA IF NOT EXISTS lake.sales'), [{ status: 'CREATE SCHEMA' }]);
    await sqlFails(
      srv,
      'CREATE TABLE lake.sales.p (a int) PARTITIONED BY (day(a))',
      400,
      /partition transform day cannot apply to column "a" of type integer/,
    );
  });

  it('after a restart the warehouse is found again, and DROP TABLE removes a table for good', async () => {
    const before = await sqlOk(srv, 'SELECT * FROM lake.sales.orders ORDER BY id');
    await sqlOk(srv, 'DROP TABLE lake.sales.big');
    await sqlFails(srv, 'SELECT * FROM lake.sales.big', 400, /does not exist/);
    await srv.close();
    srv = await open();
    assert.deepEqual(await sqlOk(srv, 'SELECT * FROM lake.sales.orders ORDER BY id'), before);
    await sqlFails(srv, 'SELECT * FROM lake.sales.big', 400, /does not exist/);
    await sqlOk(srv, 'CREATE TABLE lake.sales.big (x int)');
  });
});
