// PostgreSQL as the test oracle: the generated tables loaded into the process's private cluster, rows as floe's text.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { formatFloat } from '../../engine/index.js';
import type { Oracle } from './duckdb-oracle.js';
import type { TestData } from './gen-data.js';
import { acquirePostgresCluster } from './postgres-cluster.js';

/** Every statement is cut off after this long (a runaway generated query must not hang the suite). */
const STATEMENT_TIMEOUT_MS = 30_000;

/** PostgreSQL type names for the type OIDs results carry (others show as `oid:<n>`). */
const TYPE_NAMES: Record<number, string> = {
  16: 'boolean',
  20: 'bigint',
  21: 'smallint',
  23: 'integer',
  25: 'text',
  700: 'real',
  701: 'double precision',
  705: 'unknown',
  1043: 'varchar',
  1082: 'date',
  1114: 'timestamp',
  1184: 'timestamptz',
  1186: 'interval',
  1700: 'numeric',
};

/** floe's canonical text of one PostgreSQL text-protocol value. */
function pgText(typeId: number, v: string | null): string | null {
  if (v === null) return null;
  if (typeId === 16) return v === 't' ? 'true' : 'false';
  // PostgreSQL prints 1e+15 where JS prints 1000000000000000: one canonical form for both.
  if (typeId === 700 || typeId === 701) return formatFloat(Number(v));
  return v;
}

/** PostgreSQL's spelling of a DuckDB column type (the Parquet files' types as DuckDB reads them). */
function pgType(duckType: string): string {
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(duckType);
  if (decimal) return `numeric(${decimal[1]},${decimal[2]})`;
  const simple: Record<string, string> = {
    BOOLEAN: 'boolean',
    SMALLINT: 'smallint',
    INTEGER: 'integer',
    BIGINT: 'bigint',
    FLOAT: 'real',
    DOUBLE: 'double precision',
    VARCHAR: 'varchar',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
  };
  const t = simple[duckType];
  if (t === undefined) throw new Error(`no PostgreSQL type for the Parquet column type ${duckType}`);
  return t;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteText = (text: string) => `'${text.replaceAll("'", "''")}'`;

let schemas = 0;

/**
 * A schema of the process's one private cluster (started on first use) holding one table per generated table,
 * with the Parquet files' column types and rows (DuckDB exports each table to CSV; the server COPYs it in).
 * `close` drops nothing but the connection; the cluster stops when its last oracle closes.
 */
export async function createPostgresOracle(data: TestData): Promise<Oracle> {
  const { cluster, release } = await acquirePostgresCluster();
  const schema = `t${process.pid}_${++schemas}`;
  const client = new pg.Client({
    host: '127.0.0.1',
    port: cluster.port,
    user: 'postgres',
    database: 'postgres',
    // Every value as its text: numeric and bigint exact, dates as written (converted in pgText).
    types: { getTypeParser: () => (v: string) => v },
    options: `-c search_path=${schema} -c DateStyle=ISO -c TimeZone=UTC -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  });
  try {
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await loadTables(client, data, join(cluster.dir, schema));
  } catch (e) {
    await client.end().catch(() => {});
    release();
    throw e;
  }
  return {
    async query(sql) {
      const result = await client.query({ text: sql, rowMode: 'array' });
      // A multi-statement text answers with one result per statement: the last one is the query's.
      const last = Array.isArray(result) ? result.at(-1) : result;
      const types = last.fields.map((f: pg.FieldDef) => f.dataTypeID as number);
      return {
        types: types.map((t: number) => TYPE_NAMES[t] ?? `oid:${t}`),
        rows: (last.rows as (string | null)[][]).map((row) => row.map((v, c) => pgText(types[c]!, v))),
      };
    },
    async close() {
      await client.end().catch(() => {});
      release();
    },
  };
}

/** Creates and fills one table per generated table through CSV files in `csvDir` (which the server can read). */
async function loadTables(client: pg.Client, data: TestData, csvDir: string): Promise<void> {
  mkdirSync(csvDir, { recursive: true });
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  try {
    for (const [name, paths] of data.tables) {
      const source = `read_parquet([${paths.map(quoteText).join(', ')}])`;
      const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
      const names = described.getRows().map((r) => String(r[0]));
      const columns = described.getRows().map((r) => `${quoteIdent(String(r[0]))} ${pgType(String(r[1]))}`);
      const csv = join(csvDir, `${name}.csv`);
      await conn.run(`COPY (SELECT * FROM ${source}) TO ${quoteText(csv)} (HEADER false)`);
      await client.query(`CREATE TABLE ${quoteIdent(name)} (${columns.join(', ')})`);
      await client.query(`COPY ${quoteIdent(name)} FROM ${quoteText(csv)} WITH (FORMAT csv)`);
      // An index per column: PostgreSQL runs correlated subqueries once per outer row (TPC-H Q20, Q17 shapes).
      for (const column of names) await client.query(`CREATE INDEX ON ${quoteIdent(name)} (${quoteIdent(column)})`);
      await client.query(`ANALYZE ${quoteIdent(name)}`);
    }
  } finally {
    conn.closeSync();
    duck.closeSync();
  }
}
