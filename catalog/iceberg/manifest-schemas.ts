// The v2 Avro schemas of manifests (`manifest_entry`) and manifest lists (`manifest_file`), with the spec's field ids.
import type { AvroSchema } from './avro-container.js';
import type { IcebergType } from './spec.js';

/** One field of the `partition` record (field 102): a partition spec field and its transform's result type. */
export interface PartitionColumn {
  readonly name: string;
  readonly fieldId: number;
  readonly type: IcebergType;
}

// Every record is inlined with its own name: icebird cannot follow a named-type reference.
const optional = (name: string, type: unknown, fieldId: number) => ({
  name,
  type: ['null', type],
  default: null,
  'field-id': fieldId,
});
const required = (name: string, type: unknown, fieldId: number) => ({ name, type, 'field-id': fieldId });

/** An int-keyed map as Iceberg writes it: an array of key/value records marked `logicalType: map`. */
function intMap(name: string, fieldId: number, keyId: number, valueId: number, value: string) {
  const entry = {
    type: 'record',
    name: `k${keyId}_v${valueId}`,
    fields: [required('key', 'int', keyId), required('value', value, valueId)],
  };
  return optional(name, { type: 'array', items: entry, logicalType: 'map' }, fieldId);
}

/** The manifest entry schema of a table whose partition tuple has `partition` (empty when unpartitioned). */
export function manifestEntrySchema(partition: readonly PartitionColumn[]): AvroSchema {
  const dataFile = {
    type: 'record',
    name: 'r2',
    fields: [
      required('content', 'int', 134),
      required('file_path', 'string', 100),
      required('file_format', 'string', 101),
      required('partition', partitionRecord(partition), 102),
      required('record_count', 'long', 103),
      required('file_size_in_bytes', 'long', 104),
      intMap('column_sizes', 108, 117, 118, 'long'),
      intMap('value_counts', 109, 119, 120, 'long'),
      intMap('null_value_counts', 110, 121, 122, 'long'),
      intMap('nan_value_counts', 137, 138, 139, 'long'),
      intMap('lower_bounds', 125, 126, 127, 'bytes'),
      intMap('upper_bounds', 128, 129, 130, 'bytes'),
      optional('key_metadata', 'bytes', 131),
      optional('split_offsets', { type: 'array', items: 'long', 'element-id': 133 }, 132),
      optional('equality_ids', { type: 'array', items: 'int', 'element-id': 136 }, 135),
      optional('sort_order_id', 'int', 140),
    ],
  };
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      required('status', 'int', 0),
      optional('snapshot_id', 'long', 1),
      optional('sequence_number', 'long', 3),
      optional('file_sequence_number', 'long', 4),
      required('data_file', dataFile, 2),
    ],
  };
}

function partitionRecord(partition: readonly PartitionColumn[]) {
  // Java writes every partition value as optional: a NULL source value has a NULL partition value.
  return {
    type: 'record',
    name: 'r102',
    fields: partition.map((p) => optional(p.name, avroType(p.type, p.fieldId), p.fieldId)),
  };
}

/** The Avro type of a primitive Iceberg type (spec Appendix A). */
export function avroType(type: IcebergType, fieldId: number): unknown {
  if (typeof type !== 'string') throw new Error(`partition values of nested type ${type.type} are not possible`);
  const decimal = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(type);
  if (decimal) {
    const [precision, scale] = [Number(decimal[1]), Number(decimal[2])];
    return {
      type: 'fixed',
      name: `fixed_${fieldId}`,
      size: decimalBytes(precision),
      logicalType: 'decimal',
      precision,
      scale,
    };
  }
  const fixed = /^fixed\[(\d+)\]$/.exec(type);
  if (fixed) return { type: 'fixed', name: `fixed_${fieldId}`, size: Number(fixed[1]) };
  switch (type) {
    case 'boolean':
    case 'int':
    case 'long':
    case 'float':
    case 'double':
    case 'string':
      return type;
    case 'binary':
      return 'bytes';
    case 'date':
      return { type: 'int', logicalType: 'date' };
    case 'time':
      return { type: 'long', logicalType: 'time-micros' };
    case 'timestamp':
    case 'timestamptz':
      return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': type === 'timestamptz' };
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return { type: 'long', logicalType: 'timestamp-nanos', 'adjust-to-utc': type === 'timestamptz_ns' };
    case 'uuid':
      return { type: 'fixed', name: `uuid_${fieldId}`, size: 16, logicalType: 'uuid' };
    default:
      throw new Error(`Iceberg type ${type} has no Avro form`);
  }
}

/** Bytes of the fixed that holds any unscaled decimal of `precision` digits (Java: decimalRequiredBytes). */
export function decimalBytes(precision: number): number {
  let n = 1;
  while (2n ** BigInt(8 * n - 1) < 10n ** BigInt(precision)) n++;
  return n;
}

/** The v2 manifest list schema (Java's V2Metadata.MANIFEST_LIST_SCHEMA). */
export const MANIFEST_LIST_SCHEMA: AvroSchema = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    required('manifest_path', 'string', 500),
    required('manifest_length', 'long', 501),
    required('partition_spec_id', 'int', 502),
    required('content', 'int', 517),
    required('sequence_number', 'long', 515),
    required('min_sequence_number', 'long', 516),
    required('added_snapshot_id', 'long', 503),
    required('added_files_count', 'int', 504),
    required('existing_files_count', 'int', 505),
    required('deleted_files_count', 'int', 506),
    required('added_rows_count', 'long', 512),
    required('existing_rows_count', 'long', 513),
    required('deleted_rows_count', 'long', 514),
    optional(
      'partitions',
      {
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            required('contains_null', 'boolean', 509),
            optional('contains_nan', 'boolean', 518),
            optional('lower_bound', 'bytes', 510),
            optional('upper_bound', 'bytes', 511),
          ],
        },
      },
      507,
    ),
    optional('key_metadata', 'bytes', 519),
  ],
};
