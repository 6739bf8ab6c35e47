// `partitionFieldsOf`: `PARTITIONED BY (...)` as the source ids, names and transforms of a new table's spec.
import { EngineError, type PartitionField } from '../../engine/index.js';
import type { NewPartitionField } from './metadata.js';
import type { IcebergSchema } from './spec.js';

const TIME = new Set(['date', 'timestamp', 'timestamptz']);

/**
 * The partition fields over `schema`, named as Java names them (`col`, `col_year`, `col_bucket`, `col_trunc`);
 * a `PlanError`-kind error for an unknown column, a transform its type does not take, or a field twice.
 */
export function partitionFieldsOf(schema: IcebergSchema, fields: readonly PartitionField[]): NewPartitionField[] {
  const out: NewPartitionField[] = [];
  for (const f of fields) {
    const source = schema.fields.find((c) => c.name.toLowerCase() === f.column.toLowerCase());
    if (source === undefined) throw new EngineError('plan', `partition column "${f.column}" does not exist`);
    const type = String(source.type);
    const transform = f.transform.toLowerCase().replace(/\s+/g, '');
    const kind = /^(identity|year|month|day|hour|bucket|truncate|void)(\[(\d+)\])?$/.exec(transform);
    if (kind === null) throw new EngineError('plan', `unknown partition transform "${f.transform}"`);
    const [, name, , arg] = kind;
    if ((name === 'bucket' || name === 'truncate') && (arg === undefined || Number(arg) <= 0))
      throw new EngineError('plan', `${name} needs a positive width, e.g. ${name}[16]`);
    const ok =
      name === 'identity' ||
      name === 'void' ||
      (['year', 'month', 'day'].includes(name!) && TIME.has(type)) ||
      (name === 'hour' && type !== 'date' && TIME.has(type)) ||
      (name === 'bucket' && /^(int|long|date|timestamp|timestamptz|string|decimal.*)$/.test(type)) ||
      (name === 'truncate' && /^(int|long|string|decimal.*)$/.test(type));
    if (!ok)
      throw new EngineError('plan', `partition transform ${transform} does not apply to ${source.name} (${type})`);
    const suffix = name === 'identity' ? '' : name === 'truncate' ? '_trunc' : `_${name}`;
    const fieldName = `${source.name}${suffix}`;
    if (out.some((o) => o.name === fieldName))
      throw new EngineError('plan', `partition field "${fieldName}" is given twice`);
    out.push({ sourceId: source.id, name: fieldName, transform });
  }
  return out;
}
