// Versioned Parquet files for the dataset runtime's tests (rewritten atomically), and polling until a condition holds.
import { rename } from 'node:fs/promises';
import { writeParquetFile } from '../../engine/index.js';
import { INT32 } from './batches.js';

/**
 * Writes `rows` rows of (id int32 0..rows-1, version int32 = `version`) to `path`, through a temporary file and a
 * rename so a load never reads a half-written file.
 */
export async function writeVersion(path: string, version: number, rows: number): Promise<string> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeParquetFile(tmp, [
    { name: 'id', type: INT32, nullable: false, values: Int32Array.from({ length: rows }, (_, i) => i) },
    { name: 'version', type: INT32, nullable: false, values: new Int32Array(rows).fill(version) },
  ]);
  await rename(tmp, path);
  return path;
}

/** Resolves once `check` resolves true; fails naming `what` after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
