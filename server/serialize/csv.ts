// `makeCsvSerializer`: text/csv, RFC 4180 fields with a quoted header row and `\n` line ends.
import { type Column, cellText, type Schema } from '../../engine/index.js';
import type { Serializer } from './serializer.js';

/**
 * Header: every column name quoted, always written (also for an empty result, unlike arrow-csv).
 * Values: quoted only when they hold `,`, `"`, CR or LF, with `"` doubled (RFC 4180). NULL is an empty field;
 * an empty string is `""` so the two stay distinguishable. Lines end in `\n` (as Spice/arrow-csv do), not
 * RFC 4180's CRLF; CSV readers accept both.
 */
export function makeCsvSerializer(): Serializer {
  return {
    begin(schema: Schema) {
      return `${schema.fields.map((f) => quote(f.name)).join(',')}\n`;
    },
    batch(batch) {
      let out = '';
      const cols = batch.columns;
      for (let r = 0; r < batch.length; r++) {
        let line = '';
        for (let c = 0; c < cols.length; c++) {
          if (c > 0) line += ',';
          line += csvField(cols[c] as Column, r);
        }
        out += `${line}\n`;
      }
      return out;
    },
    end() {
      return '';
    },
  };
}

function csvField(col: Column, row: number): string {
  const text = cellText(col, row);
  if (text === null) return '';
  if (text === '') return '""';
  return NEEDS_QUOTES.test(text) ? quote(text) : text;
}

const NEEDS_QUOTES = /[",\r\n]/;

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
