// `createTextTable`: a TableProvider over CSV or JSON files that parses them on every scan.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch } from '../../arrow/batch.js';
import type { ScanRequest, TableProvider } from '../../catalog.js';
import { CancelledError, ExecError, PlanError } from '../../errors.js';
import type { Field, Schema } from '../../plan/types.js';
import { makeColumnBuilder } from './column-builder.js';
import { type TextReadOptions, valueTypeLabel } from './text-options.js';
import { type TextRow, textRows } from './text-rows.js';

/** Characters of a bad value quoted in its error. */
const QUOTED_VALUE_CHARS = 60;

/**
 * `schema` is the one `inferTextSchema` gave (inferred once, where the table is declared, so every thread reads
 * the files alike). Each scan reads the files in order and yields batches of at most DEFAULT_BATCH_ROWS rows of the
 * requested columns, stopping at `limit`; filters are left to the plan's Filter. Only requested columns are parsed:
 * a value that is not of its column's type fails the scan (ExecError naming file, line and column) when that column
 * is read. Statistics are unknown (counting rows would mean reading the files).
 */
export function createTextTable(paths: readonly string[], options: TextReadOptions, schema: Schema): TableProvider {
  if (paths.length === 0) throw new PlanError(`a ${options.format.toUpperCase()} table needs at least one file`);
  return {
    schema,
    kind: options.format,
    statistics: () => ({ rowCount: null }),
    explainScan: async () => `files=${paths.length} format=${options.format}`,
    async *scan(req: ScanRequest, signal: AbortSignal) {
      const at = req.columns.map((c) => schema.fields.findIndex((f) => f.name === c));
      let left = req.limit ?? Number.POSITIVE_INFINITY;
      for (const path of paths) {
        if (left <= 0) return;
        for await (const batch of readBatches(path, options, schema, at, left, signal)) {
          left -= batch.length;
          yield batch;
        }
      }
    },
  };
}

/** `path`'s rows as batches of columns `at` of `schema`, at most `limit` rows in all. */
async function* readBatches(
  path: string,
  options: TextReadOptions,
  schema: Schema,
  at: readonly number[],
  limit: number,
  signal: AbortSignal,
): AsyncGenerator<Batch> {
  const fields = at.map((i) => schema.fields[i] as Field);
  const out: Schema = { fields };
  const capacity = Math.min(DEFAULT_BATCH_ROWS, limit);
  let builders = fields.map((f) => makeColumnBuilder(f.type, capacity));
  let rows = 0;
  let total = 0;
  for await (const row of textRows(path, options, schema)) {
    if (signal.aborted) throw new CancelledError();
    addRow(path, row, fields, at, builders);
    rows++;
    total++;
    if (rows === capacity || total === limit) {
      yield makeBatch(
        out,
        builders.map((b) => b.finish()),
        rows,
      );
      if (total === limit) return;
      builders = fields.map((f) => makeColumnBuilder(f.type, Math.min(capacity, limit - total)));
      rows = 0;
    }
  }
  if (rows > 0)
    yield makeBatch(
      out,
      builders.map((b) => b.finish()),
      rows,
    );
}

function addRow(
  path: string,
  row: TextRow,
  fields: readonly Field[],
  at: readonly number[],
  builders: readonly ReturnType<typeof makeColumnBuilder>[],
): void {
  for (let j = 0; j < at.length; j++) {
    const text = row.cell(at[j] as number);
    if (!builders[j]!.add(text)) {
      const f = fields[j] as Field;
      throw new ExecError(
        `${path} line ${row.line}, column "${f.name}": '${quoted(text ?? '')}' is not a ${valueTypeLabel(f.type)}`,
      );
    }
  }
}

function quoted(text: string): string {
  return text.length <= QUOTED_VALUE_CHARS ? text : `${text.slice(0, QUOTED_VALUE_CHARS)}…`;
}
