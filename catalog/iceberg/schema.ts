// Iceberg schemas ↔ floe schemas: the type table of the contract (§2.4) and its inverse for reading tables.
import { type DataType, type Field, NotSupportedError, type Schema, typeName } from '../../engine/index.js';
import type { IcebergField, IcebergSchema, IcebergType } from './spec.js';

/** Iceberg's spelling of a floe type (`timestamp` without zone, `timestamptz` with). */
export function icebergType(t: DataType): string {
  switch (t.id) {
    case 'bool':
      return 'boolean';
    case 'int32':
      return 'int';
    case 'int64':
      return 'long';
    case 'float64':
      return 'double';
    case 'decimal':
      return `decimal(${t.precision}, ${t.scale})`;
    case 'utf8':
      return 'string';
    case 'date':
      return 'date';
    case 'timestamp':
      return t.tz === null ? 'timestamp' : 'timestamptz';
    default:
      throw new NotSupportedError(`${typeName(t)} columns cannot be stored in Iceberg tables`);
  }
}

/** A schema for `fields` with ids 1..n in order (`required` for NOT NULL columns). */
export function icebergSchema(
  fields: readonly Pick<Field, 'name' | 'type' | 'nullable'>[],
  schemaId = 0,
): IcebergSchema {
  return {
    type: 'struct',
    'schema-id': schemaId,
    fields: fields.map((f, i) => ({ id: i + 1, name: f.name, required: !f.nullable, type: icebergType(f.type) })),
  };
}

/** The floe type an Iceberg type reads as, or null when floe cannot read it (nested, binary, uuid, time, ...). */
export function floeType(t: IcebergType): DataType | null {
  if (typeof t !== 'string') return null;
  const decimal = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
  if (decimal) return { id: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) };
  switch (t) {
    case 'boolean':
      return { id: 'bool' };
    case 'int':
      return { id: 'int32' };
    case 'long':
      return { id: 'int64' };
    case 'float':
    case 'double':
      return { id: 'float64' };
    case 'string':
      return { id: 'utf8' };
    case 'date':
      return { id: 'date' };
    case 'timestamp':
      return { id: 'timestamp', tz: null };
    case 'timestamptz':
      return { id: 'timestamp', tz: 'UTC' };
    default:
      return null;
  }
}

/**
 * The floe schema of an Iceberg schema: the columns floe can read, in order (`unreadable` lists the others, which
 * queries do not see: nested, binary, uuid, time and fixed columns).
 */
export function floeSchema(schema: IcebergSchema): { schema: Schema; unreadable: readonly IcebergField[] } {
  const fields: Field[] = [];
  const unreadable: IcebergField[] = [];
  for (const f of schema.fields) {
    const type = floeType(f.type);
    if (type === null) unreadable.push(f);
    else fields.push({ name: f.name, qualifier: null, type, nullable: !f.required });
  }
  return { schema: { fields }, unreadable };
}
