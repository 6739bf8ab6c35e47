// `writeChunk`: generates one chunk of TPC-H rows and writes each of its tables as one Parquet file.
import { join } from 'node:path';
import { writeParquetFile } from '../../engine/index.js';
import { type TpchChunk, tpchCounts } from './tpch-columns.js';
import { generateChunk } from './tpch-tables.js';
import { makeTextPool, type TextPool } from './tpch-text.js';

/** What a thread needs to make a chunk: plain data, so it crosses to a worker as is. */
export interface ChunkJob {
  readonly chunk: TpchChunk;
  readonly sf: number;
  readonly seed: number;
  /** The data set's folder: each table is `<dir>/<table>/part-NNN.parquet`. */
  readonly dir: string;
}

/** TPC-H's row groups (DuckDB's default size). */
export const ROW_GROUP_ROWS = 122_880;

export const chunkPath = (dir: string, table: string, index: number) =>
  join(dir, table, `part-${String(index).padStart(3, '0')}.parquet`);

// The text pool depends only on the seed; build it once per thread.
const pools = new Map<number, TextPool>();

/** Generates `job.chunk` and writes its file(s); returns the rows written per table. */
export async function writeChunk(job: ChunkJob): Promise<Record<string, number>> {
  const pool = pools.get(job.seed) ?? makeTextPool(job.seed);
  pools.set(job.seed, pool);
  const { chunk } = job;
  const tables = generateChunk(chunk, { counts: tpchCounts(job.sf), pool, seed: chunkSeed(job.seed, chunk) });
  const rows: Record<string, number> = {};
  for (const [table, columns] of tables) {
    await writeParquetFile(chunkPath(job.dir, table, chunk.index), columns, { rowGroupRows: ROW_GROUP_ROWS });
    rows[table] = columns[0]!.values.length;
  }
  return rows;
}

const KIND_IDS = { region: 1, nation: 2, supplier: 3, part: 4, partsupp: 5, customer: 6, orders: 7 } as const;

/** A seed per (data set seed, table, chunk), well mixed (murmur3's finaliser) so that neighbours differ. */
function chunkSeed(seed: number, chunk: TpchChunk): number {
  let h = (seed ^ Math.imul(KIND_IDS[chunk.kind], 0x9e3779b1) ^ Math.imul(chunk.index + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
