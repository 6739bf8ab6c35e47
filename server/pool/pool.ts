// `createQueryPool`: the Piscina pool of query workers and the main thread's half of each result stream.
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CatalogSnapshot } from '../../catalog/snapshot.js';
import type { ParamValues } from '../../engine/index.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { logInternalError } from './error-ref.js';
import {
  CANCEL_MASK,
  CANCEL_SLOTS,
  type Head,
  type MainMessage,
  type QueryTask,
  type StreamMessage,
  type WireError,
  type WorkerHello,
  type WorkerMessage,
} from './messages.js';

/** Receives one query's stream on the main thread. Exactly one of `whole`, `end` or `error` ends it. */
export interface QuerySink {
  whole(head: Head, body: Uint8Array): void;
  head(head: Head): void;
  /** Call `ack` once the chunk has left for the socket; the worker pauses while too many are unacked. */
  chunk(body: Uint8Array, ack: () => void): void;
  end(): void;
  error(error: WireError): void;
}

export interface QueryRequest {
  readonly sql: string;
  readonly params?: ParamValues;
  readonly format: ResultFormat;
}

export interface QueryPool {
  /** Resolves once every worker has loaded its code and built its engine; rejects if a worker fails first. */
  readonly ready: Promise<void>;
  /** Queues a query; returns a function that cancels it (safe to call at any time, also after the end). */
  query(request: QueryRequest, sink: QuerySink): () => void;
  /** Waits for running tasks, then stops the workers. */
  close(): Promise<void>;
}

export interface QueryPoolOptions {
  readonly snapshot: CatalogSnapshot;
  /** Worker threads; default `os.availableParallelism()`. */
  readonly workers?: number;
}

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;

/** Decode threads for each of `workers` query workers: the cores shared out, at least one each. */
function decodeThreadsPerWorker(workers: number): string {
  return String(Math.max(1, Math.floor(availableParallelism() / workers)));
}

/** One query's state on the main thread while its answer is outstanding. */
interface Outstanding {
  readonly sink: QuerySink;
  /** The worker port its stream arrives on, once the first streamed message came. */
  port: MessagePort | null;
}

/**
 * Starts the workers (each builds the catalog from `snapshot` once). A small answer comes back as the task's
 * result; a long one streams over its worker's port (one per worker, made at start-up), tagged with the
 * query's id. Cancelling stores the query's id in its slot of the shared cancel flags (`CANCEL_SLOTS`), which
 * the worker reads before it starts the query and between batches, so an abandoned query stops soon, and one still queued is skipped. Never
 * Piscina's abort signal, which would kill the thread. A task that fails outside the query (worker crash)
 * ends as an internal error.
 */
export function createQueryPool(options: QueryPoolOptions): QueryPool {
  const threads = Math.max(1, options.workers ?? availableParallelism());
  const cancels = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));
  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Idle workers wait for tasks with Atomics.waitAsync: a new task wakes them without an event-loop message, and
    // their loops keep running, so their ports still receive acks and cancels (Atomics.wait, 'sync', would block them).
    atomics: 'async',
    workerData: { snapshot: options.snapshot, cancels },
    // Piscina's run/wait-time histograms are not read anywhere; recording them cost every task.
    recordTiming: false,
    // Each query worker that scans Parquet starts its own decode threads: share the cores among the workers.
    env: { ...process.env, FLOE_DECODE_THREADS: process.env.FLOE_DECODE_THREADS ?? decodeThreadsPerWorker(threads) },
  });
  const outstanding = new Map<number, Outstanding>();
  const ports: MessagePort[] = [];
  let allReady = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    allReady = resolve;
    piscina.once('error', reject);
  });
  // A failed start is reported through `ready`; if nobody awaits it, it must not be "unhandled".
  ready.catch(() => {});
  piscina.on('message', (m: WorkerHello) => {
    if (m?.type !== 'floe-worker-port') return;
    const port = m.port;
    ports.push(port);
    if (ports.length === threads) allReady();
    port.on('message', (s: StreamMessage) => {
      const q = outstanding.get(s.id);
      if (q === undefined) return;
      q.port = port;
      if (isLast(s)) outstanding.delete(s.id);
      deliver(s, q.sink, () => outstanding.has(s.id) && port.postMessage({ type: 'ack', id: s.id }));
    });
    // The pool must not keep the process alive on its own.
    port.unref();
  });
  let nextId = 1;
  return {
    ready,
    query(request, sink) {
      const id = nextId;
      // Ids stay positive int32s (they are stored in the cancel slots); reused only after 2^31 queries.
      nextId = nextId === 0x7fffffff ? 1 : nextId + 1;
      const q: Outstanding = { sink, port: null };
      outstanding.set(id, q);
      const task: QueryTask = { ...request, id };
      piscina.run(task).then(
        (result: WorkerMessage | null) => {
          // null: the answer streams (or the query was cancelled); its last message closes it.
          if (result === null || !outstanding.delete(id)) return;
          deliver(result, sink, () => {});
        },
        (e: unknown) => {
          if (!outstanding.delete(id)) return;
          const ref = logInternalError('query worker failed', e);
          sink.error({ kind: 'internal', message: 'Internal server error', ref });
        },
      );
      return () => {
        if (!outstanding.delete(id)) return;
        Atomics.store(cancels, id & CANCEL_MASK, id);
        // A query waiting for credit idles on its event loop: wake it so it sees the flag.
        q.port?.postMessage({ type: 'cancel', id } satisfies MainMessage);
      };
    },
    async close() {
      await piscina.close();
      for (const p of ports) p.close();
    },
  };
}

function isLast(m: WorkerMessage): boolean {
  return m.type !== 'head' && m.type !== 'chunk';
}

function deliver(m: WorkerMessage, sink: QuerySink, ack: () => void): void {
  if (m.type === 'whole') sink.whole(m.head, new Uint8Array(m.body));
  else if (m.type === 'head') sink.head(m.head);
  else if (m.type === 'chunk') sink.chunk(new Uint8Array(m.body), ack);
  else if (m.type === 'end') sink.end();
  else sink.error(m.error);
}
