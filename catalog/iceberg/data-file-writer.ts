// `writeDataFiles`: the batches of one write -> Parquet data files under `<location>/data/`, one open file per partition.
import { randomUUID } from 'node:crypto';
import {
  type Batch,
  CancelledError,
  DEFAULT_ROW_GROUP_ROWS,
  NotSupportedError,
  objectStoreFor,
  ParquetStreamWriter,
  type S3StoreConfig,
  sliceBatch,
} from '../../engine/index.js';
import { FileMetrics } from './column-stats.js';
import { type PartitionKey, partitionerOf, type RowGroups } from './partition-rows.js';
import { floeSchema, floeType } from './schema.js';
import type { DataFile, IcebergSchema, IcebergValue, PartitionSpec } from './spec.js';

export interface DataFileWriterOptions {
  /** The table's root URI (`file:///...`, `s3://bucket/...`). */
  readonly location: string;
  readonly schema: IcebergSchema;
  /** The spec new files are written with. */
  readonly spec: PartitionSpec;
  /** Roll a file once its encoded bytes reach this (a file ends at most one row group past it). */
  readonly targetFileBytes: number;
  readonly s3?: S3StoreConfig;
  readonly rowGroupRows?: number;
  /** Files open at once (one per partition being written); past it the least recently written one is finished. */
  readonly maxOpenFiles?: number;
  /** Encoded bytes held by open files together; past it the largest is finished. */
  readonly maxBufferedBytes?: number;
}

export const DEFAULT_MAX_OPEN_FILES = 16;
export const DEFAULT_MAX_BUFFERED_BYTES = 512 * 1024 * 1024;

interface OpenFile {
  readonly path: string;
  readonly key: PartitionKey;
  readonly writer: ParquetStreamWriter;
  readonly metrics: FileMetrics;
  lastWrite: number;
}

/**
 * Writes `batches` (columns in the schema's order and types) as data files of `spec`, each stored whole when
 * finished, and returns them with their partition tuples and metrics. On an error or an abort of `signal`, every
 * file it stored is deleted before the error is rethrown.
 */
export async function writeDataFiles(
  batches: AsyncIterable<Batch>,
  options: DataFileWriterOptions,
  signal: AbortSignal,
): Promise<DataFile[]> {
  const w = new DataFileWriter(options);
  try {
    for await (const batch of batches) {
      if (signal.aborted) throw new CancelledError();
      await w.write(batch);
    }
    if (signal.aborted) throw new CancelledError();
    return await w.finish();
  } catch (e) {
    await w.discard();
    throw e;
  }
}

/** Deletes the data files `files` (best effort: a file already gone or a failing delete is skipped). */
export async function deleteDataFiles(paths: readonly string[], s3?: S3StoreConfig): Promise<void> {
  await Promise.all(
    paths.map((p) =>
      objectStoreFor(p, s3)
        .delete(p)
        .catch(() => {}),
    ),
  );
}

class DataFileWriter {
  readonly #o: DataFileWriterOptions;
  readonly #fields: { readonly id: number; readonly type: string; readonly name: string; readonly required: boolean }[];
  readonly #partitioner: (batch: Batch) => RowGroups;
  readonly #open = new Map<string, OpenFile>();
  readonly #done: DataFile[] = [];
  /** Every location stored or being stored: removed again on failure. */
  readonly #stored: string[] = [];
  #writes = 0;

  constructor(options: DataFileWriterOptions) {
    this.#o = options;
    const { unreadable } = floeSchema(options.schema);
    if (unreadable.length > 0)
      throw new NotSupportedError(`writing to Iceberg tables with ${unreadable[0]!.type} columns is not supported yet`);
    this.#fields = options.schema.fields.map((f) => ({
      id: f.id,
      type: f.type as string,
      name: f.name,
      required: f.required,
    }));
    this.#partitioner = partitionerOf(options.schema, options.spec);
  }

  async write(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    for (const group of this.#partitioner(batch)) await this.#writeRows(group.key, group.batch);
    await this.#boundMemory();
  }

  /**
   * Writes `rows` to the partition's open file up to each row-group boundary at a time, so the size is checked
   * after every row group is flushed: a file ends at most one row group past the target.
   */
  async #writeRows(key: PartitionKey, rows: Batch): Promise<void> {
    const groupRows = this.#o.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    for (let at = 0; at < rows.length; ) {
      const file = await this.#fileFor(key);
      const end = Math.min(rows.length, at + groupRows - (file.writer.rows % groupRows));
      const part = sliceBatch(rows, at, end);
      file.lastWrite = ++this.#writes;
      file.metrics.add(part.columns, part.length);
      await file.writer.write(part);
      if (file.writer.bytesWritten >= this.#o.targetFileBytes) await this.#finishFile(file);
      at = end;
    }
  }

  async finish(): Promise<DataFile[]> {
    for (const f of [...this.#open.values()]) await this.#finishFile(f);
    return this.#done;
  }

  /** Drops open files and deletes stored ones (after a failure). */
  async discard(): Promise<void> {
    for (const f of this.#open.values()) f.writer.abort();
    this.#open.clear();
    await deleteDataFiles(this.#stored, this.#o.s3);
  }

  async #fileFor(key: PartitionKey): Promise<OpenFile> {
    const open = this.#open.get(key.id);
    if (open !== undefined) return open;
    if (this.#open.size >= (this.#o.maxOpenFiles ?? DEFAULT_MAX_OPEN_FILES)) {
      const oldest = [...this.#open.values()].reduce((a, b) => (a.lastWrite <= b.lastWrite ? a : b));
      await this.#finishFile(oldest);
    }
    // A file: URI's path is percent-decoded when opened: the folder's own escapes (Java's) must survive that.
    const escaped = this.#o.location.startsWith('file:') ? key.path.replaceAll('%', '%25') : key.path;
    const folder = key.path === '' ? '' : `${escaped}/`;
    const file: OpenFile = {
      path: `${this.#o.location.replace(/\/+$/, '')}/data/${folder}${randomUUID()}.parquet`,
      key,
      writer: this.#newWriter(),
      metrics: new FileMetrics(this.#fields),
      lastWrite: 0,
    };
    this.#open.set(key.id, file);
    return file;
  }

  #newWriter(): ParquetStreamWriter {
    const columns = this.#fields.map((f) => ({
      name: f.name,
      type: floeType(f.type)!,
      nullable: !f.required,
      fieldId: f.id,
      float32: f.type === 'float',
    }));
    const keyValueMetadata = { 'iceberg.schema': JSON.stringify(this.#o.schema) };
    return new ParquetStreamWriter(columns, { keyValueMetadata, rowGroupRows: this.#o.rowGroupRows });
  }

  async #finishFile(file: OpenFile): Promise<void> {
    this.#open.delete(file.key.id);
    const bytes = await file.writer.close();
    this.#stored.push(file.path);
    await objectStoreFor(file.path, this.#o.s3).put(file.path, bytes);
    this.#done.push({
      path: file.path,
      format: 'PARQUET',
      recordCount: file.writer.rows,
      fileSizeBytes: bytes.length,
      specId: this.#o.spec['spec-id'],
      partition: file.key.values as (IcebergValue | null)[],
      ...file.metrics.result(),
    });
  }

  /** Finishes the largest open files while they hold more encoded bytes together than allowed. */
  async #boundMemory(): Promise<void> {
    const limit = this.#o.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    for (;;) {
      const open = [...this.#open.values()];
      if (open.reduce((n, f) => n + f.writer.bytesWritten, 0) <= limit || open.length === 0) return;
      await this.#finishFile(open.reduce((a, b) => (a.writer.bytesWritten >= b.writer.bytesWritten ? a : b)));
    }
  }
}
