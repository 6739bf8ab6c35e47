// `resolveFiles`: maps a `file:` dataset source to the sorted list of Parquet files it names.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob, isDynamicPattern } from 'tinyglobby';
import { objectStoreFor } from '../engine/index.js';

/** The source names no readable Parquet file; the message says what was looked at. */
export class DatasetSourceError extends Error {}

/**
 * `from` is `file:<path>` or `file://<absolute path>`. A relative path is taken from `baseDir` (the
 * manifest's folder). The path may be a Parquet file (any extension), a folder (every `*.parquet` below
 * it, recursively; `extensions` names other formats' files) or a glob (`data/*.parquet`, `**` allowed). Returns
 * absolute paths sorted by name, so every worker and every run sees the same order. Throws `DatasetSourceError`
 * when nothing matches.
 */
export async function resolveFiles(
  from: string,
  baseDir: string,
  extensions: readonly string[] = ['.parquet'],
): Promise<string[]> {
  const path = filePath(from, baseDir);
  if (isDynamicPattern(path)) {
    return nonEmpty(await glob(path, { absolute: true, onlyFiles: true, expandDirectories: false }), path, extensions);
  }
  // Through the object store (a glob is still expanded on the local file system, above).
  const store = objectStoreFor(path);
  const isObject = await store.head(path).then(
    () => true,
    () => false,
  );
  if (isObject) return [path];
  const below = await store.list(path.endsWith('/') ? path : `${path}/`);
  if (below.length === 0) throw new DatasetSourceError(`no such file or folder: ${path}`);
  // `**/*.parquet`: names and folders starting with a dot are left out, as a glob leaves them.
  const hasExtension = (f: string) => extensions.some((e) => f.endsWith(e));
  const parquet = below.map((m) => m.location).filter((f) => hasExtension(f) && !f.includes('/.', path.length));
  const pattern = extensions.length === 1 ? extensions[0] : `{${extensions.join(',')}}`;
  return nonEmpty(parquet, `${path}/**/*${pattern}`, extensions);
}

/** The filesystem path of a `file:` source, absolute. */
export function filePath(from: string, baseDir: string): string {
  if (from.startsWith('file://')) return fileURLToPath(from);
  const rest = from.slice('file:'.length);
  return isAbsolute(rest) ? rest : resolve(baseDir, rest);
}

function nonEmpty(files: string[], looked: string, extensions: readonly string[]): string[] {
  const what = extensions.includes('.parquet') ? 'Parquet files' : 'files';
  if (files.length === 0) throw new DatasetSourceError(`no ${what} match ${looked}`);
  return files.sort();
}
