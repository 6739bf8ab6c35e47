// `ParquetStreamWriter`: engine batches -> one Parquet file, row groups encoded as the batches arrive.
import type { Schema as ArrowSchema } from 'apache-arrow';
import {
  Compression,
  EnabledStatistics,
  type RecordBatch,
  Table,
  transformParquetStream,
  WriterPropertiesBuilder,
} from 'parquet-wasm';
import type { Batch } from '../../arrow/batch.js';
import { type ArrowColumnSpec, arrowSchemaOf, batchToArrowIPC } from '../../arrow/batch-to-arrow.js';
import { makeColumn } from '../../arrow/column.js';
import { NotSupportedError } from '../../errors.js';
import { typeName } from '../../plan/types.js';

export interface ParquetStreamOptions {
  /** Rows per row group; default 122,880 (DuckDB's). */
  readonly rowGroupRows?: number;
  readonly compression?: 'zstd' | 'snappy' | 'none';
  /** Key-value metadata of the footer (Iceberg's `iceberg.schema`). */
  readonly keyValueMetadata?: Readonly<Record<string, string>>;
}

const CODECS = { zstd: Compression.ZSTD, snappy: Compression.SNAPPY, none: Compression.UNCOMPRESSED } as const;
export const DEFAULT_ROW_GROUP_ROWS = 122_880;

/**
 * Encodes one Parquet file through parquet-wasm's `transformParquetStream`: each `write` hands a batch to the
 * encoder and resolves once the encoder asks for the next, so a full row group has been encoded (and its bytes
 * collected) by then; only the row group in progress and the encoded bytes are held, never the rows written.
 * `bytesWritten` counts the encoded bytes so far (what a caller rolls files on). `close` returns the whole file;
 * nothing is stored here. Not reusable after `close` or `abort`.
 */
export class ParquetStreamWriter {
  readonly #specs: readonly ArrowColumnSpec[];
  readonly #schema: ArrowSchema;
  readonly #options: ParquetStreamOptions;
  readonly #stream: ReadableStream<RecordBatch>;
  #input!: ReadableStreamDefaultController<RecordBatch>;
  #onPull: (() => void) | null = null;
  #drained: Promise<void> | null = null;
  #failure: unknown = null;
  readonly #chunks: Uint8Array[] = [];
  #bytes = 0;
  #rows = 0;

  constructor(columns: readonly ArrowColumnSpec[], options: ParquetStreamOptions = {}) {
    // Arrow results carry these; Parquet (and Iceberg) has no type for them.
    const bad = columns.find((c) => c.type.id === 'interval' || c.type.id === 'null');
    if (bad) throw new NotSupportedError(`cannot write ${typeName(bad.type)} columns to Parquet yet`);
    this.#specs = columns;
    this.#schema = arrowSchemaOf(columns);
    this.#options = options;
    // highWaterMark 0: `pull` runs only when the encoder waits for a batch, i.e. once it has encoded the last one.
    this.#stream = new ReadableStream<RecordBatch>(
      {
        start: (c) => {
          this.#input = c;
        },
        pull: () => {
          const resolve = this.#onPull;
          this.#onPull = null;
          resolve?.();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /**
   * Encoded bytes so far: the finished row groups, less up to ~8 KiB parquet-wasm's output keeps until it has
   * more (the row group in progress is not counted until it is flushed).
   */
  get bytesWritten(): number {
    return this.#bytes;
  }

  /** Rows handed to the writer. */
  get rows(): number {
    return this.#rows;
  }

  /** Encodes `batch` (columns in the writer's column order and types); a failure of the encoder rejects. */
  async write(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    await this.#write(batch);
  }

  async #write(batch: Batch): Promise<void> {
    this.#throwIfFailed();
    this.#rows += batch.length;
    const pulled = new Promise<void>((resolve) => {
      this.#onPull = resolve;
    });
    const ipc = batchToArrowIPC(batch, this.#schema, this.#specs);
    const table = Table.fromIPCStream(ipc);
    const batches = table.recordBatches();
    // The batches share the table's arrays; freeing the table now keeps wasm memory from waiting on finalizers.
    table.free();
    for (const rb of batches) this.#input.enqueue(rb);
    this.#start();
    await Promise.race([pulled, this.#drained]);
    this.#throwIfFailed();
  }

  /** Finishes the file (footer included) and returns its bytes. A file with no rows gets an empty row group. */
  async close(): Promise<Uint8Array> {
    if (this.#drained === null) await this.#write(this.#emptyBatch());
    this.#input.close();
    await this.#drained;
    this.#throwIfFailed();
    const out = new Uint8Array(this.#bytes);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.#chunks.length = 0;
    return out;
  }

  /** Stops encoding and drops what was encoded (nothing was stored). */
  abort(reason: unknown = new Error('write aborted')): void {
    this.#failure ??= reason;
    try {
      this.#input.error(reason);
    } catch {
      // Already closed or errored.
    }
    this.#chunks.length = 0;
  }

  /** Starts the encoder on the first batch (it reads one to learn the schema) and collects its output. */
  #start(): void {
    if (this.#drained !== null) return;
    const props = new WriterPropertiesBuilder()
      .setCompression(CODECS[this.#options.compression ?? 'zstd'])
      .setMaxRowGroupSize(this.#options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS)
      .setStatisticsEnabled(EnabledStatistics.Chunk)
      .setCreatedBy('floe')
      .setKeyValueMetadata(new Map(Object.entries(this.#options.keyValueMetadata ?? {})))
      .build();
    this.#drained = this.#drain(transformParquetStream(this.#stream, props));
    this.#drained.catch(() => {});
  }

  async #drain(output: Promise<ReadableStream<Uint8Array>>): Promise<void> {
    try {
      const reader = (await output).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        this.#chunks.push(value);
        this.#bytes += value.length;
      }
    } catch (e) {
      this.#failure ??= e;
      throw e;
    }
  }

  #throwIfFailed(): void {
    if (this.#failure !== null) throw this.#failure instanceof Error ? this.#failure : new Error(String(this.#failure));
  }

  #emptyBatch(): Batch {
    return { schema: { fields: [] }, columns: this.#specs.map((s) => makeColumn(s.type, null, null, 0)), length: 0 };
  }
}
