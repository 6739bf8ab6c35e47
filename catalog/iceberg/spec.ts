// The Iceberg v2 table-format objects floe reads and writes, as their JSON (format/spec.md; kebab-case keys as written).

/** A primitive type in the spec's spelling (`long`, `decimal(9,2)`, `timestamptz`, ...) or a nested one. */
export type IcebergType = string | IcebergStructType | IcebergListType | IcebergMapType;

export interface IcebergStructType {
  readonly type: 'struct';
  readonly fields: readonly IcebergField[];
}

export interface IcebergListType {
  readonly type: 'list';
  readonly 'element-id': number;
  readonly element: IcebergType;
  readonly 'element-required': boolean;
}

export interface IcebergMapType {
  readonly type: 'map';
  readonly 'key-id': number;
  readonly key: IcebergType;
  readonly 'value-id': number;
  readonly value: IcebergType;
  readonly 'value-required': boolean;
}

export interface IcebergField {
  readonly id: number;
  readonly name: string;
  readonly required: boolean;
  readonly type: IcebergType;
  readonly doc?: string;
}

export interface IcebergSchema {
  readonly type: 'struct';
  readonly 'schema-id': number;
  readonly fields: readonly IcebergField[];
  readonly 'identifier-field-ids'?: readonly number[];
}

export interface PartitionSpecField {
  readonly 'source-id': number;
  /** 1000 and up, unique across the table's specs. */
  readonly 'field-id': number;
  readonly name: string;
  /** `identity`, `year`, `month`, `day`, `hour`, `bucket[N]`, `truncate[W]`, `void`. */
  readonly transform: string;
}

export interface PartitionSpec {
  readonly 'spec-id': number;
  readonly fields: readonly PartitionSpecField[];
}

export interface SortOrder {
  readonly 'order-id': number;
  readonly fields: readonly unknown[];
}

export interface Snapshot {
  readonly 'snapshot-id': number;
  readonly 'parent-snapshot-id'?: number;
  readonly 'sequence-number': number;
  readonly 'timestamp-ms': number;
  readonly 'manifest-list': string;
  /** `operation` (`append` | `overwrite` | `replace` | `delete`) and the string-valued metrics of Appendix F. */
  readonly summary: Readonly<Record<string, string>>;
  readonly 'schema-id'?: number;
}

/** `vN.metadata.json` of a v2 table (v1 tables are read too: `schema`/`partition-spec` then stand in). */
export interface TableMetadata {
  readonly 'format-version': 1 | 2;
  readonly 'table-uuid': string;
  readonly location: string;
  readonly 'last-sequence-number': number;
  readonly 'last-updated-ms': number;
  readonly 'last-column-id': number;
  readonly schemas: readonly IcebergSchema[];
  readonly 'current-schema-id': number;
  readonly 'partition-specs': readonly PartitionSpec[];
  readonly 'default-spec-id': number;
  readonly 'last-partition-id': number;
  readonly properties?: Readonly<Record<string, string>>;
  /** Absent, null or -1: no snapshot yet. */
  readonly 'current-snapshot-id'?: number | null;
  readonly snapshots?: readonly Snapshot[];
  readonly 'snapshot-log'?: readonly { readonly 'snapshot-id': number; readonly 'timestamp-ms': number }[];
  readonly 'metadata-log'?: readonly { readonly 'metadata-file': string; readonly 'timestamp-ms': number }[];
  readonly 'sort-orders': readonly SortOrder[];
  readonly 'default-sort-order-id': number;
  readonly refs?: Readonly<Record<string, { readonly 'snapshot-id': number; readonly type: 'branch' | 'tag' }>>;
  readonly statistics?: readonly unknown[];
  readonly 'partition-statistics'?: readonly unknown[];
}

/**
 * A value of a primitive Iceberg type as floe handles it (bounds, partition values): boolean; int and date
 * (days) as numbers; long, time and timestamp(tz) (microseconds) as bigints; float and double as numbers;
 * decimal as its unscaled bigint; string as string; binary, fixed and uuid as bytes.
 */
export type IcebergValue = boolean | number | bigint | string | Uint8Array;

/**
 * One data file as a manifest entry describes it (the fields floe reads and writes), with bounds and partition
 * values decoded. Structured-cloneable: it crosses between threads in commits and catalog entries.
 */
export interface DataFile {
  /** Absolute URI (`file:///...`, `s3://bucket/...`). */
  readonly path: string;
  readonly format: 'PARQUET';
  readonly recordCount: number;
  readonly fileSizeBytes: number;
  readonly specId: number;
  /** The partition tuple in the spec's field order (transform results; null for NULL). Empty when unpartitioned. */
  readonly partition: readonly (IcebergValue | null)[];
  /** By field id of leaf columns. */
  readonly columnSizes?: Readonly<Record<number, number>>;
  readonly valueCounts?: Readonly<Record<number, number>>;
  readonly nullValueCounts?: Readonly<Record<number, number>>;
  readonly nanValueCounts?: Readonly<Record<number, number>>;
  readonly lowerBounds?: Readonly<Record<number, IcebergValue>>;
  readonly upperBounds?: Readonly<Record<number, IcebergValue>>;
  readonly splitOffsets?: readonly number[];
}

/** The type a partition transform produces from a source column of type `source` (spec: "Partition Transforms"). */
export function partitionResultType(transform: string, source: IcebergType): IcebergType {
  if (transform === 'identity' || transform.startsWith('truncate[')) return source;
  if (transform === 'void') return source;
  // year/month/day/hour count from 1970; day's result type is `date` in the spec, an int on the wire.
  if (transform === 'day') return 'date';
  return 'int';
}
