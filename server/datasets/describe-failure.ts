// `describeFailure`: a failed load as `GET /v1/datasets` reports it: the error code and a message naming the dataset and its connector.
import { DatasetError } from '../../catalog/datasets.js';
import type { DatasetErrorInfo } from './datasets.js';

/** The error of a dataset's failed load. */
export interface DatasetFailureInfo {
  readonly error: DatasetErrorInfo;
  /** E.g. `Dataset trips (file): no such file or folder: /data/trips.parquet`. */
  readonly message: string;
}

/**
 * Describes `e`, thrown loading `name` (declared `from`). A `DatasetError` gives its failure type (`source`,
 * `auth`, `connection`, `refresh`); anything else is `internal`. With `servingSince` (the old data still serves)
 * the message says so: `Dataset trips (file): refresh failed; serving the data loaded at <time>: <reason>`.
 */
export function describeFailure(name: string, from: string, e: unknown, servingSince?: Date): DatasetFailureInfo {
  const type = e instanceof DatasetError ? e.failure : 'internal';
  const raw = e instanceof Error ? e.message : String(e);
  // `DatasetError` prefixes its position in the manifest (`datasets[0] (trips): `); the dataset is named here.
  const rest = raw.replace(/^datasets\[\d+\] /, '');
  const reason = rest !== raw && rest.startsWith(`(${name}): `) ? rest.slice(name.length + 4) : raw;
  const serving =
    servingSince === undefined ? '' : `refresh failed; serving the data loaded at ${servingSince.toISOString()}: `;
  return {
    error: { category: 'dataset', type, code: `dataset.${type}` },
    message: `Dataset ${name} (${connectorOf(from)}): ${serving}${reason}`,
  };
}

/** `file:x.parquet` -> `file`, `s3://bucket/key` -> `s3`. */
export function connectorOf(from: string): string {
  const colon = from.indexOf(':');
  return colon < 0 ? from : from.slice(0, colon);
}
