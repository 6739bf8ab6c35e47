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
  const ranges = new Map<string, number | null>();
  /** max − min + 1 of an integer or date column, computed once (an upper bound on its distinct values). */
  const rangeOf = (name: string): number | null => {
    if (!ranges.has(name)) ranges.set(name, valueRange(chunks, index.get(name), rowCount));
    return ranges.get(name) ?? null;
  };
  return {
    schema,
    kind: 'memory',
    statistics: () => ({ rowCount, distinctCount: (c) => rangeOf(c) }),
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

function valueRange(chunks: MemoryTableData['chunks'], at: number | undefined, rows: number): number | null {
  if (at === undefined) return null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const chunk of chunks) {
    const c = chunk.columns[at]!;
    const id = c.type.id;
    if (
      (id !== 'int32' && id !== 'int64' && id !== 'date') ||
      !(c.values instanceof Int32Array || c.values instanceof Float64Array)
    )
      return null;
    const v = c.values;
    for (let i = 0; i < chunk.length; i++) {
      if (c.valid !== null && c.valid[i] === 0) continue;
      const x = v[i] as number;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  return hi >= lo ? Math.min(rows, hi - lo + 1) : null;
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
