// `IcebergTableEntry`: an Iceberg table as the catalog publishes it to query workers (kind `iceberg`).
import type { S3StoreConfig } from '../../engine/index.js';
import type { TableEntry } from '../providers/registry.js';
import type { DataFile, IcebergSchema, PartitionSpec } from './spec.js';

/**
 * One Iceberg table at one snapshot, resolved on the main thread (metadata → manifest list → manifests), so a
 * worker prunes its files by bounds and partition values without reading any Avro or Parquet footer first.
 */
export interface IcebergTableEntry extends TableEntry {
  readonly kind: 'iceberg';
  /** `catalog.schema.table` for a catalog's table; the dataset's name for a dataset reading one table. */
  readonly name: string;
  /** The floe catalog holding it; null for a dataset over one table (read-only). */
  readonly catalog: string | null;
  /** The table's root URI (`file:///abs/wh/s/t`, `s3://bucket/wh/s/t`); data files go under `<location>/data/`. */
  readonly location: string;
  /** The `vN.metadata.json` this entry was read from. */
  readonly metadataLocation: string;
  /** The current schema (field ids and `required` as the metadata says). */
  readonly schema: IcebergSchema;
  /** Every partition spec by id (old files may use an older one); `specId` is the one new files use. */
  readonly specs: readonly PartitionSpec[];
  readonly specId: number;
  /** The current snapshot; null for a table with none yet (it reads as empty). */
  readonly snapshotId: number | null;
  /** The live data files of that snapshot (delete files are not supported: such a table is refused at load). */
  readonly files: readonly DataFile[];
  /** True when the catalog is `access: read_write` (the provider then has `write`). */
  readonly writable: boolean;
  /** How to reach an `s3://` table. */
  readonly s3?: S3StoreConfig;
  /** Roll a new data file once one reaches this many bytes (`write.target-file-size-bytes`, default 128 MiB). */
  readonly targetFileBytes: number;
}

export const DEFAULT_TARGET_FILE_BYTES = 128 * 1024 * 1024;
