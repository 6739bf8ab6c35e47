// `ExecPool`: helper threads that run partitions of parallel aggregates (`runFragment`), first come first served.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError, type EngineErrorKind, ExecError, InternalError, NotSupportedError } from '../../errors.js';
import type { FragmentBatch, FragmentReply, FragmentRequest, FragmentTask, HelperMessage } from './messages.js';

const WORKER_FILE = new URL('./exec-worker.js', import.meta.url);

/** A submitted partition: its result, or taken back to run on the coordinating thread if no helper started it. */
export interface FragmentHandle {
  readonly result: Promise<FragmentBatch[]>;
  /** True when the task had not started: it will never run, and `result` never settles. */
  takeBack(): boolean;
}

interface Task {
  readonly id: number;
  readonly task: FragmentTask;
  readonly resolve: (b: FragmentBatch[]) => void;
  readonly reject: (e: Error) => void;
  readonly detach: () => void;
}

interface Slot {
  worker: Worker | null;
  task: Task | null;
  /** The table versions this slot's worker holds, by name (as the worker keeps them: `exec-worker.ts`). */
  held: Map<string, string>;
}

/**
 * Helper threads start on first use and never keep the process alive. A thread that dies (out of memory) fails
 * its task and is replaced on the next one. Aborting a task's signal drops it if queued and cancels it if
 * running. Tasks queue behind each other: a coordinator takes back the ones no helper has started.
 */
export class ExecPool {
  readonly threads: number;
  readonly #slots: Slot[];
  readonly #queue: Task[] = [];
  #nextId = 0;

  constructor(threads: number) {
    this.threads = Math.max(1, threads);
    this.#slots = Array.from({ length: this.threads }, () => ({ worker: null, task: null, held: new Map() }));
  }

  submit(task: FragmentTask, signal: AbortSignal): FragmentHandle {
    let entry: Task | undefined;
    const result = new Promise<FragmentBatch[]>((resolve, reject) => {
      const id = this.#nextId++;
      const onAbort = () => this.#cancel(id);
      const detach = () => signal.removeEventListener('abort', onAbort);
      entry = { id, task, resolve, reject, detach };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // A coordinator that failed first may never read the result: its rejection is not unhandled.
    result.catch(() => {});
    const t = entry!;
    if (signal.aborted) t.reject(new CancelledError());
    else {
      this.#queue.push(t);
      this.#dispatch();
    }
    return {
      result,
      takeBack: () => {
        const i = this.#queue.indexOf(t);
        if (i < 0) return false;
        this.#queue.splice(i, 1);
        t.detach();
        return true;
      },
    };
  }

  /**
   * Each helper drops the tables whose id is not in `ids` (and the plans that read them), so the shared memory of
   * a replaced or dropped table can be freed. Ordered after the fragments already sent; a later fragment that
   * names a dropped id sends its data again.
   */
  retain(ids: ReadonlySet<string>): void {
    for (const slot of this.#slots) {
      for (const [name, id] of slot.held) if (!ids.has(id)) slot.held.delete(name);
      slot.worker?.postMessage({ retain: [...ids] } satisfies HelperMessage);
    }
  }

  /** Stops every thread; queued and running tasks reject. */
  async close(): Promise<void> {
    const closed = () => new CancelledError('parallel query threads closed');
    for (const t of this.#queue.splice(0)) t.reject(closed());
    const workers = this.#slots.map((s) => s.worker);
    for (const s of this.#slots) {
      s.task?.reject(closed());
      s.task = null;
      s.worker = null;
    }
    await Promise.all(workers.map((w) => w?.terminate()));
  }

  #cancel(id: number): void {
    const i = this.#queue.findIndex((t) => t.id === id);
    if (i >= 0) {
      this.#queue.splice(i, 1)[0]!.reject(new CancelledError());
      return;
    }
    const slot = this.#slots.find((s) => s.task?.id === id);
    slot?.worker?.postMessage({ cancel: id } satisfies HelperMessage);
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.task !== null) continue;
      const task = this.#queue.shift();
      if (task === undefined) break;
      slot.task = task;
      slot.worker ??= this.#spawn(slot);
      slot.worker.ref();
      const tables = task.task.tables.map(({ name, id, kind, data }) => {
        if (slot.held.get(name) === id) return { name, id, kind };
        slot.held.set(name, id);
        return { name, id, kind, data };
      });
      slot.worker.postMessage({ ...task.task, tables, id: task.id } satisfies FragmentRequest);
    }
  }

  #spawn(slot: Slot): Worker {
    const worker = new Worker(WORKER_FILE);
    slot.held = new Map();
    worker.unref();
    worker.on('message', (reply: FragmentReply) => {
      if (slot.worker === worker) this.#finish(slot, reply);
    });
    // 'error' (an uncaught exception in the thread) is always followed by 'exit'.
    worker.on('error', () => {});
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const id = slot.task?.id ?? -1;
      this.#finish(slot, { id, error: { kind: 'crash', message: `a query thread stopped (exit code ${code})` } });
    });
    return worker;
  }

  #finish(slot: Slot, reply: FragmentReply): void {
    const task = slot.task;
    if (task === null || task.id !== reply.id) return;
    slot.task = null;
    slot.worker?.unref();
    task.detach();
    if ('error' in reply) task.reject(errorOf(reply.error.kind, reply.error.message));
    else task.resolve([...reply.batches]);
    this.#dispatch();
  }
}

/** A helper's error as the coordinator raises it: the data's errors keep their kind, the rest are floe's fault. */
function errorOf(kind: EngineErrorKind | 'crash', message: string): Error {
  switch (kind) {
    case 'exec':
      return new ExecError(message);
    case 'cancelled':
      return new CancelledError(message);
    case 'not_supported':
      return new NotSupportedError(message);
    default:
      return new InternalError(`parallel aggregate: ${message}`);
  }
}

let shared: ExecPool | null = null;

/**
 * Helper threads for this thread's parallel aggregates: `FLOE_PARALLEL_THREADS` when set (0: none), else one when
 * the machine has two cores or more. Every query worker has its own helpers, and the server runs a worker per core:
 * one each keeps the threads at twice the workers (cores − 1 each would be cores² threads on a large machine).
 */
export function defaultParallelThreads(): number {
  const env = process.env.FLOE_PARALLEL_THREADS;
  const fallback = availableParallelism() > 1 ? 1 : 0;
  const n = env === undefined || env === '' ? fallback : Number(env);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/**
 * This thread's helpers keep only the shared tables whose ids are listed (`SharedTable.id`); the others are
 * released. A thread that serves several catalog versions calls it when one retires, with the ids still in use.
 */
export function retainSharedTables(ids: Iterable<string>): void {
  shared?.retain(new Set(ids));
}

/** This thread's pool of `threads` helpers, started on first use (a new count replaces it). */
export function sharedExecPool(threads: number): ExecPool {
  if (shared?.threads !== threads) {
    void shared?.close();
    shared = new ExecPool(threads);
  }
  return shared;
}
