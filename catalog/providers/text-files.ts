// The `csv` and `json` table kinds: CSV or JSON files parsed on every query, with the schema inferred at start.
import { createTextTable, type Schema, type TextReadOptions } from '../../engine/index.js';
import { registerTableKind, type TableEntry } from './registry.js';

/** CSV or JSON files read on every query; the schema was inferred once, when the dataset was resolved. */
export interface TextTableEntry extends TableEntry {
  readonly kind: 'csv' | 'json';
  /** Absolute paths (or object locations), in a stable (sorted) order. */
  readonly files: readonly string[];
  readonly options: TextReadOptions;
  readonly schema: Schema;
}

const build = (entry: TextTableEntry) => createTextTable([...entry.files], entry.options, entry.schema);
registerTableKind<TextTableEntry>('csv', { build });
registerTableKind<TextTableEntry>('json', { build });
