// Decoding with parquet-wasm: only the requested columns of the requested row groups (`ParquetFile.read`).
import { ParquetFile, wasmMemory } from 'parquet-wasm';
import { DEFAULT_BATCH_ROWS } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { type DecodedIPC, decodeIPC } from '../../arrow/from-arrow.js';
import { type ArrayAllocator, columnsFromFFI, type FFIField, ffiFields, HEAP } from '../../arrow/from-ffi.js';
import type { DataType } from '../../plan/types.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { type ByteSource, openFileSource } from './file-source.js';

/** The decimal columns each open file serves as plain INT64 (see `withPlainDecimals`), by name. */
const decimalsByFile = new WeakMap<ParquetFile, ReadonlyMap<string, DataType>>();
/** The byte source behind each open file (its `prefetch` runs before each row group's decode). */
const sourceByFile = new WeakMap<ParquetFile, ByteSource>();

/**
 * Opens a file for reading; byte ranges are read lazily (`openFileSource`, which also rewrites the footer
 * parquet-wasm sees: dictionaries asked for, INT64 decimals served as INT64 and given their type back here).
 */
export async function openParquet(path: string, s3?: S3StoreConfig): Promise<ParquetFile> {
  const source = await openFileSource(path, s3);
  // parquet-wasm reads a Blob only through `size` and `slice(start, end).arrayBuffer()`.
  const file = await ParquetFile.fromFile(source as unknown as Blob);
  sourceByFile.set(file, source);
  if (source.decimals.size > 0) decimalsByFile.set(file, source.decimals);
  return file;
}

/** The floe type of `name` in `file`: `type`, unless the column is a decimal served as INT64. */
function typeOf(file: ParquetFile, name: string, type: DataType | null): DataType | null {
  return (type?.id === 'int64' && decimalsByFile.get(file)?.get(name)) || type;
}

/** The file's Arrow schema as floe fields (unsupported types have `type: null`). */
export function fileSchema(file: ParquetFile): DecodedIPC['fields'] {
  return decodeIPC(file.schema().intoIPCStream()).fields.map((f) => ({ ...f, type: typeOf(file, f.name, f.type) }));
}

/** One row group's rows as batches of columns (plain data: posted between threads). */
export type DecodedGroup = { length: number; columns: Column[] }[];

const fieldsByFile = new WeakMap<ParquetFile, { names: string[]; fields: Map<string, FFIField | null> }>();

/** The file's columns in file order, with what the FFI reader needs of each. */
function fileFields(file: ParquetFile): { names: string[]; fields: Map<string, FFIField | null> } {
  let out = fieldsByFile.get(file);
  if (out === undefined) {
    const fields = ffiFields(file.schema().intoIPCStream());
    for (const [name, f] of fields) {
      const type = f === null ? null : typeOf(file, name, f.type);
      if (f !== null && type !== f.type) fields.set(name, { ...f, type: type as DataType });
    }
    out = { names: [...fields.keys()], fields };
    fieldsByFile.set(file, out);
  }
  return out;
}

/**
 * Decodes `columns` of one row group (from row `offset` on, at most `limit` rows) into batches whose columns follow
 * the order of `columns`.
 * (parquet-wasm returns them in file order.) Flat columns are read straight out of wasm memory through the
 * Arrow C data interface (one copy, into arrays from `alloc`); anything else, or every column when `viaIPC`, goes
 * through an Arrow IPC stream.
 */
export async function decodeRowGroup(
  file: ParquetFile,
  rowGroup: number,
  columns: readonly string[],
  limit: number | null = null,
  viaIPC = false,
  alloc: ArrayAllocator = HEAP,
  offset = 0,
): Promise<DecodedGroup> {
  const base = { columns: [...columns], rowGroups: [rowGroup], batchSize: DEFAULT_BATCH_ROWS };
  // `offset`: the group's first rows are skipped (a fetch of a few rows by number: `ParquetTable.fetchRows`).
  const options = offset === 0 ? base : { ...base, offset };
  // A remote file's chunks of this row group are fetched first, together (a no-op for local files).
  const release = (await sourceByFile.get(file)?.prefetch(rowGroup, columns)) ?? (() => {});
  let table: Awaited<ReturnType<ParquetFile['read']>>;
  try {
    table = await file.read(limit === null ? options : { ...options, limit });
  } finally {
    release();
  }
  const { names, fields } = fileFields(file);
  const inFileOrder = names.filter((n) => columns.includes(n));
  const order = columns.map((name) => inFileOrder.indexOf(name));
  const flat = inFileOrder.map((n) => fields.get(n) ?? null);
  if (!viaIPC && flat.every((f) => f !== null)) {
    const stream = table.intoFFI();
    try {
      const addrs = stream.arrayAddrs();
      // Taken after the last wasm call: growing wasm memory replaces its buffer.
      const memory = wasmMemory().buffer as ArrayBuffer;
      return Array.from(addrs, (addr) => {
        const b = columnsFromFFI(memory, addr, flat as FFIField[], alloc);
        return { length: b.length, columns: order.map((i) => b.columns[i]!) };
      });
    } finally {
      stream.free();
    }
  }
  const decoded = decodeIPC(table.intoIPCStream());
  const ipcOrder = columns.map((name) => decoded.fields.findIndex((f) => f.name === name));
  const types = ipcOrder.map((i) => typeOf(file, decoded.fields[i]!.name, decoded.fields[i]!.type));
  return decoded.batches.map((b) => ({
    length: b.length,
    columns: ipcOrder.map((i, k) => {
      const c = b.columns[i]!;
      return c.type === types[k] ? c : { ...c, type: types[k]! };
    }),
  }));
}
