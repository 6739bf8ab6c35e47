// `makeRowWriter`: the reference for the JSON formats' rows: each value's text from `cellText`, as JS strings.
// The server writes the same text as bytes (server/serialize/json-bytes.ts); tests compare the two byte for byte.
import { type Batch, type Column, cellText, jsonKind, type Schema } from '../../engine/index.js';

/** Writes rows i of a batch as `{"col":value,...}`; the column layout is fixed by the schema. */
export type RowWriter = (batch: Batch) => string[];

/**
 * Values follow the column's `jsonKind`: numbers bare (exact decimal text, never rounded through a float),
 * booleans bare, everything else quoted. NULL is an explicit `null`, unlike arrow-json which drops the key.
 * Non-finite floats have no JSON spelling, so they become the strings "NaN", "Infinity" and "-Infinity".
 */
export function makeRowWriter(schema: Schema): RowWriter {
  const keys = schema.fields.map((f, i) => `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`);
  const kinds = schema.fields.map((f) => jsonKind(f.type));
  return (batch) => {
    const rows = new Array<string>(batch.length);
    const cols = batch.columns;
    for (let r = 0; r < batch.length; r++) {
      let row = cols.length === 0 ? '{' : '';
      for (let c = 0; c < cols.length; c++) {
        row += keys[c] + jsonValue(cols[c] as Column, r, kinds[c] as string);
      }
      rows[r] = `${row}}`;
    }
    return rows;
  };
}

function jsonValue(col: Column, row: number, kind: string): string {
  const text = cellText(col, row);
  if (text === null) return 'null';
  if (kind === 'string') return JSON.stringify(text);
  if (kind === 'number' && !isFiniteText(text)) return `"${text}"`;
  return text;
}

// cellText spells non-finite floats NaN / Infinity / -Infinity; any other number text starts with a digit or '-'.
function isFiniteText(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 48 && last <= 57;
}
