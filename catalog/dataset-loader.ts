// `DatasetLoader`: one helper thread that checks and loads Parquet datasets at start, off the main thread.
import { Worker } from 'node:worker_threads';
import type { MemoryTableData, S3StoreConfig, Schema, TextReadOptions } from '../engine/index.js';
import type { DatasetFailure } from './datasets.js';
import type { RefreshJob, RefreshOutput } from './refresh-job.js';

const WORKER_FILE = new URL('./dataset-loader-worker.js', import.meta.url);

/**
 * A request to the loader thread: `check` opens the files' footers, `load` reads them fully into memory, `refresh`
 * runs a refresh's load (`refresh-job.ts`; `files` unused).
 */
export interface LoaderRequest {
  readonly id: number;
  readonly op: 'check' | 'load' | 'refresh';
  readonly files: readonly string[];
  /** How to reach `s3://` files. */
  readonly s3?: S3StoreConfig;
  /** CSV or JSON files read so; absent for Parquet. */
  readonly text?: TextReadOptions;
  readonly job?: RefreshJob;
}

/** The loader thread's answer; `data` only for `load`, `schema` for a CSV/JSON `check`, `refreshed` for `refresh`. */
export interface LoaderReply {
  readonly id: number;
  readonly error?: string;
  /** The failed work's `DatasetFailure` when its error carried one. */
  readonly failure?: DatasetFailure;
  readonly data?: MemoryTableData;
  readonly schema?: Schema;
  readonly refreshed?: RefreshOutput;
}

/**
 * Runs the engine's Parquet readers on a helper thread so the main thread keeps answering /health while a
 * large table loads. `load` returns SharedArrayBuffer-backed data: posting it here (and on to every query
 * worker) shares the buffers instead of copying them. Requests run one at a time, in order. Call `close`
 * when done; the thread keeps the process alive only while a request is under way.
 */
export class DatasetLoader {
  readonly #worker = new Worker(WORKER_FILE);
  readonly #pending = new Map<number, { resolve: (r: LoaderReply) => void; reject: (e: Error) => void }>();
  #nextId = 0;
  #exited: Error | null = null;

  constructor() {
    this.#worker.on('message', (reply: LoaderReply) => {
      this.#pending.get(reply.id)?.resolve(reply);
      this.#pending.delete(reply.id);
    });
    this.#worker.on('error', (e) => this.#failAll(e));
    this.#worker.on('exit', (code) => {
      this.#exited = new Error(`dataset loader thread exited with code ${code}`);
      this.#failAll(this.#exited);
    });
    // After the listeners: adding a 'message' listener refs the worker again.
    this.#worker.unref();
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

  /** Runs one refresh's load (or, `checkOnly`, its refresh SQL's check). */
  async refresh(job: RefreshJob): Promise<RefreshOutput> {
    return (await this.#ask('refresh', [], { job })).refreshed as RefreshOutput;
  }

  /** Ends the thread, and with it any work under way (a cancelled refresh); what it asked for then rejects. */
  /** True once the thread has ended (closed, crashed or terminated). */
  get exited(): boolean {
    return this.#exited !== null;
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }

  #ask(
    op: LoaderRequest['op'],
    files: readonly string[],
    how: Pick<LoaderRequest, 's3' | 'text' | 'job'>,
  ): Promise<LoaderReply> {
    const id = this.#nextId++;
    return new Promise<LoaderReply>((resolve, reject) => {
      if (this.#exited !== null) return reject(this.#exited);
      this.#pending.set(id, { resolve, reject });
      // Work under way keeps the process alive (a script awaiting a load); an idle thread does not.
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ id, op, files, ...how } satisfies LoaderRequest);
    })
      .finally(() => {
        if (this.#pending.size === 0) this.#worker.unref();
      })
      .then((reply) => {
        if (reply.error !== undefined) throw Object.assign(new Error(reply.error), { failure: reply.failure });
        return reply;
      });
  }

  #failAll(e: Error): void {
    for (const { reject } of this.#pending.values()) reject(e);
    this.#pending.clear();
  }
}
