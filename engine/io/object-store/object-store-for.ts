// `objectStoreFor`: the store that serves a location, by its scheme (one instance per thread, per S3 config).
import { NotSupportedError } from '../../errors.js';
import { LocalObjectStore } from './local.js';
import type { ObjectStore } from './object-store.js';
import { S3ObjectStore } from './s3.js';
import { DEFAULT_S3_CONFIG, type S3StoreConfig, s3ConfigKey } from './s3-config.js';

/** `s3:`, `gs:`, `http:`...: a URL scheme followed by `//`; a bare path has none. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

let local: LocalObjectStore | null = null;
const s3Stores = new Map<string, S3ObjectStore>();

/**
 * The store for `location`: `file://` URLs and paths (no scheme) are local files; `s3://bucket/key` is S3, reached
 * as `s3` says (the dataset's endpoint, region and credentials; Spice's defaults when absent); any other scheme
 * is refused as not supported yet. S3 stores are kept per config, so a thread makes one client for each.
 */
export function objectStoreFor(location: string, s3?: S3StoreConfig): ObjectStore {
  const scheme = URL_SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === 's3') return s3StoreFor(s3 ?? DEFAULT_S3_CONFIG);
  if (scheme !== undefined && scheme !== 'file') {
    throw new NotSupportedError(`${scheme}:// locations are not supported yet (${location})`);
  }
  local ??= new LocalObjectStore();
  return local;
}

function s3StoreFor(config: S3StoreConfig): S3ObjectStore {
  const key = s3ConfigKey(config);
  let store = s3Stores.get(key);
  if (store === undefined) {
    store = new S3ObjectStore(config);
    s3Stores.set(key, store);
  }
  return store;
}

/** Whether `location` is read over the network (its reads are worth planning and coalescing). */
export function isRemoteLocation(location: string): boolean {
  const scheme = URL_SCHEME.exec(location)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'file';
}
