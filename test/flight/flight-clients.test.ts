// Real Flight clients against a real floe: Spice's SDK (plain Flight, prepared statements) and Rust's Flight SQL
// client (query, catalogs, schemas, tables with schemas), errors as gRPC statuses, types against DuckDB.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { createFlightSqlClient } from '@lakehouse-rs/flight-sql-client';
import { SpiceClient } from '@spiceai/spice';
import * as arrow from 'apache-arrow';
import { duckText } from '../../bench/lib/result-rows.js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { descriptor, doGet, fetchTable, flightInfo, type RawClient, rawClient, rowsOf } from './flight-client.js';

let srv: TestServer;
let file: string;
let port: number;
let raw: RawClient;

before(async () => {
  file = await writePeople(join(await makeTempDir('floe-flight-'), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], { flight: { host: '127.0.0.1', port: 0 } });
  port = srv.server.flight?.port ?? 0;
  raw = rawClient(port);
});
after(async () => {
  raw.close();
  await srv.close();
});

/** Spice's SDK bundles its own apache-arrow: its tables are read through this copy's types. */
const spiceSql = async (sql: string, options?: object): Promise<arrow.Table> =>
  (await spice().sql(sql, options as never)) as unknown as arrow.Table;
const spice = () => new SpiceClient({ flightUrl: `127.0.0.1:${port}`, flightOnly: true, logging: false } as never);
const rust = () => createFlightSqlClient({ host: '127.0.0.1', port, tls: false, headers: [] });

describe('Spice SDK (plain Flight)', () => {
  it('sql() returns the rows and types', async () => {
    const t = await spiceSql('SELECT id, name, active FROM people ORDER BY id');
    assert.equal(t.numRows, 5);
    assert.deepEqual(
      t.schema.fields.map((f) => String(f.type)),
      ['Int32', 'Utf8', 'Bool'],
    );
    assert.deepEqual(rowsOf(t).slice(0, 3), [
      { id: 1, name: 'Alice', active: true },
      { id: 2, name: 'Bob', active: false },
      { id: 3, name: null, active: null },
    ]);
  });

  it('binds $1..$n through CreatePreparedStatement, DoPut and DoGet', async () => {
    const t = await spiceSql('SELECT id, name FROM people WHERE id = $1 OR name = $2 ORDER BY id', {
      parameters: [1, 'Bob'],
    });
    assert.deepEqual(rowsOf(t), [
      { id: 1, name: 'Alice' },
      { id: 2, name: 'Bob' },
    ]);
  });

  it('a bad query is INVALID_ARGUMENT with the message HTTP sends', async () => {
    const http = await fetch(srv.sql, { method: 'POST', body: 'SELECT nope FROM people' });
    const expected = await http.text();
    assert.equal(http.status, 400);
    await assert.rejects(spice().sql('SELECT nope FROM people'), (e: { code: number; details: string }) => {
      assert.equal(e.code, 3);
      assert.equal(e.details, expected);
      return true;
    });
  });
});

describe('Rust Flight SQL client', () => {
  it('query', async () => {
    const t = arrow.tableFromIPC(await (await rust()).query('SELECT id, name FROM people WHERE id < 3 ORDER BY id'));
    assert.deepEqual(rowsOf(t), [
      { id: 1, name: 'Alice' },
      { id: 2, name: 'Bob' },
    ]);
  });

  it('getCatalogs, getDbSchemas (patterns), getTables with schemas', async () => {
    const client = await rust();
    assert.deepEqual(rowsOf(arrow.tableFromIPC(await client.getCatalogs())), [{ catalog_name: 'floe' }]);
    const schemas = arrow.tableFromIPC(await client.getDbSchemas({ dbSchemaFilterPattern: 'pub%' }));
    assert.deepEqual(rowsOf(schemas), [{ catalog_name: 'floe', db_schema_name: 'public' }]);
    assert.equal(arrow.tableFromIPC(await client.getDbSchemas({ dbSchemaFilterPattern: 'x%' })).numRows, 0);
    const tables = arrow.tableFromIPC(
      await client.getTables({ tableNameFilterPattern: 'peop_e', includeSchema: true }),
    );
    assert.equal(tables.numRows, 1);
    const row = tables.get(0)?.toJSON() as Record<string, unknown>;
    assert.deepEqual(
      [row.catalog_name, row.db_schema_name, row.table_name, row.table_type],
      ['floe', 'public', 'people', 'TABLE'],
    );
    const schema = arrow.tableFromIPC(row.table_schema as Uint8Array).schema;
    assert.deepEqual(
      schema.fields.map((f) => `${f.name}:${f.type}`),
      [
        'id:Int32',
        'name:Utf8',
        'note:Utf8',
        'amount:Decimal[15e+2]',
        'born:Date32<DAY>',
        'score:Float64',
        'active:Bool',
      ],
    );
    assert.equal(arrow.tableFromIPC(await client.getTables({ tableNameFilterPattern: 'people_' })).numRows, 0);
  });

  it('a bad query fails (at CreatePreparedStatement: the client keeps only its own words)', async () => {
    await assert.rejects((await rust()).query('SELEC 1'), /failed to prepare statement/);
  });
});

describe('Flight SQL commands (raw gRPC)', () => {
  it('GetFlightInfo announces the schema; total_records is -1', async () => {
    const info = await flightInfo(raw, descriptor('SELECT id, amount FROM people'));
    assert.equal(Number(info.totalRecords), -1);
    const schema = arrow.tableFromIPC(info.schema).schema;
    assert.deepEqual(
      schema.fields.map((f) => `${f.name}:${f.type}`),
      ['id:Int32', 'amount:Decimal[15e+2]'],
    );
  });

  it('CommandStatementQuery, GetTableTypes, GetPrimaryKeys, GetSqlInfo', async () => {
    const q = await fetchTable(raw, {
      name: 'CommandStatementQuery',
      fields: { query: 'SELECT count(*) AS n FROM people' },
    });
    assert.deepEqual(rowsOf(q), [{ n: 5 }]);
    assert.deepEqual(rowsOf(await fetchTable(raw, { name: 'CommandGetTableTypes' })), [{ table_type: 'TABLE' }]);
    const keys = await fetchTable(raw, { name: 'CommandGetPrimaryKeys', fields: { table: 'people' } });
    assert.equal(keys.numRows, 0);
    assert.equal(keys.schema.fields.length, 6);
    const info = await fetchTable(raw, { name: 'CommandGetSqlInfo', fields: { info: [0, 3, 504] } });
    assert.deepEqual(rowsOf(info), [
      { info_name: 0, value: 'floe' },
      { info_name: 3, value: false },
      { info_name: 504, value: '"' },
    ]);
  });

  it('an unknown command is UNIMPLEMENTED; a PATH descriptor too', async () => {
    await assert.rejects(
      flightInfo(raw, descriptor({ name: 'CommandGetXdbcTypeInfo' })),
      (e: { code: number; details: string }) => {
        assert.equal(e.code, 12);
        assert.equal(e.details, 'Flight SQL command CommandGetXdbcTypeInfo is not supported yet');
        return true;
      },
    );
    await assert.rejects(flightInfo(raw, { type: 1, path: ['people'] }), { code: 12 });
  });

  it('an unknown table is INVALID_ARGUMENT at DoGet too', async () => {
    await assert.rejects(doGet(raw, Buffer.from('SELECT * FROM nowhere')), (e: { code: number; details: string }) => {
      assert.equal(e.code, 3);
      assert.match(e.details, /nowhere/);
      return true;
    });
  });
});

describe('types against DuckDB', () => {
  const SQL =
    'SELECT id, name, amount, born, score, active, CAST(id AS bigint) * 10000000000 AS big, ' +
    "CAST('2024-01-02 03:04:05.123456' AS timestamp) AS ts FROM people ORDER BY id";

  it('decimal precision and scale, dates, timestamps, bigints, floats, NULLs', async () => {
    const t = await fetchTable(raw, SQL);
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    await conn.run(`CREATE VIEW people AS SELECT * FROM read_parquet('${file}')`);
    const expected = await conn.runAndReadAll(SQL);
    const duckTypes = expected.columnTypes().map((c) => c.toString());
    assert.deepEqual(
      t.schema.fields.map((f) => duckTypeOf(f.type)),
      duckTypes,
    );
    const duckRows = expected.getRows().map((r) => r.map(duckText));
    const floeRows = Array.from({ length: t.numRows }, (_, i) =>
      t.schema.fields.map((f, c) => arrowText(f.type, t.getChildAt(c)?.get(i))),
    );
    assert.deepEqual(floeRows, duckRows);
    conn.closeSync();
    duck.closeSync();
  });
});

/** DuckDB's name for an Arrow type floe sends. */
function duckTypeOf(type: arrow.DataType): string {
  if (type instanceof arrow.Decimal) return `DECIMAL(${type.precision},${type.scale})`;
  if (type instanceof arrow.Timestamp) return type.timezone ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP';
  const names: Record<string, string> = {
    Int32: 'INTEGER',
    Int64: 'BIGINT',
    Utf8: 'VARCHAR',
    'Date32<DAY>': 'DATE',
    Float64: 'DOUBLE',
    Bool: 'BOOLEAN',
  };
  return names[String(type)] ?? String(type);
}

/** An Arrow value as `duckText` writes DuckDB's (decimals exact, dates and timestamps as text). */
function arrowText(type: arrow.DataType, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (type instanceof arrow.Decimal) {
    const unscaled = arrow.util.bigNumToBigInt(v as never);
    const sign = unscaled < 0n ? '-' : '';
    const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(type.scale + 1, '0');
    return type.scale === 0
      ? `${sign}${digits}`
      : `${sign}${digits.slice(0, -type.scale)}.${digits.slice(-type.scale)}`;
  }
  if (arrow.DataType.isDate(type)) return new Date(Number(v)).toISOString().slice(0, 10);
  if (arrow.DataType.isTimestamp(type)) {
    const micros = BigInt(Math.round(Number(v) * 1000));
    const secs = micros / 1_000_000n;
    const frac = Number(micros - secs * 1_000_000n);
    const base = new Date(Number(secs) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    return frac === 0 ? base : `${base}.${String(frac).padStart(6, '0').replace(/0+$/, '')}`;
  }
  return String(v);
}
