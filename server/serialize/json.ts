// `makeJsonSerializer`: application/json, a JSON array of row objects (`[]` when there are no rows).
import type { Schema } from '../../engine/index.js';
import { makeJsonRowBytes, type RowBytesWriter } from './json-bytes.js';
import type { Serializer } from './serializer.js';

/**
 * Streams `[{...},{...}]` with one object per row, keys in column order, rows written as UTF-8 bytes
 * (`makeJsonRowBytes`: explicit nulls, exact decimals, non-finite floats as strings). No whitespace, no
 * trailing newline.
 */
export function makeJsonSerializer(): Serializer {
  let writeRows: RowBytesWriter | null = null;
  let first = true;
  return {
    begin(schema: Schema) {
      writeRows = makeJsonRowBytes(schema);
      return '[';
    },
    batch(batch) {
      if (batch.length === 0 || writeRows === null) return '';
      const bytes = writeRows(batch, !first);
      first = false;
      return bytes;
    },
    end() {
      return ']';
    },
  };
}
