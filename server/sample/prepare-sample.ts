// `prepareSample`: the built-in TPC-H sample served when no manifest is given, written to .floe/sample/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTpchSample } from './tpch-sample.js';

/** Bump when the generator changes so existing folders are regenerated. */
const SAMPLE_VERSION = '1';
const TABLES = ['region', 'nation', 'supplier', 'part', 'partsupp', 'customer', 'orders', 'lineitem'];

export interface Sample {
  /** A manifest (object form) with one `file:` dataset per table. */
  readonly manifest: object;
  /** Folder holding the Parquet files. */
  readonly dir: string;
  /** Writes the files unless a complete set from this generator version is already there. */
  generate(): Promise<void>;
}

/**
 * The sample lives in `<baseDir>/.floe/sample/<table>.parquet`. Generation is deterministic (fixed seed)
 * and happens once: a `VERSION` file written last marks a complete set, so an interrupted first start is
 * redone on the next one. The engine's writer makes each file appear atomically.
 */
export function prepareSample(baseDir: string): Sample {
  const dir = join(baseDir, '.floe', 'sample');
  const manifest = {
    version: 'v1',
    kind: 'Spicepod',
    name: 'floe-sample',
    datasets: TABLES.map((name) => ({ name, from: `file:${join(dir, `${name}.parquet`)}` })),
  };
  return {
    manifest,
    dir,
    async generate() {
      const marker = join(dir, 'VERSION');
      if ((await readFile(marker, 'utf8').catch(() => '')) === SAMPLE_VERSION) return;
      // Imported here so the main thread loads the engine (and its Parquet wasm) only when it must write files.
      const { writeParquetFile } = await import('../../engine/index.js');
      await mkdir(dir, { recursive: true });
      for (const table of makeTpchSample()) {
        await writeParquetFile(join(dir, `${table.name}.parquet`), table.columns);
      }
      await writeFile(marker, SAMPLE_VERSION);
    },
  };
}
