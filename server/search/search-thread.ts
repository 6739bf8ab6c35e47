// `SearchThread`: the main thread's handle on the search thread (`search-worker.ts`): builds and searches by message.
import { Worker } from 'node:worker_threads';
import type { SearchAnswerMessage, SearchHit } from './search-messages.js';

interface Waiting {
  resolve(value: unknown): void;
  reject(e: Error): void;
}

/**
 * One worker thread holding every dataset's index, so neither a build (seconds at TPC-H SF1) nor a search runs on
 * the HTTP thread. Started on first use; `close` terminates it (pending calls reject). The thread does not keep
 * the process alive.
 */
export class SearchThread {
  #worker: Worker | null = null;
  #closed = false;
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();

  /** `lost`: the thread ended on its own (out of memory, a crash): every index is gone and must be built again. */
  constructor(private readonly lost: () => void = () => {}) {}

  /** Indexes `body` (a JSON array of rows, moved to the thread) as `dataset`; resolves with the rows indexed. */
  build(dataset: string, body: Buffer, columns: readonly string[], rowId: readonly string[]): Promise<number> {
    // A Buffer may be a view of a larger pooled ArrayBuffer: copy unless it owns its memory whole.
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = (
      owned ? body.buffer : body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)
    ) as ArrayBuffer;
    return this.#call({ op: 'build', dataset, body: bytes, columns, rowId }, [bytes]) as Promise<number>;
  }

  /** The `limit` best hits for `text` over those of `datasets` that have an index, best first. */
  search(datasets: readonly string[], text: string, limit: number): Promise<SearchHit[]> {
    return this.#call({ op: 'search', datasets, text, limit }) as Promise<SearchHit[]>;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
    this.#failAll(new Error('the search thread is closed'));
  }

  #call(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#thread().postMessage({ ...message, id }, transfer);
    });
  }

  #thread(): Worker {
    if (this.#worker !== null) return this.#worker;
    if (this.#closed) throw new Error('the search thread is closed');
    const worker = new Worker(new URL('./search-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (m: SearchAnswerMessage) => {
      const waiting = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if (m.ok) waiting?.resolve(m.value);
      else waiting?.reject(new Error(m.message));
    });
    // A thread that dies (out of memory) loses every index: the next call starts a new one, with none.
    worker.on('error', (e) => this.#failAll(e));
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#failAll(new Error('the search thread stopped'));
      if (!this.#closed) this.lost();
    });
    this.#worker = worker;
    return worker;
  }

  #failAll(e: Error): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of waiting) w.reject(e);
  }
}
