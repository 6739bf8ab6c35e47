// Parquet files for the S3 tests, written by DuckDB with small row groups (many row groups per file).
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Writes `rows` rows of `trips` (id from `first`, in order; grp; amount; a 40-character note; day) to `path`,
 * `rowGroupRows` rows per row group. Deterministic: the same arguments give the same values.
 */
export async function writeTrips(path: string, first: number, rows: number, rowGroupRows = 2000): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`COPY (
      SELECT i::INTEGER AS id,
             'g' || (i % 7)::VARCHAR AS grp,
             ((i * 7919) % 100000) / 100.0 AS amount,
             md5(i::VARCHAR) || lpad(i::VARCHAR, 8, '0') AS note,
             DATE '2024-01-01' + (i % 365)::INTEGER AS day
      FROM range(${first}, ${first + rows}) t(i) ORDER BY i
    ) TO '${path.replaceAll("'", "''")}' (FORMAT parquet, ROW_GROUP_SIZE ${rowGroupRows})`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
