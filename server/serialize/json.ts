// `makeJsonSerializer`: application/json, a JSON array of row objects (`[]` when there are no rows).
import type { Schema } from '../../engine/index.js';
import { makeRowWriter, type RowWriter } from './json-row.js';
import type { Serializer } from './serializer.js';

/**
 * Streams `[{...},{...}]` with one object per row, keys in column order. See `makeRowWriter` for the value
 * rules (explicit nulls, exact decimals, non-finite floats as strings). No whitespace, no trailing newline.
 */
export function makeJsonSerializer(): Serializer {
  let writeRows: RowWriter | null = null;
  let first = true;
  return {
    begin(schema: Schema) {
      writeRows = makeRowWriter(schema);
      return '[';
    },
    batch(batch) {
      if (batch.length === 0 || writeRows === null) return '';
      const text = writeRows(batch).join(',');
      const sep = first ? '' : ',';
      first = false;
      return sep + text;
    },
    end() {
      return ']';
    },
  };
}
