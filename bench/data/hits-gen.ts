// `generateHits`: a seeded ClickBench `hits` table of any size (all 105 columns, ClickBench's names and types) as
// Parquet, cached under `.floe/bench-data/hits-<rows>-seed<seed>-v<version>/hits/part-NNN.parquet`.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeParquetFile } from '../../engine/index.js';
import { moveIntoPlace, runJobs } from './dataset-cache.js';
import { makeHitsColumns } from './hits-columns.js';
import { drawHits, type HitsChunk } from './hits-rows.js';
import { HITS_COLUMNS } from './hits-schema.js';
import { chunkPath, ROW_GROUP_ROWS } from './tpch-chunk-writer.js';
import { DEFAULT_BENCH_DATA_DIR } from './tpch-gen.js';

/** Bump whenever a generated value changes: cached data sets of older versions are then not reused. */
export const HITS_GENERATOR_VERSION = 1;
/** Rows per file: half of ClickBench's partitioned files (`hits_N.parquet`, ~1 M rows each), so that 1 M rows
 * are made on two threads. */
export const HITS_FILE_ROWS = 500_000;

export interface HitsOptions {
  readonly rows: number;
  /** Default 1. The same seed gives the same bytes. */
  readonly seed?: number;
  /** Cache root; default DEFAULT_BENCH_DATA_DIR. */
  readonly dir?: string;
  /** Generator threads; default one per core when there is more than one file. */
  readonly threads?: number;
}

export interface HitsData {
  /** The data set's folder: `hits/part-NNN.parquet`. */
  readonly dir: string;
  readonly files: readonly string[];
  readonly rows: number;
  /** Milliseconds spent generating, or null when the cached set was reused. */
  readonly generatedMs: number | null;
}

interface Marker {
  readonly version: number;
  readonly files: string[];
  readonly rows: number;
}

const MARKER = 'COMPLETE.json';

/**
 * Returns the cached set for (rows, seed, version), generating it first when absent (in a private folder
 * renamed into place once complete, so that no reader sees a partial set).
 */
export async function generateHits(options: HitsOptions): Promise<HitsData> {
  const { rows, seed = 1 } = options;
  if (!(Number.isInteger(rows) && rows > 0)) throw new RangeError(`rows must be a positive whole number, not ${rows}`);
  const dir = join(options.dir ?? DEFAULT_BENCH_DATA_DIR, `hits-${rows}-seed${seed}-v${HITS_GENERATOR_VERSION}`);
  const cached = await readMarker(dir);
  if (cached) return dataOf(dir, cached, null);

  const started = performance.now();
  const partial = `${dir}.partial-${randomUUID()}`;
  await mkdir(join(partial, 'hits'), { recursive: true });
  const chunks = planHitsChunks(rows, seed);
  const jobs = chunks.map((chunk) => ({ chunk, dir: partial }));
  const threads = options.threads ?? (chunks.length > 1 ? availableParallelism() : 1);
  const raw = await runJobs(
    jobs,
    threads,
    writeRawChunk,
    new URL('./hits-gen-worker.js', import.meta.url),
    (j) => `hits chunk ${j.chunk.index}`,
  );
  await convertChunks(raw, chunks, partial);
  const marker: Marker = {
    version: HITS_GENERATOR_VERSION,
    files: chunks.map((c) => chunkPath('', 'hits', c.index)),
    rows,
  };
  await writeFile(join(partial, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  await moveIntoPlace(partial, dir, async (d) => (await readMarker(d)) !== null);
  return dataOf(dir, marker, performance.now() - started);
}

/** The chunks of a table of `rows` rows: one per HITS_FILE_ROWS rows. */
export function planHitsChunks(rows: number, seed: number): HitsChunk[] {
  return Array.from({ length: Math.ceil(rows / HITS_FILE_ROWS) }, (_, index) => ({
    index,
    first: index * HITS_FILE_ROWS,
    rows: Math.min(HITS_FILE_ROWS, rows - index * HITS_FILE_ROWS),
    total: rows,
    seed,
  }));
}

export interface HitsJob {
  readonly chunk: HitsChunk;
  readonly dir: string;
}

/** Makes one chunk and writes it uncompressed with SMALLINTs as INT32 (floe's writer has no 16-bit integers). */
export async function writeRawChunk(job: HitsJob): Promise<string> {
  const path = join(job.dir, `raw-${job.chunk.index}.parquet`);
  await writeParquetFile(path, makeHitsColumns(drawHits(job.chunk)), { compression: 'none' });
  return path;
}

/**
 * Rewrites each raw chunk with DuckDB into its final file: the SMALLINT columns cast to 16 bits, zstd, 122,880-row
 * groups. One DuckDB thread keeps row groups and bytes the same on every run.
 */
async function convertChunks(raw: readonly string[], chunks: readonly HitsChunk[], dir: string): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const casts = HITS_COLUMNS.filter(([, t]) => t === 'SMALLINT').map(([n]) => `CAST("${n}" AS SMALLINT) AS "${n}"`);
  try {
    for (const [i, path] of raw.entries()) {
      const out = chunkPath(dir, 'hits', chunks[i]!.index);
      await conn.run(
        `COPY (SELECT * REPLACE (${casts.join(', ')}) FROM read_parquet('${path}')) TO '${out}' ` +
          `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
      );
      await rm(path);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function readMarker(dir: string): Promise<Marker | null> {
  const marker = await readFile(join(dir, MARKER), 'utf8').then(JSON.parse, () => null);
  return marker?.version === HITS_GENERATOR_VERSION ? (marker as Marker) : null;
}

function dataOf(dir: string, marker: Marker, generatedMs: number | null): HitsData {
  return { dir, files: marker.files.map((f) => join(dir, f)), rows: marker.rows, generatedMs };
}
