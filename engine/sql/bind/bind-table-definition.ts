// The parts of a table definition: column types of `CREATE TABLE t (...)` and the `PARTITIONED BY` fields, checked
// against what an Iceberg table can hold.
import type { PartitionField } from '../../catalog.js';
import { NotSupportedError, PlanError } from '../../errors.js';
import {
  BOOL,
  DATE,
  type DataType,
  decimal,
  type Field,
  FLOAT64,
  INT32,
  INT64,
  TIMESTAMP,
  typeName,
  UTF8,
} from '../../plan/types.js';
import type { ColumnDefAst, PartitionAst } from '../rewrite/write-statement.js';

/** Largest precision of an Iceberg decimal. */
const MAX_TABLE_PRECISION = 38;
const TIMESTAMPTZ: DataType = { id: 'timestamp', tz: 'UTC' };

const SIMPLE_TYPES: Readonly<Record<string, DataType>> = {
  integer: INT32,
  int: INT32,
  int4: INT32,
  smallint: INT32,
  int2: INT32,
  bigint: INT64,
  int8: INT64,
  real: FLOAT64,
  float4: FLOAT64,
  'double precision': FLOAT64,
  float8: FLOAT64,
  float: FLOAT64,
  text: UTF8,
  varchar: UTF8,
  'character varying': UTF8,
  char: UTF8,
  character: UTF8,
  bpchar: UTF8,
  boolean: BOOL,
  bool: BOOL,
  date: DATE,
  timestamp: TIMESTAMP,
  'timestamp without time zone': TIMESTAMP,
  timestamptz: TIMESTAMPTZ,
  'timestamp with time zone': TIMESTAMPTZ,
};

/** The fields of `CREATE TABLE t (...)`, in order; refuses a name given twice (PostgreSQL's message). */
export function tableFields(columns: readonly ColumnDefAst[]): Field[] {
  const seen = new Set<string>();
  return columns.map((c) => {
    if (seen.has(c.name)) throw new PlanError(`column "${c.name}" specified more than once`);
    seen.add(c.name);
    return { name: c.name, qualifier: null, type: columnType(c), nullable: !c.notNull };
  });
}

function columnType(c: ColumnDefAst): DataType {
  if (c.type === 'numeric' || c.type === 'decimal') return decimalType(c);
  const type = SIMPLE_TYPES[c.type];
  if (type === undefined) throw new PlanError(`type "${c.type}" does not exist or is not supported in a table`);
  // varchar(n)/char(n) keep no length: the column is text (longer values are not refused).
  const takesArgs = type.id === 'utf8' || type.id === 'float64' || type.id === 'timestamp';
  if (c.args.length > (takesArgs ? 1 : 0)) throw new PlanError(`type modifier is not allowed for type "${c.type}"`);
  return type;
}

function decimalType(c: ColumnDefAst): DataType {
  const [precision, scale = 0] = c.args;
  if (precision === undefined)
    throw new NotSupportedError(
      `column "${c.name}": numeric without a precision is not supported (an Iceberg decimal needs one): write numeric(p, s)`,
    );
  if (c.args.length > 2) throw new PlanError(`invalid NUMERIC type modifier`);
  if (precision < 1 || precision > MAX_TABLE_PRECISION)
    throw new NotSupportedError(`column "${c.name}": numeric precision ${precision} must be between 1 and 38`);
  if (scale > precision)
    throw new NotSupportedError(
      `column "${c.name}": numeric scale ${scale} must be between 0 and precision ${precision}`,
    );
  return decimal(precision, scale);
}

/** Types a stored column may have; `interval` (and an untyped NULL) has no Iceberg type. */
export function checkStorable(f: Field): void {
  if (f.type.id === 'interval' || f.type.id === 'null')
    throw new NotSupportedError(`column "${f.name}" of type ${typeName(f.type)} cannot be stored in a table yet`);
}

interface Transform {
  readonly name: string;
  /** Whether a number (N of bucket, W of truncate) comes before the column. */
  readonly width: boolean;
  readonly accepts: (t: DataType) => boolean;
}

const temporal = (t: DataType) => t.id === 'date' || t.id === 'timestamp';
const TRANSFORMS: Readonly<Record<string, Transform>> = {
  year: { name: 'year', width: false, accepts: temporal },
  month: { name: 'month', width: false, accepts: temporal },
  day: { name: 'day', width: false, accepts: temporal },
  hour: { name: 'hour', width: false, accepts: (t) => t.id === 'timestamp' },
  bucket: { name: 'bucket', width: true, accepts: (t) => t.id !== 'bool' && t.id !== 'float64' },
  truncate: { name: 'truncate', width: true, accepts: (t) => ['int32', 'int64', 'decimal', 'utf8'].includes(t.id) },
};
// Spark's and Trino's plural spellings name the same transforms.
const ALIASES: Readonly<Record<string, string>> = { years: 'year', months: 'month', days: 'day', hours: 'hour' };

const TRANSFORM_LIST =
  'column, year(column), month(column), day(column), hour(column), bucket(N, column), truncate(W, column)';

/** `PARTITIONED BY` items as Iceberg partition fields over `fields`. */
export function partitionFields(items: readonly PartitionAst[], fields: readonly Field[]): PartitionField[] {
  return items.map((item) => {
    if (item.transform === null)
      return { column: partitionColumn(String(item.args[0]), fields).name, transform: 'identity' };
    const t = TRANSFORMS[ALIASES[item.transform] ?? item.transform];
    if (t === undefined)
      throw new PlanError(`partition transform "${item.transform}" does not exist: use ${TRANSFORM_LIST}`);
    const usage = t.width ? `${t.name}(${t.name === 'bucket' ? 'N' : 'W'}, column)` : `${t.name}(column)`;
    const [width, column] = t.width ? item.args : [null, item.args[0]];
    if (item.args.length !== (t.width ? 2 : 1) || typeof column !== 'string' || (t.width && typeof width !== 'number'))
      throw new PlanError(
        `partition transform ${t.name} takes ${t.width ? 'a number and a column' : 'one column'}: ${usage}`,
      );
    if (t.width && ((width as number) < 1 || (width as number) > 2147483647))
      throw new PlanError(`partition transform ${t.name} needs a width between 1 and 2147483647, not ${width}`);
    const f = partitionColumn(column, fields);
    if (!t.accepts(f.type))
      throw new PlanError(
        `partition transform ${t.name} cannot apply to column "${f.name}" of type ${typeName(f.type)}`,
      );
    return { column: f.name, transform: t.width ? `${t.name}[${width}]` : t.name };
  });
}

function partitionColumn(name: string, fields: readonly Field[]): Field {
  const f = fields.find((x) => x.name === name);
  if (f === undefined) throw new PlanError(`column "${name}" named in partition key does not exist`);
  return f;
}
