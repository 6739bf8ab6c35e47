// `createQueryPool`: the Piscina pool of query workers and the main thread's half of each result stream.
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CatalogSnapshot } from '../../catalog/snapshot.js';
import type { ParamValues } from '../../engine/index.js';
import { CatalogVersions } from '../runtime/catalog-versions.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { BATCH_BUDGET_MS, BatchQueue, costKey, MAX_BATCH } from './batch-queue.js';
import { CLAIM_SLOTS, stealTicket } from './claims.js';
import { logInternalError } from './error-ref.js';
import { IdSlots } from './id-slots.js';
import {
  type BatchResult,
  CANCEL_MASK,
  CANCEL_SLOTS,
  type Head,
  type MainMessage,
  type QueryBatch,
  type QueryTask,
  type StreamMessage,
  type WireError,
  type WorkerHello,
  type WorkerMessage,
} from './messages.js';
import { unpackAnswers } from './packed-answers.js';
import type { PoolWorkerData } from './worker.js';

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
  /** False for a read-only principal (default true). */
  readonly allowWrites?: boolean;
  /** The catalog version to run on (`versionedPool` stamps it); absent: the latest the worker has. */
  readonly catalogVersion?: number;
}

export interface QueryPool {
  /** Resolves once every worker has loaded its code and built its engine; rejects if a worker fails first. */
  readonly ready: Promise<void>;
  /** Queues a query; returns a function that cancels it (safe to call at any time, also after the end). */
  query(request: QueryRequest, sink: QuerySink): () => void;
  /** Waits for the queued and running queries, then stops the workers. */
  close(): Promise<void>;
  /** Queries waiting for a worker (the metrics' pool_queue_length). */
  readonly queueLength: number;
}

export interface QueryPoolOptions {
  /** The catalog, versioned (the server publishes changes through it); or a fixed snapshot the pool versions itself. */
  readonly snapshot: CatalogSnapshot | CatalogVersions;
  /** Worker threads; default `os.availableParallelism()`. */
  readonly workers?: number;
  /** The metrics' shared query counters (`createCounterBuffer`), written by the workers; none when metrics are off. */
  readonly queryCounters?: SharedArrayBuffer;
}

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;

/** Decode threads for each of `workers` query workers: the cores shared out, at least one each. */
function decodeThreadsPerWorker(workers: number): string {
  return String(Math.max(1, Math.floor(availableParallelism() / workers)));
}

/** One query's state on the main thread while its answer is outstanding. */
interface Outstanding {
  readonly id: number;
  readonly request: QueryRequest;
  readonly sink: QuerySink;
  /** `costKey` of its SQL. */
  readonly key: string | null;
  /** Its claim ticket in the batch it was last handed out in (see `CLAIM_SLOTS`). */
  ticket: number;
  /** The worker port its stream arrives on, once the first streamed message came. */
  port: MessagePort | null;
  cancelled: boolean;
}

/** A batch a worker is running: the queries not taken back, and when it was handed out. */
interface RunningBatch {
  readonly queries: Outstanding[];
  readonly started: number;
}

/**
 * Starts the workers (each: an engine per catalog version). Queries wait in a `BatchQueue` on the main
 * thread; each worker runs one Piscina task at a time, a batch of queries (one, or several that were cheap last
 * time), handed out as soon as it is free: under load, one task carries many point lookups. If a batch runs past
 * `BATCH_BUDGET_MS` while a worker is free, the queries it has not started are taken back (`stealTicket`) and
 * handed out again first. A small answer comes back among the task's result; a long one streams over its
 * worker's port (one per worker, made at start-up), tagged with the query's id. Cancelling drops a queued query,
 * and stores the query's id in its slot of the shared cancel flags (`CANCEL_SLOTS`), which the worker reads
 * before it starts the query and between batches, so an abandoned query stops soon. Never Piscina's abort
 * signal, which would kill the thread. A task that fails outside its queries (worker crash) ends each of them
 * still outstanding as an internal error.
 */
export function createQueryPool(options: QueryPoolOptions): QueryPool {
  const threads = Math.max(1, options.workers ?? availableParallelism());
  const ownVersions = options.snapshot instanceof CatalogVersions ? null : new CatalogVersions(options.snapshot);
  const catalogChannel = (ownVersions ?? (options.snapshot as CatalogVersions)).channel;
  const cancels = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));
  const claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  const { queryCounters } = options;
  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Idle workers wait for tasks with Atomics.waitAsync: a new task wakes them without an event-loop message, and
    // their loops keep running, so their ports still receive acks and cancels (Atomics.wait, 'sync', would block them).
    atomics: 'async',
    workerData: { catalogChannel, cancels, claims, queryCounters } satisfies PoolWorkerData,
    // Piscina's run/wait-time histograms are not read anywhere; recording them cost every task.
    recordTiming: false,
    // Each query worker that scans Parquet starts its own decode threads: share the cores among the workers.
    env: { ...process.env, FLOE_DECODE_THREADS: process.env.FLOE_DECODE_THREADS ?? decodeThreadsPerWorker(threads) },
  });
  // Not a Map, and `running` not a Set: see `IdSlots` (a Map kept every request's state alive through scavenges).
  const outstanding = new IdSlots<Outstanding>();
  const queue = new BatchQueue<Outstanding>();
  const ports: MessagePort[] = [];
  /** Batches handed to Piscina and not yet settled: at most one per worker. */
  const running: RunningBatch[] = [];
  let nextTicket = 1;
  let dispatchScheduled = false;
  let stealTimer: NodeJS.Timeout | null = null;
  let whenIdle: (() => void) | null = null;
  let allReady = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    allReady = resolve;
    piscina.once('error', reject);
  });
  // A failed start is reported through `ready`; if nobody awaits it, it must not be "unhandled".
  ready.catch(() => {});

  /** Delivers a batch's answers and learns the queries' costs. */
  const finish = ({ whole, rest }: BatchResult) => {
    unpackAnswers(whole, (id, ms, head, body) => {
      const q = outstanding.get(id);
      if (q === undefined) return;
      if (ms >= 0) queue.recordCost(q.key, ms);
      outstanding.delete(id);
      q.sink.whole(head, body);
    });
    for (const f of rest) {
      const q = outstanding.get(f.id);
      if (q === undefined) continue;
      if (f.ms >= 0) queue.recordCost(q.key, f.ms);
      // null: the answer streamed (or the query was cancelled); its last stream message closes it.
      if (f.message === null) continue;
      outstanding.delete(f.id);
      deliver(f.message, q.sink, () => {});
    }
  };
  const fail = (queries: readonly Outstanding[], e: unknown) => {
    const ref = logInternalError('query worker failed', e);
    for (const q of queries) {
      if (!outstanding.delete(q.id)) continue;
      q.sink.error({ kind: 'internal', message: 'Internal server error', ref });
    }
  };
  /** Takes back the queries not yet started of batches running past the budget, to the front of the queue. */
  const takeBackLate = () => {
    const now = performance.now();
    for (const batch of running) {
      const { queries } = batch;
      if (queries.length < 2 || now - batch.started < BATCH_BUDGET_MS) continue;
      // The worker starts them in order: the ones it has not claimed are a tail.
      let keep = queries.length;
      while (keep > 1 && stealTicket(claims, queries[keep - 1].ticket)) keep--;
      queue.putBack(queries.splice(keep));
    }
  };
  const settled = (batch: RunningBatch) => {
    const at = running.indexOf(batch);
    if (at >= 0) running.splice(at, 1);
  };
  const handOut = (queries: Outstanding[]) => {
    const batch: RunningBatch = { queries, started: performance.now() };
    running.push(batch);
    const tasks = queries.map((q): QueryTask => {
      q.ticket = nextTicket;
      // Tickets stay positive int32s (their negation marks a query taken back).
      nextTicket = nextTicket === 0x7fffffff ? 1 : nextTicket + 1;
      return { ...q.request, id: q.id, ticket: q.ticket };
    });
    piscina.run({ tasks } satisfies QueryBatch).then(
      (result: BatchResult) => {
        settled(batch);
        finish(result);
        dispatch();
      },
      (e: unknown) => {
        settled(batch);
        fail(batch.queries, e);
        dispatch();
      },
    );
  };
  const dispatch = () => {
    dispatchScheduled = false;
    if (running.length < threads) takeBackLate();
    while (running.length < threads && queue.size > 0) {
      // Share what waits among the free workers.
      const queries = queue.take(Math.min(MAX_BATCH, Math.ceil(queue.size / (threads - running.length))));
      if (queries.length === 0) break;
      handOut(queries);
    }
    if (running.length < threads && stealTimer === null && running.some((b) => b.queries.length > 1)) {
      // A worker is free: look again once the batches running now have used their budget.
      stealTimer = setTimeout(() => {
        stealTimer = null;
        dispatch();
      }, BATCH_BUDGET_MS);
      stealTimer.unref();
    }
    if (running.length === 0 && queue.size === 0) whenIdle?.();
  };

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
    get queueLength() {
      return queue.size;
    },
    query(request, sink) {
      const id = nextId;
      // Ids stay positive int32s (they are stored in the cancel slots); reused only after 2^31 queries.
      nextId = nextId === 0x7fffffff ? 1 : nextId + 1;
      const q: Outstanding = { id, request, sink, key: costKey(request.sql), ticket: 0, port: null, cancelled: false };
      outstanding.set(id, q);
      queue.push(q);
      // Requests that arrive in one turn of the event loop are handed out together, after it.
      if (!dispatchScheduled && running.length < threads) {
        dispatchScheduled = true;
        setImmediate(dispatch);
      }
      return () => {
        if (!outstanding.delete(id)) return;
        q.cancelled = true;
        Atomics.store(cancels, id & CANCEL_MASK, id);
        // A query waiting for credit idles on its event loop: wake it so it sees the flag.
        q.port?.postMessage({ type: 'cancel', id } satisfies MainMessage);
      };
    },
    async close() {
      await new Promise<void>((resolve) => {
        whenIdle = resolve;
        dispatch();
      });
      await piscina.close();
      for (const p of ports) p.close();
      ownVersions?.close();
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
