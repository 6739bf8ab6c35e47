// `withDictionaryFields`: rewrites an Arrow IPC schema message so that named UTF-8 fields become dictionaries.
import * as arrow from 'apache-arrow';

/**
 * The schema message `message` (an encapsulated Arrow IPC message, as Parquet writers store under
 * `ARROW:schema`) with each UTF-8 field named in `names` turned into Dictionary<Int32, Utf8>; other fields,
 * the order and all metadata unchanged. Null when no field changes.
 */
export function withDictionaryFields(message: Uint8Array, names: ReadonlySet<string>): Uint8Array | null {
  const eos = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
  const stream = new Uint8Array(message.length + eos.length);
  stream.set(message);
  stream.set(eos, message.length);
  const schema = arrow.tableFromIPC(stream).schema;
  let id = 0;
  let changed = false;
  const fields = schema.fields.map((f) => {
    if (!names.has(f.name) || f.type.typeId !== arrow.Type.Utf8) return f;
    changed = true;
    return new arrow.Field(f.name, new arrow.Dictionary(f.type, new arrow.Int32(), id++), f.nullable, f.metadata);
  });
  if (!changed) return null;
  const out = arrow.tableToIPC(new arrow.Table(new arrow.Schema(fields, schema.metadata)), 'stream');
  // The stream starts with the schema message: continuation marker, int32 length, flatbuffer.
  const length = new DataView(out.buffer, out.byteOffset, out.byteLength).getInt32(4, true);
  return out.slice(0, 8 + length);
}
