// `partitionFieldsOf`: `PARTITIONED BY (...)` as the source ids, names and transforms of a new table's spec.
import { type PartitionField, PlanError } from '../../engine/index.js';
import type { NewPartitionField } from './metadata.js';
import type { IcebergSchema } from './spec.js';
import { checkTransform, parseTransform, transformText } from './transforms.js';

/**
 * The partition fields over `schema`, named as Java names them (`col`, `col_year`, `col_bucket`, `col_trunc`);
 * a PlanError for an unknown column, a transform its type does not take (the spec's table), or a field twice.
 */
export function partitionFieldsOf(schema: IcebergSchema, fields: readonly PartitionField[]): NewPartitionField[] {
  const out: NewPartitionField[] = [];
  for (const f of fields) {
    const source = schema.fields.find((c) => c.name.toLowerCase() === f.column.toLowerCase());
    if (source === undefined) throw new PlanError(`partition column "${f.column}" does not exist`);
    const transform = parseTransform(f.transform);
    checkTransform(transform, source.type, source.name);
    const kind = transform.kind;
    const suffix = kind === 'identity' ? '' : kind === 'truncate' ? '_trunc' : `_${kind}`;
    const name = `${source.name}${suffix}`;
    if (out.some((o) => o.name === name)) throw new PlanError(`partition field "${name}" is given twice`);
    out.push({ sourceId: source.id, name, transform: transformText(transform) });
  }
  return out;
}
