// `DatasetLoader`: one helper thread that checks and loads Parquet datasets at start, off the main thread.
import { Worker } from 'node:worker_threads';
import type { MemoryTableData, S3StoreConfig, Schema, TextReadOptions } from '../engine/index.js';

const WORKER_FILE = new URL('./dataset-loader-worker.js', import.meta.url);

/** A request to the loader thread: `check` opens the files' footers, `load` reads them fully into memory. */
export interface LoaderRequest {
  readonly id: number;
  readonly op: 'check' | 'load';
  readonly files: readonly string[];
  /** How to reach `s3://` files. */
  readonly s3?: S3StoreConfig;
  /** CSV or JSON files read so; absent for Parquet. */
  readonly text?: TextReadOptions;
}

/** The loader thread's answer; `data` only for `load`, `schema` for a CSV/JSON `check`. */
export interface LoaderReply {
  readonly id: number;
  readonly error?: string;
  /** Set when the store refused the credentials or could not be reached (`ObjectStoreAccessError`). */
  readonly failure?: 'auth' | 'connection';
  readonly data?: MemoryTableData;
  readonly schema?: Schema;
}

/**
 * Runs the engine's Parquet readers on a helper thread so the main thread keeps answering /health while a
 * large table loads. `load` returns SharedArrayBuffer-backed data: posting it here (and on to every query
 * worker) shares the buffers instead of copying them. Requests run one at a time, in order. Call `close`
 * when done; the thread does not keep the process alive meanwhile.
 */
export class DatasetLoader {
  readonly #worker = new Worker(WORKER_FILE);
  readonly #pending = new Map<number, { resolve: (r: LoaderReply) => void; reject: (e: Error) => void }>();
  #nextId = 0;

  constructor() {
    this.#worker.unref();
    this.#worker.on('message', (reply: LoaderReply) => {
      this.#pending.get(reply.id)?.resolve(reply);
      this.#pending.delete(reply.id);
    });
    this.#worker.on('error', (e) => this.#failAll(e));
    this.#worker.on('exit', (code) => this.#failAll(new Error(`dataset loader thread exited with code ${code}`)));
  }

  /** Opens every file's footer and checks they form one table; rejects with the reader's message. */
  async check(files: readonly string[], s3?: S3StoreConfig): Promise<void> {
    await this.#ask('check', files, { s3 });
  }

  /** Reads every file fully into shared memory. */
  async load(files: readonly string[], s3?: S3StoreConfig): Promise<MemoryTableData> {
    return (await this.#ask('load', files, { s3 })).data as MemoryTableData;
  }

  /** Infers the schema of CSV or JSON files (reading their first records). */
  async checkText(files: readonly string[], text: TextReadOptions): Promise<Schema> {
    return (await this.#ask('check', files, { text })).schema as Schema;
  }

  /** Parses every CSV or JSON file fully into shared memory. */
  async loadText(files: readonly string[], text: TextReadOptions): Promise<MemoryTableData> {
    return (await this.#ask('load', files, { text })).data as MemoryTableData;
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }

  #ask(
    op: LoaderRequest['op'],
    files: readonly string[],
    how: Pick<LoaderRequest, 's3' | 'text'>,
  ): Promise<LoaderReply> {
    const id = this.#nextId++;
    return new Promise<LoaderReply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, op, files, ...how } satisfies LoaderRequest);
    }).then((reply) => {
      if (reply.error !== undefined) throw Object.assign(new Error(reply.error), { failure: reply.failure });
      return reply;
    });
  }

  #failAll(e: Error): void {
    for (const { reject } of this.#pending.values()) reject(e);
    this.#pending.clear();
  }
}
