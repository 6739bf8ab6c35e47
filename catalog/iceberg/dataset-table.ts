// `resolveIcebergDataset`: a dataset reading one Iceberg table directly (`from: iceberg:file:///wh/s/t`), read-only.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { objectStoreFor, type S3StoreConfig } from '../../engine/index.js';
import { tableEntry } from './iceberg-catalogs.js';
import { liveDataFiles } from './live-files.js';
import type { IcebergTableEntry } from './table-entry.js';
import { readCurrent } from './warehouse.js';

/** The table's location URI of a dataset's `from` (`iceberg:` + `file:` URL, path, or `s3://`). */
export function icebergTableLocation(from: string, baseDir: string): string {
  const where = from.replace(/^iceberg:/i, '').replace(/\/+$/, '');
  if (/^(s3|file):\/\//i.test(where)) return where;
  const path = where.replace(/^file:/i, '');
  return pathToFileURL(isAbsolute(path) ? path : resolve(baseDir, path)).href;
}

/** The dataset's table at its current snapshot; throws (with a message naming the location) when there is none. */
export async function resolveIcebergDataset(
  name: string,
  location: string,
  s3: S3StoreConfig | undefined,
): Promise<IcebergTableEntry> {
  const store = objectStoreFor(location, s3);
  const current = await readCurrent(store, location);
  if (current === null) throw new Error(`no Iceberg table at ${location} (no metadata/v<N>.metadata.json)`);
  const files = await liveDataFiles(store, current.metadata);
  return tableEntry(name, { name: null, writable: false, s3 }, current.metadataLocation, current.metadata, files);
}
