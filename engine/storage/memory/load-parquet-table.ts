// `loadParquetTable`: decodes whole Parquet files into SharedArrayBuffer-backed columns (acceleration).
import type { Batch } from '../../arrow/batch.js';
import type { Column, ColumnValues } from '../../arrow/column.js';
import { type NarrowArray, narrowValues } from '../../arrow/narrow-values.js';
import { SharedSlabs } from '../../arrow/shared-slabs.js';
import { encodeDictionary } from '../../arrow/text-dictionary.js';
import { createParquetTable, type ParquetTableOptions } from '../../io/parquet/parquet-table.js';
import type { Schema } from '../../plan/types.js';
import { zoneFactsOfField } from './column-facts.js';
import type { MemoryTableData, StoredDictionary } from './memory-table.js';

/**
 * Reads every row of `paths` into memory that worker threads can share: the result can be posted to
 * any number of workers and each reads the same bytes (no copy per worker). The arrays are carved out of large
 * buffers (`SharedSlabs`), so the table costs its bytes and no more.
 */
export async function loadParquetTable(
  paths: readonly string[],
  signal?: AbortSignal,
  options: ParquetTableOptions = {},
): Promise<MemoryTableData> {
  const table = await createParquetTable(paths, options);
  const columns = table.schema.fields.map((f) => f.name);
  const never = new AbortController().signal;
  // Decoded straight into shared slabs (`ScanRequest.shared`): `toShared` then keeps the arrays as they are.
  return materializeTable(
    table.schema,
    table.scan({ columns, filters: [], limit: null, shared: true }, signal ?? never),
  );
}

/**
 * Every batch of `batches` (rows of `schema`) copied into shared memory as one `MemoryTableData`, with the same
 * dictionaries, narrow copies and zone facts an accelerated Parquet table gets: what any accelerated source (CSV,
 * JSON, a refresh's SELECT) is turned into. Arrays already in shared slabs are kept as they are.
 */
export async function materializeTable(schema: Schema, batches: AsyncIterable<Batch>): Promise<MemoryTableData> {
  const chunks: { length: number; columns: Column[] }[] = [];
  const slabs = new SharedSlabs();
  for await (const b of batches) {
    if (b.length > 0) chunks.push({ length: b.length, columns: b.columns.map((c) => toShared(c, slabs)) });
  }
  const dictionaries = dictionariesOf(schema.fields, chunks, slabs);
  const narrow = narrowCopiesOf(schema.fields, chunks, slabs);
  // Zone facts made here once instead of by every thread on its first query (at SF1, q03's first run spent ~100 ms
  // of its ~210 in them).
  const zones = schema.fields.map((_, at) => zoneFactsOfField(chunks, at));
  return { schema, chunks, dictionaries, narrow, zones };
}

/** Each number column's narrow copies (`narrowValues`), in shared memory; null for a column no chunk narrows. */
function narrowCopiesOf(
  fields: MemoryTableData['schema']['fields'],
  chunks: MemoryTableData['chunks'],
  slabs: SharedSlabs,
): ((NarrowArray | null)[] | null)[] {
  return fields.map((_, at) => {
    const copies = chunks.map((chunk) => {
      const c = chunk.columns[at]!;
      const v = c.values;
      const wide = v instanceof Float64Array || v instanceof Int32Array;
      return wide ? narrowValues(v, c.valid, c.length, (n) => slabs.bytes(n)) : null;
    });
    return copies.some((c) => c !== null) ? copies : null;
  });
}

/**
 * A dictionary for each text column with few distinct values (`encodeDictionary`), small tables' included (a
 * nation's names reach GROUP BYs through joins); codes and values in shared memory, like the columns.
 */
function dictionariesOf(
  fields: MemoryTableData['schema']['fields'],
  chunks: MemoryTableData['chunks'],
  slabs: SharedSlabs,
): (StoredDictionary | null)[] {
  return fields.map((f, at) => {
    if (f.type.id !== 'utf8' || chunks.length === 0) return null;
    return encodeDictionary(
      chunks.map((c) => c.columns[at]!),
      undefined,
      (n) => slabs.bytes(n),
    );
  });
}

/** `col` with every buffer in shared memory: arrays already there (decoded into slabs) kept, the rest copied in. */
function toShared(col: Column, slabs: SharedSlabs): Column {
  return {
    type: col.type,
    length: col.length,
    values: sharedValues(col.values, col.length, slabs),
    valid: col.valid ? slabs.copy(col.valid) : null,
  };
}

function sharedValues(v: ColumnValues, n: number, slabs: SharedSlabs): ColumnValues {
  if (v === null) return null;
  if (Array.isArray(v)) {
    const enc = new TextEncoder();
    const parts = v.slice(0, n).map((s) => enc.encode(s));
    const offsets = slabs.array(Int32Array, n + 1);
    let at = 0;
    parts.forEach((p, i) => {
      at += p.length;
      offsets[i + 1] = at;
    });
    const bytes = slabs.bytes(at);
    for (let i = 0; i < n; i++) bytes.set(parts[i]!, offsets[i]!);
    return { offsets, bytes };
  }
  if ('offsets' in v) {
    const start = v.offsets[0]!;
    const end = v.offsets[n]!;
    if (start === 0)
      return { offsets: slabs.copy(v.offsets.subarray(0, n + 1)), bytes: slabs.copy(v.bytes.subarray(0, end)) };
    const offsets = slabs.array(Int32Array, n + 1);
    for (let i = 0; i <= n; i++) offsets[i] = v.offsets[i]! - start;
    return { offsets, bytes: slabs.copy(v.bytes.subarray(start, end)) };
  }
  return slabs.copy(v.subarray(0, n));
}
