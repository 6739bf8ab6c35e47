// `checkSource`: validates a dataset's `from`: floe reads `file:`, `s3:` and `iceberg:` (one table); other Spice connectors are known but not built yet.

/** Connectors of the reference runtime that floe recognises but does not implement yet. */
const NOT_YET = new Set([
  's3a',
  'abfs',
  'abfss',
  'gs',
  'gcs',
  'http',
  'https',
  'postgres',
  'mysql',
  'mssql',
  'oracle',
  'delta_lake',
  'databricks',
  'duckdb',
  'sqlite',
  'snowflake',
  'clickhouse',
  'dremio',
  'flightsql',
  'odbc',
  'spice.ai',
  'spiceai',
  'github',
  'graphql',
  'dynamodb',
  'mongodb',
  'kafka',
  'debezium',
  'glue',
  'unity_catalog',
  'localpod',
  'sharepoint',
]);

/**
 * Returns null when `from` is usable, else the problem: `expected '<connector>:<path>' ...`,
 * `unknown connector 'ftp'`, or `connector 's3' is not supported yet ...`. The connector is the text before
 * the first `:` (so both `s3://bucket` and `postgres:schema.table` name theirs).
 */
export function checkSource(from: string): string | null {
  const colon = from.indexOf(':');
  if (colon <= 0) return `expected '<connector>:<path>', e.g. 'file:data/trips.parquet', got '${from}'`;
  const connector = from.slice(0, colon).toLowerCase();
  if (connector === 'file') return from.length > colon + 1 ? null : 'file: needs a path';
  if (connector === 's3') return /^s3:\/\/[^/]+/i.test(from) ? null : `expected 's3://bucket/key', got '${from}'`;
  if (connector === 'iceberg')
    return /^iceberg:(file:|s3:\/\/[^/]+)/i.test(from)
      ? null
      : `expected 'iceberg:file:///path/to/table' or 'iceberg:s3://bucket/table' (one table), got '${from}'`;
  if (NOT_YET.has(connector))
    return `connector '${connector}' is not supported yet (floe reads 'file:', 's3:' and 'iceberg:' sources)`;
  return `unknown connector '${connector}'`;
}
