// `loadTextTable`: parses whole CSV or JSON files into SharedArrayBuffer-backed columns (acceleration).
import { inferTextSchema } from '../../io/text/infer-text-schema.js';
import type { TextReadOptions } from '../../io/text/text-options.js';
import { createTextTable } from '../../io/text/text-table.js';
import type { Schema } from '../../plan/types.js';
import { materializeTable } from './load-parquet-table.js';
import type { MemoryTableData } from './memory-table.js';

/**
 * Every row of `paths` in memory that worker threads share (`materializeTable`), with `schema`, or the schema
 * `inferTextSchema` gives when none is passed. A bad value anywhere fails the load (ExecError naming file, line
 * and column): every column is read.
 */
export async function loadTextTable(
  paths: readonly string[],
  options: TextReadOptions,
  schema?: Schema,
  signal?: AbortSignal,
): Promise<MemoryTableData> {
  const s = schema ?? (await inferTextSchema(paths, options));
  const table = createTextTable(paths, options, s);
  const columns = s.fields.map((f) => f.name);
  return materializeTable(s, table.scan({ columns, filters: [], limit: null }, signal ?? new AbortController().signal));
}
