// `makeTableTextSerializer`: text/plain, an ASCII table with a border line between rows.
import { type Batch, type Column, cellText, type Schema } from '../../engine/index.js';
import { displayWidth } from './display-width.js';
import type { Serializer } from './serializer.js';

/**
 * Renders
 * ```
 * +----+-------+
 * | id | name  |
 * +----+-------+
 * | 1  | Alice |
 * +----+-------+
 * ```
 * with every value left-aligned, NULL as a blank cell and a border line after every row (as the contract
 * asks; Spice's `pretty_format_batches` has none between rows). Control characters inside values are shown
 * escaped (`\n`, `\t`, `\r`) so a row stays on one line. Buffers the whole result: the column widths depend
 * on every row, so nothing is written before `end`. Widths are display columns (CJK counts two; see `displayWidth`).
 */
export function makeTableTextSerializer(): Serializer {
  let header: string[] = [];
  const rows: string[][] = [];
  return {
    begin(schema: Schema) {
      header = schema.fields.map((f) => escapeControls(f.name));
      return '';
    },
    batch(batch: Batch) {
      for (let r = 0; r < batch.length; r++) rows.push(batch.columns.map((c) => cellString(c, r)));
      return '';
    },
    end() {
      return renderTable(header, rows);
    },
  };
}

/** The table text for a header and rows of cell strings; `++\n++\n` for a result without columns. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (header.length === 0) return '++\n++\n';
  const widths = header.map((h) => displayWidth(h));
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i] as number, displayWidth(row[i] as string));
  }
  const border = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const line = (cells: readonly string[]) =>
    `|${cells.map((c, i) => ` ${c}${' '.repeat((widths[i] as number) - displayWidth(c))} `).join('|')}|\n`;
  let out = border + line(header) + border;
  for (const row of rows) out += line(row) + border;
  return out;
}

function cellString(col: Column, row: number): string {
  const text = cellText(col, row);
  return text === null ? '' : escapeControls(text);
}

const HAS_CONTROL = /[\n\r\t]/;
const CONTROLS = /[\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControls(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROLS, (ch) => ESCAPES[ch] as string) : text;
}
