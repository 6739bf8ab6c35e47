// `loadParquetTable`: decodes whole Parquet files into SharedArrayBuffer-backed columns (acceleration).
import type { Column, ColumnValues } from '../../arrow/column.js';
import { type NarrowArray, narrowValues } from '../../arrow/narrow-values.js';
import { encodeDictionary } from '../../arrow/text-dictionary.js';
import type { MemoryTableData, StoredDictionary } from '../../exec/memory-table.js';
import { createParquetTable } from './parquet-table.js';

/**
 * Reads every row of `paths` into memory that worker threads can share: the result can be posted to
 * any number of workers and each reads the same bytes (no copy per worker).
 */
export async function loadParquetTable(paths: readonly string[], signal?: AbortSignal): Promise<MemoryTableData> {
  const table = await createParquetTable(paths);
  const columns = table.schema.fields.map((f) => f.name);
  const chunks: { length: number; columns: Column[] }[] = [];
  const never = new AbortController().signal;
  for await (const b of table.scan({ columns, filters: [], limit: null }, signal ?? never)) {
    chunks.push({ length: b.length, columns: b.columns.map(toShared) });
  }
  const dictionaries = dictionariesOf(table.schema.fields, chunks);
  return { schema: table.schema, chunks, dictionaries, narrow: narrowCopiesOf(table.schema.fields, chunks) };
}

/** Each number column's narrow copies (`narrowValues`), in shared memory; null for a column no chunk narrows. */
function narrowCopiesOf(
  fields: MemoryTableData['schema']['fields'],
  chunks: MemoryTableData['chunks'],
): ((NarrowArray | null)[] | null)[] {
  return fields.map((_, at) => {
    const copies = chunks.map((chunk) => {
      const c = chunk.columns[at]!;
      return c.values instanceof Float64Array
        ? narrowValues(c.values, c.valid, c.length, (n) => new SharedArrayBuffer(n))
        : null;
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
): (StoredDictionary | null)[] {
  return fields.map((f, at) => {
    if (f.type.id !== 'utf8' || chunks.length === 0) return null;
    return encodeDictionary(
      chunks.map((c) => c.columns[at]!),
      undefined,
      (n) => new Uint8Array(new SharedArrayBuffer(n)),
    );
  });
}

/** A copy of `col` whose buffers live in SharedArrayBuffers. */
export function toShared(col: Column): Column {
  return {
    type: col.type,
    length: col.length,
    values: sharedValues(col.values, col.length),
    valid: col.valid ? shared(col.valid) : null,
  };
}

function sharedValues(v: ColumnValues, n: number): ColumnValues {
  if (v === null) return null;
  if (Array.isArray(v)) {
    const enc = new TextEncoder();
    const parts = v.slice(0, n).map((s) => enc.encode(s));
    const offsets = shared(new Int32Array(n + 1));
    let at = 0;
    parts.forEach((p, i) => {
      at += p.length;
      offsets[i + 1] = at;
    });
    const bytes = shared(new Uint8Array(at));
    for (let i = 0; i < n; i++) bytes.set(parts[i]!, offsets[i]!);
    return { offsets, bytes };
  }
  if ('offsets' in v) {
    const start = v.offsets[0]!;
    const end = v.offsets[n]!;
    const offsets = shared(v.offsets.subarray(0, n + 1).map((o) => o - start));
    return { offsets, bytes: shared(v.bytes.subarray(start, end)) };
  }
  return shared(v.subarray(0, n));
}

function shared<T extends Uint8Array | Int32Array | Float64Array | BigInt64Array>(a: T): T {
  const Ctor = a.constructor as { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };
  const out = new Ctor(new SharedArrayBuffer(a.length * Ctor.BYTES_PER_ELEMENT));
  (out as unknown as { set(x: T): void }).set(a);
  return out;
}
