// Splits a batch's rows by partition tuple (a spec's transforms of their source columns), keeping row order.
import { type Batch, type Column, PlanError, strings, takeRows } from '../../engine/index.js';
import type { IcebergSchema, IcebergValue, PartitionSpec } from './spec.js';
import {
  applyTransform,
  checkTransform,
  humanPartitionValue,
  parseTransform,
  partitionPathSegment,
  type Transform,
} from './transforms.js';

/** A partition tuple: `values` in the spec's field order, `path` its data folder (`day=2024-01-02`), `id` a map key. */
export interface PartitionKey {
  readonly id: string;
  readonly values: readonly (IcebergValue | null)[];
  readonly path: string;
}

export type RowGroups = readonly { readonly key: PartitionKey; readonly batch: Batch }[];

interface BoundField {
  readonly name: string;
  readonly transform: Transform;
  readonly column: number;
  readonly source: string;
}

/**
 * The function that splits a batch (columns in the schema's field order) into one batch per partition tuple, in
 * order of first appearance; an unpartitioned spec returns the batch whole. Throws PlanError for a spec field whose
 * source column is missing or whose transform does not apply to its type.
 */
export function partitionerOf(schema: IcebergSchema, spec: PartitionSpec): (batch: Batch) => RowGroups {
  const fields: BoundField[] = spec.fields.map((f) => {
    const column = schema.fields.findIndex((c) => c.id === f['source-id']);
    if (column < 0) throw new PlanError(`partition field ${f.name} refers to no column (source id ${f['source-id']})`);
    const source = schema.fields[column]!;
    const transform = parseTransform(f.transform);
    checkTransform(transform, source.type, source.name);
    return { name: f.name, transform, column, source: source.type as string };
  });
  const none: PartitionKey = { id: '', values: [], path: '' };
  if (fields.length === 0) return (batch) => [{ key: none, batch }];
  return (batch) => split(batch, fields);
}

function split(batch: Batch, fields: readonly BoundField[]): RowGroups {
  const n = batch.length;
  const tuples = fields.map((f) => transformColumn(f, batch.columns[f.column]!, n));
  const groups = new Map<string, { key: PartitionKey; rows: number[] }>();
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    let id = '';
    for (const t of tuples) id += keyPart(t[i]!);
    ids[i] = id;
    let g = groups.get(id);
    if (g === undefined) {
      const values = tuples.map((t) => t[i]!);
      g = { key: { id, values, path: pathOf(fields, values) }, rows: [] };
      groups.set(id, g);
    }
    g.rows.push(i);
  }
  if (groups.size === 1) return [{ key: groups.values().next().value!.key, batch }];
  return [...groups.values()].map(({ key, rows }) => {
    const at = Int32Array.from(rows);
    const columns = batch.columns.map((c) => takeRows(c, at, at.length));
    return { key, batch: { schema: batch.schema, columns, length: at.length } };
  });
}

/** A self-delimiting text of one tuple value (NULL apart from the string `null`). */
function keyPart(v: IcebergValue | null): string {
  if (v === null) return '\u0000N|';
  const text = v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v);
  return `\u0000${text.length}:${text}|`;
}

function pathOf(fields: readonly BoundField[], values: readonly (IcebergValue | null)[]): string {
  return fields
    .map((f, i) => partitionPathSegment(f.name, humanPartitionValue(f.transform, f.source, values[i]!)))
    .join('/');
}

function transformColumn(f: BoundField, col: Column, n: number): (IcebergValue | null)[] {
  const out = new Array<IcebergValue | null>(n);
  for (let i = 0; i < n; i++) out[i] = applyTransform(f.transform, f.source, valueAt(col, i, f.source));
  return out;
}

/**
 * Row `i` of an engine column as a transform's input: decimals as unscaled bigints, strings as strings, long and
 * timestamp values as the column holds them (numbers while exact), NULL as null.
 */
export function valueAt(col: Column, i: number, source: string): IcebergValue | null {
  if (col.values === null || (col.valid !== null && col.valid[i] === 0)) return null;
  if (source === 'string') return strings(col)[i]!;
  const x = (col.values as ArrayLike<number | bigint>)[i]!;
  if (source === 'boolean') return x !== 0;
  if (source.startsWith('decimal')) return typeof x === 'bigint' ? x : BigInt(x);
  return x;
}
