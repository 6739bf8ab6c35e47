// `generateTpch`: a seeded TPC-H data set at any scale factor, as Parquet (zstd, 122,880-row groups,
// DECIMAL(15,2) money, DATE dates), cached in a folder keyed by scale factor, seed and generator version.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../lib/paths.js';
import { moveIntoPlace, runJobs } from './dataset-cache.js';
import { chunkPath, ROW_GROUP_ROWS, writeChunk } from './tpch-chunk-writer.js';
import { TPCH_TABLES, type TpchChunk, type TpchTable, tpchCounts } from './tpch-columns.js';

export { TPCH_TABLES, type TpchTable } from './tpch-columns.js';

/** Bump whenever a generated value changes: cached data sets of older versions are then not reused. */
export const TPCH_GENERATOR_VERSION = 1;
/** `<repo>/.floe/bench-data` (gitignored). */
export const DEFAULT_BENCH_DATA_DIR = join(REPO_ROOT, '.floe', 'bench-data');

/** Rows per file of supplier, part and customer (8 row groups); partsupp files hold 4 rows per part of it. */
const CHUNK_ROWS = 8 * ROW_GROUP_ROWS;
/** Orders per orders file (2 row groups); their ~4 lineitems each fill about 8 row groups. */
const ORDERS_PER_CHUNK = 2 * ROW_GROUP_ROWS;
/** Below this many orders, worker threads cost more than they save. */
const INLINE_MAX_ORDERS = 200_000;

export interface TpchOptions {
  /** Scale factor: 1 is lineitem ≈ 6 M rows; anything from 0.001 to 10 and beyond. */
  readonly sf: number;
  /** Default 1. The same seed gives the same bytes on every machine. */
  readonly seed?: number;
  /** Cache root; default DEFAULT_BENCH_DATA_DIR. The data set goes in a sub-folder named after sf, seed and version. */
  readonly dir?: string;
  /** Generator threads; default one per core (none below SF ~0.13, where one thread is quicker). */
  readonly threads?: number;
}

export interface TpchData {
  /** The data set's folder: `<table>/part-NNN.parquet` for each of the 8 tables. */
  readonly dir: string;
  /** Table -> its Parquet files, sorted (small tables have one; lineitem ~1 per million rows). */
  readonly tables: ReadonlyMap<TpchTable, readonly string[]>;
  readonly rows: Readonly<Record<TpchTable, number>>;
  /** Milliseconds spent generating, or null when the cached set was reused. */
  readonly generatedMs: number | null;
}

/** `COMPLETE.json`: written last, so its presence means the set is whole. */
interface Marker {
  readonly version: number;
  readonly files: Record<TpchTable, string[]>;
  readonly rows: Record<TpchTable, number>;
}

/**
 * Returns the cached data set for (sf, seed, version), generating it first when absent. The set is written
 * into a private folder and renamed into place once complete (with its `COMPLETE.json` marker), so readers,
 * other processes generating the same set among them, never see a partial one.
 */
export async function generateTpch(options: TpchOptions): Promise<TpchData> {
  const { sf, seed = 1 } = options;
  if (!(sf > 0 && Number.isFinite(sf))) throw new RangeError(`scale factor must be a positive number, not ${sf}`);
  const dir = join(options.dir ?? DEFAULT_BENCH_DATA_DIR, `tpch-sf${sf}-seed${seed}-v${TPCH_GENERATOR_VERSION}`);
  const cached = await readMarker(dir);
  if (cached) return dataOf(dir, cached, null);

  const started = performance.now();
  const partial = `${dir}.partial-${randomUUID()}`;
  await mkdir(partial, { recursive: true });
  const chunks = planChunks(sf);
  const counts = tpchCounts(sf);
  const threads = options.threads ?? (counts.orders < INLINE_MAX_ORDERS ? 1 : availableParallelism());
  const results = await runJobs(
    chunks.map((chunk) => ({ chunk, sf, seed, dir: partial })),
    threads,
    writeChunk,
    new URL('./tpch-gen-worker.js', import.meta.url),
    (job) => `${job.chunk.kind} chunk ${job.chunk.index}`,
  );
  const marker: Marker = { version: TPCH_GENERATOR_VERSION, files: emptyRecord(() => []), rows: emptyRecord(() => 0) };
  for (const [i, rows] of results.entries()) {
    for (const [table, n] of Object.entries(rows) as [TpchTable, number][]) {
      marker.files[table].push(chunkPath('', table, chunks[i]!.index));
      marker.rows[table] += n;
    }
  }
  for (const files of Object.values(marker.files)) files.sort();
  await writeFile(join(partial, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  await moveIntoPlace(partial, dir, async (d) => (await readMarker(d)) !== null);
  return dataOf(dir, marker, performance.now() - started);
}

const MARKER = 'COMPLETE.json';

async function readMarker(dir: string): Promise<Marker | null> {
  const marker = await readFile(join(dir, MARKER), 'utf8').then(JSON.parse, () => null);
  return marker?.version === TPCH_GENERATOR_VERSION ? (marker as Marker) : null;
}

function dataOf(dir: string, marker: Marker, generatedMs: number | null): TpchData {
  const tables = new Map(TPCH_TABLES.map((t) => [t, marker.files[t].map((f) => join(dir, f))] as const));
  return { dir, tables, rows: marker.rows, generatedMs };
}

const emptyRecord = <T>(make: () => T) =>
  Object.fromEntries(TPCH_TABLES.map((t) => [t, make()])) as Record<TpchTable, T>;

/** Every chunk of the data set, largest (orders with lineitem) first so that threads finish together. */
export function planChunks(sf: number): TpchChunk[] {
  const counts = tpchCounts(sf);
  const split = (kind: TpchChunk['kind'], total: number, per: number) =>
    Array.from({ length: Math.ceil(total / per) }, (_, index) => ({
      kind,
      index,
      first: index * per + 1,
      rows: Math.min(per, total - index * per),
    }));
  return [
    ...split('orders', counts.orders, ORDERS_PER_CHUNK),
    ...split('partsupp', counts.part, CHUNK_ROWS / 4),
    ...split('part', counts.part, CHUNK_ROWS),
    ...split('customer', counts.customer, CHUNK_ROWS),
    ...split('supplier', counts.supplier, CHUNK_ROWS),
    { kind: 'nation', index: 0, first: 0, rows: 25 },
    { kind: 'region', index: 0, first: 0, rows: 5 },
  ];
}
