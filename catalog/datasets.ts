// `resolveDatasets`: turns dataset declarations into a CatalogSnapshot (file lists, accelerated tables loaded).
import { ObjectStoreAccessError, type S3StoreConfig } from '../engine/index.js';
import { DatasetLoader } from './dataset-loader.js';
import { icebergTableLocation, resolveIcebergDataset } from './iceberg/dataset-table.js';
import type { TextTableEntry } from './providers/builtin.js';
import { DatasetSourceError, resolveFiles } from './resolve-files.js';
import { resolveS3Files } from './resolve-s3-files.js';
import { S3ParamError, s3ConfigOf } from './s3-params.js';
import type { CatalogSnapshot, MemoryTableEntry, ParquetTableEntry, TableEntry } from './snapshot.js';
import { SourceParamError, type TextSource, textSourceOf } from './text-source.js';

/** One dataset as the catalog needs it (the server's manifest layer validates and produces these). */
export interface DatasetSpec {
  readonly name: string;
  /** `file:<path>`, `file://<absolute path>` (see `resolveFiles`) or `s3://bucket/key` (see `resolveS3Files`). */
  readonly from: string;
  /** When true the files are loaded into memory once at start (engine `arrow`, mode `memory`). */
  readonly accelerated: boolean;
  /** The dataset's `params` (connector and file-format options: `s3_*`, `csv_*`, `file_format`), as strings. */
  readonly params?: Readonly<Record<string, string>>;
  /** The dataset's `columns`: a `type` declares a CSV/JSON column's type (`bigint`, `decimal(10,2)`, ...). */
  readonly columns?: readonly { readonly name: string; readonly type?: string }[];
}

/**
 * What kind of failure a dataset's load met: `source` (nothing at that path, data that cannot be read),
 * `auth` (the store refused the credentials), `connection` (the store cannot be reached), `refresh` (the refresh
 * SQL failed). The runtime reports it as the error `type` of `GET /v1/datasets?status=true`.
 */
export type DatasetFailure = 'source' | 'auth' | 'connection' | 'refresh';

/** A dataset could not be resolved or loaded; `index` is its position in the manifest's `datasets`. */
export class DatasetError extends Error {
  readonly index: number;
  /** True when the declaration is at fault (nothing at that path), false when reading the data failed. */
  readonly isConfig: boolean;
  readonly failure: DatasetFailure;
  constructor(index: number, name: string, message: string, isConfig: boolean, failure: DatasetFailure = 'source') {
    super(`datasets[${index}] (${name}): ${message}`);
    this.index = index;
    this.isConfig = isConfig;
    this.failure = failure;
  }
}

/**
 * Resolves every dataset in order on one helper thread: Parquet datasets get their footers checked (so a
 * file that is not Parquet stops the start instead of failing every query later); accelerated ones are
 * loaded one after another, to bound peak memory. `onLoaded` reports progress. Throws `DatasetError` for
 * the first failure.
 */
export async function resolveDatasets(
  specs: readonly DatasetSpec[],
  baseDir: string,
  onLoaded: (name: string, detail: string) => void = () => {},
): Promise<CatalogSnapshot> {
  const loader = new DatasetLoader();
  try {
    const tables: TableEntry[] = [];
    for (const [index, spec] of specs.entries()) tables.push(await resolveOne(spec, index, baseDir, loader, onLoaded));
    return { tables };
  } finally {
    await loader.close();
  }
}

/**
 * One dataset as a catalog entry, on its own helper thread (or `loader`'s, left open): what a reload publishes (an
 * accelerated dataset read again from its source into new shared memory), and, not accelerated, the entry a refresh
 * reads the source through. Throws `DatasetError` (`index`: the dataset's position in the manifest) when it fails.
 */
export async function resolveDataset(
  spec: DatasetSpec,
  baseDir: string,
  loader?: DatasetLoader,
  index = 0,
): Promise<TableEntry> {
  const own = loader ?? new DatasetLoader();
  try {
    return await resolveOne(spec, index, baseDir, own, () => {});
  } finally {
    if (loader === undefined) await own.close();
  }
}

async function resolveOne(
  spec: DatasetSpec,
  index: number,
  baseDir: string,
  loader: DatasetLoader,
  onLoaded: (name: string, detail: string) => void,
): Promise<TableEntry> {
  const fail = (prefix: string, isConfig: boolean) => (e: unknown) => {
    // The loader marks a store that refused the credentials or could not be reached.
    const failure = (e as { failure?: 'auth' | 'connection' }).failure ?? 'source';
    throw new DatasetError(index, spec.name, prefix + (e as Error).message, isConfig, failure);
  };
  if (/^iceberg:/i.test(spec.from)) return resolveIceberg(spec, index, baseDir, loader, fail, onLoaded);
  const text = (() => {
    try {
      return textSourceOf(spec);
    } catch (e) {
      return fail(e instanceof SourceParamError ? `${e.key}: ` : '', true)(e);
    }
  })();
  const { files, s3 } = await sourceFiles(spec, index, baseDir, text?.extensions);
  if (text !== null) {
    const read = s3 === undefined ? text : { ...text, options: { ...text.options, s3 } };
    return resolveText(spec, files, read, loader, fail, onLoaded);
  }
  if (spec.accelerated) {
    const data = await loader.load(files, s3).catch(fail('cannot load: ', false));
    onLoaded(spec.name, `accelerated in memory from ${files.length} Parquet file(s)`);
    return { name: spec.name, kind: 'memory', data } satisfies MemoryTableEntry;
  }
  await loader.check(files, s3).catch(fail('cannot read: ', false));
  onLoaded(spec.name, `${files.length} Parquet file(s)`);
  return { name: spec.name, kind: 'parquet', files, ...(s3 ? { s3 } : {}) } satisfies ParquetTableEntry;
}

/**
 * The dataset's Parquet files, and for an `s3://` source how to reach them. S3 failures name the connector and
 * keep their kind: refused credentials `auth`, an unreachable endpoint `connection`, nothing there `source`.
 */
async function sourceFiles(
  spec: DatasetSpec,
  index: number,
  baseDir: string,
  extensions?: readonly string[],
): Promise<{ files: string[]; s3?: S3StoreConfig }> {
  const fail = (prefix: string) => (e: unknown) => {
    const isConfig = e instanceof DatasetSourceError || e instanceof S3ParamError;
    const failure = e instanceof ObjectStoreAccessError ? e.failure : 'source';
    throw new DatasetError(index, spec.name, prefix + (e as Error).message, isConfig, failure);
  };
  if (!/^s3:\/\//i.test(spec.from)) {
    return { files: await resolveFiles(spec.from, baseDir, extensions).catch(fail('')) };
  }
  try {
    const s3 = s3ConfigOf(spec.params);
    return { files: await resolveS3Files(spec.from, s3, extensions), s3 };
  } catch (e) {
    return fail('s3 connector: ')(e);
  }
}

/**
 * A dataset over one Iceberg table (`iceberg:file:///wh/s/t`, `iceberg:s3://b/wh/s/t`): the table at its current
 * snapshot, read like a catalog's table (files pruned by the manifests' bounds); accelerated, its live data files
 * loaded into memory. Read-only: writes go through a catalog.
 */
async function resolveIceberg(
  spec: DatasetSpec,
  index: number,
  baseDir: string,
  loader: DatasetLoader,
  fail: (prefix: string, isConfig: boolean) => (e: unknown) => never,
  onLoaded: (name: string, detail: string) => void,
): Promise<TableEntry> {
  const location = icebergTableLocation(spec.from, baseDir);
  let s3: S3StoreConfig | undefined;
  try {
    s3 = location.startsWith('s3://') ? s3ConfigOf(spec.params) : undefined;
  } catch (e) {
    return fail('iceberg connector: ', true)(e);
  }
  const entry = await resolveIcebergDataset(spec.name, location, s3).catch((e) => {
    const failure = e instanceof ObjectStoreAccessError ? e.failure : 'source';
    throw new DatasetError(index, spec.name, `iceberg connector: ${(e as Error).message}`, false, failure);
  });
  const files = entry.files.map((f) => f.path);
  if (!spec.accelerated || files.length === 0) {
    onLoaded(spec.name, `Iceberg table, ${files.length} data file(s)`);
    return entry;
  }
  const data = await loader.load(files, s3).catch(fail('cannot load: ', false));
  onLoaded(spec.name, `accelerated in memory from an Iceberg table (${files.length} data file(s))`);
  return { name: spec.name, kind: 'memory', data } satisfies MemoryTableEntry;
}

/** A CSV/JSON dataset: its schema inferred (files mode), or every row parsed into memory (accelerated). */
async function resolveText(
  spec: DatasetSpec,
  files: string[],
  text: TextSource,
  loader: DatasetLoader,
  fail: (prefix: string, isConfig: boolean) => (e: unknown) => never,
  onLoaded: (name: string, detail: string) => void,
): Promise<TableEntry> {
  const { options } = text;
  const what = `${files.length} ${options.format.toUpperCase()} file(s)`;
  if (spec.accelerated) {
    const data = await loader.loadText(files, options).catch(fail('cannot load: ', false));
    onLoaded(spec.name, `accelerated in memory from ${what}`);
    return { name: spec.name, kind: 'memory', data } satisfies MemoryTableEntry;
  }
  const schema = await loader.checkText(files, options).catch(fail('cannot read: ', false));
  onLoaded(spec.name, what);
  return { name: spec.name, kind: options.format, files, options, schema } satisfies TextTableEntry;
}
