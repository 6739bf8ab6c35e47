// `makeVndJsonSerializer`: application/vnd.service.sql.v1+json, `{schema, data, row_count}`.
import { arrowTypeName, type Schema } from '../../engine/index.js';
import { makeJsonRowBytes, type RowBytesWriter } from './json-bytes.js';
import type { Serializer } from './serializer.js';

/**
 * Streams `{"schema":{"fields":[...]},"data":[rows],"row_count":N}`. The keys come in that order so the
 * body can be written before the row count is known. Each field is `{name, data_type, nullable}` with
 * Arrow's type name (`Int64`, `Utf8`, `Decimal128(15, 2)`, ...). Unlike Spice, an empty result still
 * carries its real schema. Rows are the same objects as application/json (`makeJsonRowBytes`).
 */
export function makeVndJsonSerializer(): Serializer {
  let writeRows: RowBytesWriter | null = null;
  let rowCount = 0;
  return {
    begin(schema) {
      writeRows = makeJsonRowBytes(schema);
      return `{"schema":${schemaJson(schema)},"data":[`;
    },
    batch(batch) {
      if (batch.length === 0 || writeRows === null) return '';
      const bytes = writeRows(batch, rowCount !== 0);
      rowCount += batch.length;
      return bytes;
    },
    end() {
      return `],"row_count":${rowCount}}`;
    },
  };
}

function schemaJson(schema: Schema): string {
  const fields = schema.fields.map((f) => ({ name: f.name, data_type: arrowTypeName(f.type), nullable: f.nullable }));
  return JSON.stringify({ fields });
}
