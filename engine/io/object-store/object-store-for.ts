// `objectStoreFor`: the store that serves a location, by its scheme (one instance of each per thread).
import { NotSupportedError } from '../../errors.js';
import { LocalObjectStore } from './local.js';
import type { ObjectStore } from './object-store.js';

/** `s3:`, `gs:`, `http:`...: a URL scheme followed by `//`; a bare path has none. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

let local: LocalObjectStore | null = null;

/**
 * The store for `location`: `file://` URLs and paths (no scheme) are local files; any other scheme is refused as
 * not supported yet (S3 comes with its store).
 */
export function objectStoreFor(location: string): ObjectStore {
  const scheme = URL_SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'file') {
    throw new NotSupportedError(`${scheme}:// locations are not supported yet (${location})`);
  }
  local ??= new LocalObjectStore();
  return local;
}
