// `datasetCatalogSource`: the running datasets as one Iceberg REST catalog (`floe.public.<dataset>`), metadata synthesized.
import { createHash } from 'node:crypto';
import { icebergSchema } from '../../catalog/iceberg/schema.js';
import type { TableMetadata } from '../../catalog/iceberg/spec.js';
import { type Field, NotSupportedError } from '../../engine/index.js';
import type { DatasetState, Datasets } from '../datasets/datasets.js';
import type { QueryService } from '../runtime/query-service.js';
import { readDatasetSchema } from './dataset-schema.js';
import { internalError } from './rest-answer.js';
import type { LoadedTable, RestCatalogSource } from './rest-source.js';

export interface DatasetCatalogOptions {
  /** The catalog's name: namespace level 1 (`floe` by default in main.ts). */
  readonly name: string;
  /** The one schema holding the datasets: namespace level 2 (`public`). */
  readonly schema?: string;
  /** The running datasets (names, `from`, status). */
  readonly datasets: () => Datasets;
  /** Runs the `LIMIT 0` query that gives a dataset's columns. */
  readonly service: QueryService;
  /** `last-updated-ms` of every table (no snapshot ever changes them); default now. */
  readonly updatedMs?: number;
  /** How columns are read; default `readDatasetSchema` (tests pass their own). */
  readonly readSchema?: (service: QueryService, dataset: string) => Promise<readonly Field[]>;
}

/**
 * One schema (`public`) holding every configured dataset by its configured name, sorted. A table's metadata is
 * synthesized v2 metadata with no snapshots and no `metadata-location` (clients see the schema; the data is read
 * through floe's SQL front ends), but unlike Spice's its `table-uuid` is stable: derived from the catalog, the
 * dataset's name and its `from`, so it survives calls and restarts and changes only when the dataset is redefined.
 * A dataset in `Error` answers 500 `Internal Server Error: <its error code>` (e.g. `dataset.source`): it is
 * configured and listed, so NoSuchTable would be a lie, and the code says which kind of failure without details.
 */
export function datasetCatalogSource(options: DatasetCatalogOptions): RestCatalogSource {
  const schema = options.schema ?? 'public';
  const updatedMs = options.updatedMs ?? Date.now();
  const readSchema = options.readSchema ?? readDatasetSchema;
  const find = (table: string) =>
    options
      .datasets()
      .list()
      .find((d) => d.name === table);
  return {
    name: options.name,
    schemas: async () => [schema],
    tables: async (s) =>
      s === schema
        ? options
            .datasets()
            .list()
            .map((d) => d.name)
            .sort()
        : undefined,
    async loadTable(s, table): Promise<LoadedTable | undefined> {
      const dataset = s === schema ? find(table) : undefined;
      if (dataset === undefined) return undefined;
      if (dataset.status === 'Error') throw internalError(dataset.error?.code ?? 'dataset.error');
      const fields = await readSchema(options.service, dataset.name);
      return { metadataLocation: null, metadata: datasetMetadata(options.name, dataset, fields, updatedMs) };
    },
  };
}

/** Format-version 2 metadata for a table without snapshots: field ids from 1, unpartitioned, unsorted. */
export function datasetMetadata(
  catalog: string,
  dataset: Pick<DatasetState, 'name' | 'from'>,
  fields: readonly Field[],
  updatedMs: number,
): TableMetadata {
  let schema: TableMetadata['schemas'][number];
  try {
    schema = icebergSchema(fields, 0);
  } catch (e) {
    // A column Iceberg has no type for (an all-NULL or interval column): a reason code, not a wrong type.
    if (e instanceof NotSupportedError) throw internalError('unsupported_column_type');
    throw e;
  }
  return {
    'format-version': 2,
    'table-uuid': stableTableUuid(catalog, dataset.name, dataset.from),
    location: `floe://datasets/${encodeURIComponent(dataset.name)}`,
    'last-sequence-number': 0,
    'last-updated-ms': updatedMs,
    'last-column-id': fields.length,
    schemas: [schema],
    'current-schema-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'default-spec-id': 0,
    // 999: the spec's "no partition field yet" value (partition field ids start at 1000).
    'last-partition-id': 999,
    properties: {},
    'current-snapshot-id': -1,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': 0,
    refs: {},
  };
}

/** A UUID (RFC 9562 version 8: name-based, SHA-256) of catalog, dataset name and `from`. */
export function stableTableUuid(catalog: string, name: string, from: string): string {
  const bytes = createHash('sha256').update(`floe-dataset\0${catalog}\0${name}\0${from}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
