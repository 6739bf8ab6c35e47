// `withPlainDecimals`: a Parquet footer whose INT64 decimal columns read as plain INT64, with their decimal types
// kept aside. parquet-wasm then hands out 8-byte integers instead of widening every value to a 16-byte Decimal128
// (~13% of decoding those columns), and floe reads half the bytes; the values (unscaled integers) are the same.
import { type DataType, decimal } from '../../plan/types.js';
import { CompactReader, CompactType, type FieldSpan, fieldHeader, intValue } from './thrift-compact.js';

/** int32 footer length + "PAR1". */
const TAIL_BYTES = 8;
// Field ids in parquet.thrift: FileMetaData.schema; SchemaElement's fields.
const FILE_SCHEMA = 2;
const TYPE = 1;
const NAME = 4;
const NUM_CHILDREN = 5;
const CONVERTED_TYPE = 6;
const SCALE = 7;
const PRECISION = 8;
const LOGICAL_TYPE = 10;
/** Type.INT64 and ConvertedType.DECIMAL. */
const INT64 = 2;
const DECIMAL = 5;
/** What a served INT64 decimal loses: its converted type, scale, precision and logical type. */
const DECIMAL_FIELDS = new Set([CONVERTED_TYPE, SCALE, PRECISION, LOGICAL_TYPE]);

export interface PlainDecimals {
  /** The rewritten footer (metadata, its length, "PAR1"). */
  readonly footer: Uint8Array;
  /** The decimal type of each top-level column now served as INT64, by name. */
  readonly types: ReadonlyMap<string, DataType>;
}

/**
 * `footer` (metadata, length, "PAR1") with the decimal annotations taken off every top-level INT64 column marked
 * DECIMAL (converted type with scale and precision), or null when there is none or the metadata cannot be walked
 * (parquet-wasm then reads the file as it is and reports its problems). Everything else is copied byte for byte.
 */
export function withPlainDecimals(footer: Uint8Array): PlainDecimals | null {
  if (footer.length < TAIL_BYTES) return null;
  let plain: { metadata: Uint8Array; types: Map<string, DataType> } | null;
  try {
    plain = rewrite(footer.subarray(0, footer.length - TAIL_BYTES));
  } catch {
    return null;
  }
  if (plain === null) return null;
  const out = new Uint8Array(plain.metadata.length + TAIL_BYTES);
  out.set(plain.metadata);
  new DataView(out.buffer).setUint32(plain.metadata.length, plain.metadata.length, true);
  out.set(footer.subarray(footer.length - 4), plain.metadata.length + 4);
  return { footer: out, types: plain.types };
}

interface Element {
  readonly at: number;
  readonly end: number;
  readonly fields: readonly FieldSpan[];
}

function rewrite(metadata: Uint8Array): { metadata: Uint8Array; types: Map<string, DataType> } | null {
  const reader = new CompactReader(metadata);
  const schema = reader.struct().find((f) => f.id === FILE_SCHEMA && f.type === CompactType.list);
  if (schema === undefined) return null;
  reader.pos = schema.valueAt;
  const { size, elementType } = reader.listHeader();
  if (elementType !== CompactType.struct) return null;
  const elementsAt = reader.pos;
  const elements: Element[] = [];
  for (let i = 0; i < size; i++) {
    const at = reader.pos;
    const fields = reader.struct();
    elements.push({ at, end: reader.pos, fields });
  }
  const types = new Map<string, DataType>();
  const names = new Set<string>();
  const plain = new Set<number>();
  for (const i of topLevel(metadata, elements)) {
    const fields = elements[i]!.fields;
    const value = (id: number) => {
      const f = fields.find((x) => x.id === id);
      return f === undefined ? null : intValue(metadata, f);
    };
    const name = nameOf(metadata, fields);
    if (name === null || names.has(name)) return null;
    names.add(name);
    const precision = value(PRECISION);
    const scale = value(SCALE);
    if (value(TYPE) !== INT64 || value(CONVERTED_TYPE) !== DECIMAL || precision === null || scale === null) continue;
    if (precision < 1 || precision > 18 || scale < 0 || scale > precision) continue;
    types.set(name, decimal(precision, scale));
    plain.add(i);
  }
  if (plain.size === 0) return null;
  const parts: Uint8Array[] = [metadata.subarray(0, elementsAt)];
  elements.forEach((e, i) => {
    if (!plain.has(i)) {
      parts.push(metadata.subarray(e.at, e.end));
      return;
    }
    let lastId = 0;
    for (const f of e.fields) {
      if (DECIMAL_FIELDS.has(f.id)) continue;
      parts.push(fieldHeader(f.id, lastId, f.type), metadata.subarray(f.valueAt, f.end));
      lastId = f.id;
    }
    parts.push(Uint8Array.of(0));
  });
  parts.push(metadata.subarray(schema.end));
  return { metadata: Buffer.concat(parts), types };
}

/** Indices of the root's children in the depth-first schema list (each followed by its own subtree). */
function topLevel(metadata: Uint8Array, elements: readonly Element[]): number[] {
  const children = (i: number) => {
    const e = elements[i];
    if (e === undefined) throw new RangeError('schema list ends inside a group');
    const f = e.fields.find((x) => x.id === NUM_CHILDREN);
    return f === undefined ? 0 : intValue(metadata, f);
  };
  const subtreeEnd = (i: number, depth: number): number => {
    if (depth > 64) throw new RangeError('schema nested too deeply');
    let next = i + 1;
    for (let k = children(i); k > 0; k--) next = subtreeEnd(next, depth + 1);
    return next;
  };
  const out: number[] = [];
  let next = 1;
  for (let k = children(0); k > 0; k--) {
    out.push(next);
    next = subtreeEnd(next, 0);
  }
  return out;
}

function nameOf(metadata: Uint8Array, fields: readonly FieldSpan[]): string | null {
  const f = fields.find((x) => x.id === NAME && x.type === CompactType.binary);
  if (f === undefined) return null;
  const reader = new CompactReader(metadata, f.valueAt);
  const length = reader.varint();
  return Buffer.from(metadata.buffer, metadata.byteOffset + reader.pos, length).toString('utf8');
}
