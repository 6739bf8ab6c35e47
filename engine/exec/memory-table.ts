// `createMemoryTable`: a TableProvider over columns held in memory (SharedArrayBuffer-backed when loaded).
import type { Batch } from '../arrow/batch.js';
import type { Column } from '../arrow/column.js';
import type { TableProvider } from '../catalog.js';
import { CancelledError } from '../errors.js';
import type { Schema } from '../plan/types.js';

/** Structured-cloneable table data: typed arrays over SharedArrayBuffers cross threads without copying. */
export interface MemoryTableData {
  readonly schema: Schema;
  readonly chunks: readonly { readonly length: number; readonly columns: readonly Column[] }[];
}

export function createMemoryTable(data: MemoryTableData): TableProvider {
  const { schema, chunks } = data;
  const rowCount = chunks.reduce((n, c) => n + c.length, 0);
  const index = new Map(schema.fields.map((f, i) => [f.name, i]));
  return {
    schema,
    kind: 'memory',
    statistics: () => ({ rowCount }),
    explainScan: async () => `chunks=${chunks.length} rows=${rowCount}`,
    async *scan(req, signal) {
      const cols = req.columns.map((c) => index.get(c)!);
      const out: Schema = { fields: cols.map((i) => schema.fields[i]!) };
      let left = req.limit ?? Number.POSITIVE_INFINITY;
      for (const chunk of chunks) {
        if (left <= 0) return;
        if (signal.aborted) throw new CancelledError();
        const batch: Batch = {
          schema: out,
          columns: cols.map((i) => perQuery(chunk.columns[i]!)),
          length: chunk.length,
        };
        left -= chunk.length;
        yield batch;
      }
    },
  };
}

/**
 * Decoded strings are memoized per UTF-8 buffer object; a fresh wrapper per scan keeps that memo
 * per query, so a worker does not hold a private decoded copy of a shared table's text forever.
 */
function perQuery(col: Column): Column {
  const v = col.values;
  if (v === null || Array.isArray(v) || !('offsets' in v)) return col;
  return { ...col, values: { offsets: v.offsets, bytes: v.bytes } };
}
