// Decoding with parquet-wasm: only the requested columns of the requested row groups (`ParquetFile.read`).
import { openAsBlob } from 'node:fs';
import { ParquetFile } from 'parquet-wasm';
import { DEFAULT_BATCH_ROWS } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { type DecodedIPC, decodeIPC } from '../../arrow/from-arrow.js';

/** Opens a file for reading; byte ranges are read lazily through a file-backed Blob. */
export async function openParquet(path: string): Promise<ParquetFile> {
  return ParquetFile.fromFile(await openAsBlob(path));
}

/** The file's Arrow schema as floe fields (unsupported types have `type: null`). */
export function fileSchema(file: ParquetFile): DecodedIPC['fields'] {
  return decodeIPC(file.schema().intoIPCStream()).fields;
}

/** One row group's rows as batches of columns (plain data: posted between threads). */
export type DecodedGroup = { length: number; columns: Column[] }[];

/**
 * Decodes `columns` of one row group into batches whose columns follow the order of `columns`.
 * (parquet-wasm returns them in file order.)
 */
export async function decodeRowGroup(
  file: ParquetFile,
  rowGroup: number,
  columns: readonly string[],
  limit: number | null = null,
): Promise<DecodedGroup> {
  const options = { columns: [...columns], rowGroups: [rowGroup], batchSize: DEFAULT_BATCH_ROWS };
  const table = await file.read(limit === null ? options : { ...options, limit });
  const decoded = decodeIPC(table.intoIPCStream());
  const order = columns.map((name) => decoded.fields.findIndex((f) => f.name === name));
  return decoded.batches.map((b) => ({ length: b.length, columns: order.map((i) => b.columns[i]!) as Column[] }));
}
