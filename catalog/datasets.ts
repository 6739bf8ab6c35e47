// `resolveDatasets`: turns dataset declarations into a CatalogSnapshot (file lists, accelerated tables loaded).
import { loadAccelerated } from './accelerate.js';
import { DatasetSourceError, resolveFiles } from './resolve-files.js';
import type { CatalogSnapshot, MemoryTableEntry, ParquetTableEntry } from './snapshot.js';

/** One dataset as the catalog needs it (the server's manifest layer validates and produces these). */
export interface DatasetSpec {
  readonly name: string;
  /** `file:<path>` or `file://<absolute path>`; see `resolveFiles`. */
  readonly from: string;
  /** When true the files are loaded into memory once at start (engine `arrow`, mode `memory`). */
  readonly accelerated: boolean;
}

/** A dataset could not be resolved or loaded; `index` is its position in the manifest's `datasets`. */
export class DatasetError extends Error {
  readonly index: number;
  /** True when the declaration is at fault (nothing at that path), false when reading the data failed. */
  readonly isConfig: boolean;
  constructor(index: number, name: string, message: string, isConfig: boolean) {
    super(`datasets[${index}] (${name}): ${message}`);
    this.index = index;
    this.isConfig = isConfig;
  }
}

/**
 * Resolves every dataset in order; accelerated ones are loaded one after another (each on a helper thread,
 * to bound peak memory). `onLoaded` reports progress. Throws `DatasetError` for the first failure.
 */
export async function resolveDatasets(
  specs: readonly DatasetSpec[],
  baseDir: string,
  onLoaded: (name: string, detail: string) => void = () => {},
): Promise<CatalogSnapshot> {
  const tables: (ParquetTableEntry | MemoryTableEntry)[] = [];
  for (const [index, spec] of specs.entries()) {
    const files = await resolveFiles(spec.from, baseDir).catch((e: unknown) => {
      throw new DatasetError(index, spec.name, (e as Error).message, e instanceof DatasetSourceError);
    });
    if (!spec.accelerated) {
      tables.push({ name: spec.name, kind: 'parquet', files });
      onLoaded(spec.name, `${files.length} Parquet file(s)`);
      continue;
    }
    const data = await loadAccelerated(files).catch((e: unknown) => {
      throw new DatasetError(index, spec.name, `cannot load: ${(e as Error).message}`, false);
    });
    tables.push({ name: spec.name, kind: 'memory', data });
    onLoaded(spec.name, `accelerated in memory from ${files.length} Parquet file(s)`);
  }
  return { tables };
}
