// `makeNdjsonSerializer`: application/x-ndjson, one JSON object per line (the rows of application/json).
import type { Schema } from '../../engine/index.js';
import { makeJsonRowBytes, type RowBytesWriter } from './json-bytes.js';
import type { Serializer } from './serializer.js';

/**
 * Streams each row as the object application/json writes for it (`makeJsonRowBytes`: explicit nulls, exact
 * decimals, non-finite floats as strings), every line ending in `\n`. No header line and no wrapper: an empty
 * result is an empty body, and a reader can act on each line as it arrives.
 */
export function makeNdjsonSerializer(): Serializer {
  let writeRows: RowBytesWriter | null = null;
  return {
    begin(schema: Schema) {
      writeRows = makeJsonRowBytes(schema);
      return '';
    },
    batch(batch) {
      if (batch.length === 0 || writeRows === null) return '';
      return writeRows(batch, false, true);
    },
    end() {
      return '';
    },
  };
}
