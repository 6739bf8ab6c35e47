// `resolveS3Files`: maps an `s3://` dataset source (an object, a prefix or a glob) to the Parquet objects it names.
import picomatch from 'picomatch';
import { ObjectNotFoundError, objectStoreFor, type S3StoreConfig } from '../engine/index.js';
import { DatasetSourceError } from './resolve-files.js';

/** The first character that makes a key a glob pattern. */
const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * `from` is `s3://bucket/key`: an object (used as it is, whatever its name), a prefix (`s3://bucket/dir/`, or
 * `dir` naming no object: every file below it, at any depth, whose name ends in one of `extensions`) or a glob (`s3://bucket/dir/*.parquet`, `**`
 * allowed: the prefix before the first wildcard is listed, then its keys matched with picomatch). Returns
 * locations sorted by key. Throws `DatasetSourceError` when nothing matches; the store's own errors (refused
 * credentials, unreachable endpoint: `ObjectStoreAccessError`) are thrown as they are.
 */
export async function resolveS3Files(
  from: string,
  config: S3StoreConfig,
  extensions: readonly string[] = ['.parquet'],
): Promise<string[]> {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(from);
  if (m === null || m[1] === undefined) throw new DatasetSourceError(`expected s3://bucket/key, got '${from}'`);
  const bucket = m[1];
  const key = m[2] ?? '';
  const root = `s3://${bucket}/`;
  const store = objectStoreFor(from, config);
  const wildcard = key.search(GLOB_CHARS);
  if (wildcard >= 0) {
    const isMatch = picomatch(key, { dot: false });
    const listed = await listing(store.list(root + key.slice(0, wildcard)), from);
    return nonEmpty(
      listed.filter((l) => isMatch(l.slice(root.length))),
      from,
      extensions,
    );
  }
  if (key !== '' && !key.endsWith('/')) {
    const isObject = await store.head(from).then(
      () => true,
      (e: unknown) => {
        if (e instanceof ObjectNotFoundError) return false;
        throw e;
      },
    );
    if (isObject) return [from];
  }
  const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
  const below = await listing(store.list(root + prefix), from);
  if (below.length === 0) throw new DatasetSourceError(`nothing at ${from}`);
  // `**/*.parquet`: names and folders starting with a dot are left out, as a glob leaves them.
  const hasExtension = (l: string) => extensions.some((e) => l.endsWith(e));
  const pattern = extensions.length === 1 ? extensions[0] : `{${extensions.join(',')}}`;
  return nonEmpty(
    below.filter((l) => hasExtension(l) && !`/${l.slice(root.length + prefix.length)}`.includes('/.')),
    `${root}${prefix}**/*${pattern}`,
    extensions,
  );
}

async function listing(list: Promise<{ location: string }[]>, from: string): Promise<string[]> {
  const metas = await list.catch((e: unknown) => {
    // A missing bucket: nothing there.
    if (e instanceof ObjectNotFoundError) throw new DatasetSourceError(`nothing at ${from} (no such bucket)`);
    throw e;
  });
  return metas.map((x) => x.location);
}

function nonEmpty(files: string[], looked: string, extensions: readonly string[]): string[] {
  const what = extensions.includes('.parquet') ? 'Parquet files' : 'files';
  if (files.length === 0) throw new DatasetSourceError(`no ${what} match ${looked}`);
  return files.sort();
}
