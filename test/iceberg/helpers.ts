// Iceberg test helpers: a temporary warehouse, small real Parquet data files as `DataFile`s, icebird over file:// URLs.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { icebergRead } from 'icebird';
import { icebergSchema } from '../../catalog/iceberg/schema.js';
import type { DataFile, IcebergSchema, IcebergValue } from '../../catalog/iceberg/spec.js';
import type { ObjectStore } from '../../engine/index.js';
import { writeParquetFile } from '../../engine/index.js';

/** `id bigint NOT NULL, name text`: field ids 1 and 2. */
export const SCHEMA: IcebergSchema = icebergSchema([
  { name: 'id', type: { id: 'int64' }, nullable: false },
  { name: 'name', type: { id: 'utf8' }, nullable: true },
]);

/** A fresh folder and its `file://` URL; `dispose` removes it. */
export async function tempWarehouse(): Promise<{ dir: string; url: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-iceberg-'));
  return { dir, url: pathToFileURL(dir).href, dispose: () => rm(dir, { recursive: true, force: true }) };
}

let fileNo = 0;

/**
 * Writes rows `ids` (name = `n<id>`, NULL for multiples of 7) as one Parquet file under `<table>/data/` and
 * describes it as a `DataFile` of spec 0 (unpartitioned unless `partition` is given) with counts and bounds.
 */
export async function writeDataFile(
  table: string,
  ids: readonly number[],
  partition: DataFile['partition'] = [],
  store?: ObjectStore,
): Promise<DataFile> {
  const path = `${table}/data/${process.pid}-${fileNo++}-${Math.random().toString(36).slice(2)}.parquet`;
  const names = ids.map((i) => (i % 7 === 0 ? null : `n${i}`));
  const columns = [
    { name: 'id', type: { id: 'int64' } as const, values: ids.map(BigInt), nullable: false },
    { name: 'name', type: { id: 'utf8' } as const, values: names, nullable: true },
  ];
  if (store === undefined) await writeParquetFile(path, columns);
  else {
    // writeParquetFile reaches S3 without credentials: write a local file, then put its bytes.
    const local = join(tmpdir(), `floe-iceberg-${process.pid}-${fileNo}.parquet`);
    await writeParquetFile(local, columns);
    await store.put(path, await readFile(local));
    await rm(local);
  }
  const size = store ? (await store.head(path)).size : (await stat(fileURLToPath(path))).size;
  const present = names.filter((n): n is string => n !== null).sort();
  const bigIds = ids.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    path,
    format: 'PARQUET',
    recordCount: ids.length,
    fileSizeBytes: size,
    specId: 0,
    partition,
    valueCounts: { 1: ids.length, 2: ids.length },
    nullValueCounts: { 1: 0, 2: ids.length - present.length },
    ...(ids.length === 0
      ? {}
      : { lowerBounds: bound(bigIds[0]!, present[0]), upperBounds: bound(bigIds.at(-1)!, present.at(-1)) }),
  };
}

const bound = (id: bigint, name: string | undefined): Record<number, IcebergValue> =>
  name === undefined ? { 1: id } : { 1: id, 2: name };

/** `from`..`to` inclusive. */
export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

let shimmed = false;
/** The store icebird's `https://<bucket>.s3.amazonaws.com/<key>` URLs read from (`shimFetchForS3`). */
let s3Store: ObjectStore | null = null;

/** Also lets icebird read `s3://` tables (it rewrites them to AWS URLs) from `store`, the test S3 server. */
export function shimFetchForS3(store: ObjectStore): void {
  shimFetchForFiles();
  s3Store = store;
}

/** Lets icebird (which reads through `fetch`) read `file://` URLs from disk: a 200 with the whole file, or a 404. */
export function shimFetchForFiles(): void {
  if (shimmed) return;
  shimmed = true;
  const real = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const aws = /^https:\/\/([^./]+)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
    if (!url.startsWith('file:') && !(aws && s3Store)) return real(input, init);
    try {
      const bytes = aws
        ? await s3Store!.read(`s3://${aws[1]}/${decodeURI(aws[2]!)}`)
        : await readFile(fileURLToPath(url));
      const headers = { 'content-length': String(bytes.length) };
      return new Response(init?.method === 'HEAD' ? null : bytes, { status: 200, headers });
    } catch {
      return new Response(null, { status: 404, statusText: 'Not Found' });
    }
  };
}

/** The table's rows as icebird reads them (through `version-hint.text`), sorted by id: `[id, name]`. */
export async function icebirdRows(table: string): Promise<[number, string | null][]> {
  shimFetchForFiles();
  const rows = await icebergRead({ tableUrl: table });
  return rows
    .map((r) => [Number(r.id), (r.name as string | null) ?? null] as [number, string | null])
    .sort((a, b) => a[0] - b[0]);
}

/** The rows `writeDataFile` writes for `ids`, sorted by id. */
export const expectedRows = (ids: readonly number[]): [number, string | null][] =>
  [...ids].sort((a, b) => a - b).map((i) => [i, i % 7 === 0 ? null : `n${i}`]);
