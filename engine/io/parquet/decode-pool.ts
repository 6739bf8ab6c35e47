// `DecodePool`: a few worker threads that decode Parquet row groups (parquet-wasm + Arrow IPC -> floe columns).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError, ExecError } from '../../errors.js';
import type { DecodedGroup } from './decode.js';
import type { DecodeReply, DecodeRequest, EndLoad } from './decode-worker.js';

const WORKER_FILE = new URL('./decode-worker.js', import.meta.url);
/** Idle threads stop after this long: parquet-wasm's memory only grows, so an idle thread holds its peak. */
const IDLE_STOP_MS = 20_000;

interface Task {
  readonly request: Omit<DecodeRequest, 'id'>;
  readonly resolve: (g: DecodedGroup) => void;
  readonly reject: (e: Error) => void;
  /** Detaches the abort listener once the task leaves the queue. */
  readonly detach: () => void;
}

interface Slot {
  worker: Worker | null;
  task: Task | null;
}

/**
 * Decodes row groups on `threads` worker threads, first come first served. Threads start on first use and
 * keep the process alive only while they decode. A failed decode rejects with an `ExecError` naming the
 * file; a thread that dies (a wasm trap) is replaced. Threads idle for `IDLE_STOP_MS` stop (and restart on
 * the next request). Aborting a request's signal drops it if it has not
 * started; a started decode runs to its end and its result is dropped (wasm cannot be interrupted).
 */
export class DecodePool {
  readonly threads: number;
  readonly #slots: Slot[];
  readonly #queue: Task[] = [];
  #nextId = 0;
  #idleTimer: NodeJS.Timeout | null = null;
  /** Row groups handed to a thread so far (tests read it to check that scans stop asking). */
  started = 0;

  constructor(threads: number) {
    this.threads = Math.max(1, threads);
    this.#slots = Array.from({ length: this.threads }, () => ({ worker: null, task: null }));
  }

  decode(request: Omit<DecodeRequest, 'id'>, signal?: AbortSignal): Promise<DecodedGroup> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<DecodedGroup>((resolve, reject) => {
      const onAbort = () => this.#drop(task);
      const detach = () => signal?.removeEventListener('abort', onAbort);
      const task: Task = { request, resolve, reject, detach };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(task);
      this.#dispatch();
    });
  }

  /** Tells the threads that load `load` (`DecodeRequest.sharedLoad`) asks for no more row groups. */
  endLoad(load: number): void {
    for (const s of this.#slots) s.worker?.postMessage({ endLoad: load } satisfies EndLoad);
  }

  /** Stops every thread; queued and running requests reject. */
  async close(): Promise<void> {
    const closed = () => new CancelledError('Parquet decode pool closed');
    for (const t of this.#queue.splice(0)) t.reject(closed());
    for (const s of this.#slots) {
      s.task?.reject(closed());
      s.task = null;
    }
    await this.#stopThreads();
  }

  async #stopThreads(): Promise<void> {
    const workers = this.#slots.map((s) => s.worker);
    for (const s of this.#slots) s.worker = null;
    await Promise.all(workers.map((w) => w?.terminate()));
  }

  #drop(task: Task): void {
    const i = this.#queue.indexOf(task);
    if (i < 0) return;
    this.#queue.splice(i, 1);
    task.reject(new CancelledError());
  }

  #dispatch(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    for (const slot of this.#slots) {
      if (slot.task !== null) continue;
      const task = this.#queue.shift();
      if (task === undefined) break;
      task.detach();
      slot.task = task;
      slot.worker ??= this.#spawn(slot);
      slot.worker.ref();
      this.started++;
      slot.worker.postMessage({ ...task.request, id: this.#nextId++ } satisfies DecodeRequest);
    }
    if (this.#slots.every((s) => s.task === null)) {
      this.#idleTimer = setTimeout(() => void this.#stopThreads(), IDLE_STOP_MS);
      this.#idleTimer.unref();
    }
  }

  #spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    worker.on('message', (reply: DecodeReply) => {
      if (slot.worker !== worker) return;
      // The thread is ending (its wasm trapped): the slot's next row group goes to a fresh thread, not to it.
      if ('fatal' in reply && reply.fatal === true) {
        slot.worker = null;
        worker.unref();
      }
      this.#finish(slot, reply);
    });
    // 'error' (an uncaught exception in the thread) is always followed by 'exit'.
    worker.on('error', () => {});
    worker.on('exit', (code) => {
      // A thread stopped on purpose (idle, close) was already detached from its slot.
      if (slot.worker !== worker) return;
      slot.worker = null;
      this.#finish(slot, { id: -1, error: `the decode thread stopped (exit code ${code})` });
    });
    return worker;
  }

  #finish(slot: Slot, reply: DecodeReply): void {
    const task = slot.task;
    slot.task = null;
    slot.worker?.unref();
    if (task !== null) {
      const { path, rowGroup } = task.request;
      if ('error' in reply)
        task.reject(new ExecError(`cannot decode Parquet file ${path} (row group ${rowGroup}): ${reply.error}`));
      else task.resolve(reply.batches);
    }
    this.#dispatch();
  }
}

let shared: DecodePool | null = null;

/**
 * Decode threads per process (per thread that scans, strictly: module state is per thread):
 * `FLOE_DECODE_THREADS` when set, else one per core. 0 decodes on the scanning thread.
 */
export function defaultDecodeThreads(): number {
  const env = process.env.FLOE_DECODE_THREADS;
  const n = env === undefined || env === '' ? availableParallelism() : Number(env);
  return Number.isInteger(n) && n >= 0 ? n : availableParallelism();
}

/** This thread's pool, started on first use. */
export function sharedDecodePool(): DecodePool {
  shared ??= new DecodePool(defaultDecodeThreads());
  return shared;
}
