// `createQueryPool`: the main thread's half of the query workers: queue, dispatch, recovery, result streams.
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { CatalogVersions } from '../runtime/catalog-versions.js';
import { BATCH_BUDGET_MS, BatchQueue, costKey, MAX_BATCH } from './batch-queue.js';
import { CLAIM_MASK, CLAIM_SLOTS, stealTicket } from './claims.js';
import { deathError } from './death-error.js';
import { logInternalError } from './error-ref.js';
import { IdSlots } from './id-slots.js';
import {
  type BatchResult,
  CANCEL_MASK,
  CANCEL_SLOTS,
  type MainMessage,
  type QueryBatch,
  type QueryTask,
  type StreamMessage,
  type WorkerHello,
  type WorkerMessage,
} from './messages.js';
import { unpackAnswers } from './packed-answers.js';
import type { QueryPool, QueryPoolOptions, QueryRequest, QuerySink } from './query-pool-api.js';
import { startWorkers } from './start-workers.js';
import { type RunningBatch, type SupervisedQuery, Supervisor } from './supervisor.js';
import type { PoolWorkerData } from './worker.js';

export type { QueryPool, QueryPoolOptions, QueryRequest, QuerySink } from './query-pool-api.js';

/** One query's state on the main thread while its answer is outstanding. */
interface Outstanding extends SupervisedQuery {
  readonly request: QueryRequest;
  readonly sink: QuerySink;
  /** `costKey` of its SQL. */
  readonly key: string | null;
  /** The worker port its stream arrives on, once the first streamed message came. */
  port: MessagePort | null;
  cancelled: boolean;
  seq: number;
  light: boolean;
}

/**
 * Starts the workers (each: an engine per catalog version). Queries wait in a `BatchQueue` on the main
 * thread; each worker runs one Piscina task at a time, a batch of queries (one, or several that were cheap last
 * time), handed out as soon as it is free: under load, one task carries many point lookups. If a batch runs past
 * `BATCH_BUDGET_MS` while a worker is free, the queries it has not started are taken back (`stealTicket`) and
 * handed out again first. Heavy queries (cost unknown or over `LIGHT_MS` last time) never hold every worker while
 * light ones arrive: with two workers or more, one is kept for the light lane (for `LIGHT_RESERVE_MS` after the
 * last light query was seen), so a point lookup never waits behind a second-long join.
 * A small answer comes back among the task's result; a long one streams over its worker's port (one per worker,
 * made at start-up), tagged with the query's id. Cancelling drops a queued query, and stores the query's id in
 * its slot of the shared cancel flags (`CANCEL_SLOTS`), which the worker reads before it starts the query and
 * between batches, so an abandoned query stops soon. The `Supervisor` times queries out and terminates the worker
 * of one that has not stopped within the grace period; a worker that dies (terminated, out of memory) is
 * replaced by Piscina, its query answered with an error, the other queries of its batch queued again.
 */
export function createQueryPool(options: QueryPoolOptions): QueryPool {
  const threads = Math.max(1, options.workers ?? availableParallelism());
  const ownVersions = options.snapshot instanceof CatalogVersions ? null : new CatalogVersions(options.snapshot);
  const catalogChannel = (ownVersions ?? (options.snapshot as CatalogVersions)).channel;
  const cancels = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));
  const claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  const { queryCounters } = options;
  const runners = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  const workerData: PoolWorkerData = { catalogChannel, cancels, claims, runners, queryCounters };
  const piscina = startWorkers(threads, workerData, options.memoryLimitBytes);
  // Not a Map, and `running` not a Set: see `IdSlots` (a Map kept every request's state alive through scavenges).
  const outstanding = new IdSlots<Outstanding>();
  const queue = new BatchQueue<Outstanding>();
  /** Each live worker's stream port, by thread id. */
  const ports = new Map<number, MessagePort>();
  /** Batches handed to Piscina and not yet settled: at most one per worker. */
  const running: RunningBatch<Outstanding>[] = [];
  let nextTicket = 1;
  let dispatchScheduled = false;
  let stealTimer: NodeJS.Timeout | null = null;
  let whenIdle: (() => void) | null = null;
  let workerRestarts = 0;
  let lightSeenAt = Number.NEGATIVE_INFINITY;
  let started = 0;
  let allReady = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    allReady = resolve;
    piscina.once('error', reject);
  });
  // A failed start is reported through `ready`; if nobody awaits it, it must not be "unhandled".
  ready.catch(() => {});
  // Piscina emits 'error' for a worker fault outside any task; without a listener that would end the process.
  piscina.on('error', (e: unknown) => logInternalError('query worker error', e));

  const supervisor = new Supervisor<Outstanding>({
    timeoutMs: options.timeoutMs,
    timeoutText: options.timeoutText,
    killGraceMs: options.killGraceMs ?? 1500,
    claims,
    running,
    waiting: () => queue.waiting(),
    isOutstanding: (q) => outstanding.has(q.id),
    expire: (q, error) => {
      if (!outstanding.delete(q.id)) return;
      flagCancelled(q);
      q.sink.error(error);
    },
    terminate: (batch, victim) => {
      const threadId = Atomics.load(runners, victim.ticket & CLAIM_MASK);
      const worker = piscina.threads.find((w) => w.threadId === threadId);
      if (worker === undefined) return false;
      batch.killed = victim;
      void worker.terminate();
      return true;
    },
  });

  /** Drops the ports of workers Piscina has removed (it has by the time their task fails). */
  const forgetDeadPorts = () => {
    for (const [id, p] of ports) {
      if (piscina.threads.some((w) => w.threadId === id)) continue;
      p.close();
      ports.delete(id);
    }
  };
  const flagCancelled = (q: Outstanding) => {
    q.cancelled = true;
    Atomics.store(cancels, q.id & CANCEL_MASK, q.id);
    // A query waiting for credit idles on its event loop: wake it so it sees the flag.
    q.port?.postMessage({ type: 'cancel', id: q.id } satisfies MainMessage);
  };

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
  /**
   * The batch's worker died (terminated by the supervisor, out of memory, a crash): the query it was running
   * gets an error, the others still outstanding are queued again (they had not started, or finished but their
   * answers were lost with the task's result). Piscina starts a replacement worker.
   */
  const recover = (batch: RunningBatch<Outstanding>, e: unknown) => {
    workerRestarts++;
    forgetDeadPorts();
    const victim = batch.killed ?? supervisor.runningQuery(batch);
    const again: Outstanding[] = [];
    for (const q of batch.queries) {
      if (!outstanding.has(q.id)) continue;
      // A query that streamed part of its answer cannot start over, nor can one that may write: it may have
      // committed before its answer was lost, and running it again would write twice.
      if (q !== victim && q.port === null && !mayWrite(q.request.sql)) {
        q.batch = null;
        again.push(q);
        continue;
      }
      outstanding.delete(q.id);
      q.sink.error(deathError(e, q, options.memoryLimitBytes));
    }
    queue.putBack(again);
  };
  /** Takes back the queries not yet started of batches running past the budget, to the front of the queue. */
  const takeBackLate = () => {
    const now = performance.now();
    for (const batch of running) {
      const { queries } = batch;
      if (queries.length < 2 || now - batch.started < BATCH_BUDGET_MS) continue;
      // The worker starts them in order: the ones it has not claimed are a tail.
      let keep = queries.length;
      while (keep > 1 && stealTicket(claims, queries[keep - 1]!.ticket)) keep--;
      const back = queries.splice(keep);
      for (const q of back) q.batch = null;
      queue.putBack(back);
    }
  };
  const settled = (batch: RunningBatch<Outstanding>) => {
    const at = running.indexOf(batch);
    if (at >= 0) running.splice(at, 1);
  };
  const handOut = (queries: Outstanding[]) => {
    const batch: RunningBatch<Outstanding> = {
      queries,
      started: performance.now(),
      light: queries[0]!.light,
      killed: null,
    };
    running.push(batch);
    const tasks = queries.map((q): QueryTask => {
      q.ticket = nextTicket;
      q.batch = batch;
      // Tickets stay positive int32s (their negation marks a query taken back).
      nextTicket = nextTicket === 0x7fffffff ? 1 : nextTicket + 1;
      const { sql, params, format, queryId, allowWrites, catalogVersion } = q.request;
      return { sql, params, format, queryId, allowWrites, catalogVersion, id: q.id, ticket: q.ticket };
    });
    piscina.run({ tasks } satisfies QueryBatch).then(
      (result: BatchResult) => {
        settled(batch);
        finish(result);
        dispatch();
      },
      (e: unknown) => {
        settled(batch);
        recover(batch, e);
        dispatch();
      },
    );
  };
  /** Whether a free worker may take a heavy query: one stays for light queries while they keep coming. */
  const heavyMayStart = () => {
    if (threads < 2 || performance.now() - lightSeenAt > LIGHT_RESERVE_MS) return true;
    let heavy = 0;
    for (const b of running) if (!b.light) heavy++;
    return heavy < threads - 1;
  };
  const dispatch = () => {
    dispatchScheduled = false;
    // Workers that have said hello and are alive: a replacement still starting takes no task yet.
    const serving = ports.size;
    if (running.length < serving) takeBackLate();
    while (running.length < serving && queue.size > 0) {
      // Share what waits among the free workers.
      const max = Math.min(MAX_BATCH, Math.ceil(queue.size / (serving - running.length)));
      const queries = queue.take(max, !heavyMayStart());
      if (queries.length === 0) break;
      handOut(queries);
    }
    if (running.length < serving && stealTimer === null && running.some((b) => b.queries.length > 1)) {
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
    forgetDeadPorts();
    ports.set(m.threadId, port);
    if (++started === threads) allReady();
    port.on('message', (s: StreamMessage) => {
      const q = outstanding.get(s.id);
      if (q === undefined) return;
      q.port = port;
      if (isLast(s)) outstanding.delete(s.id);
      deliver(s, q.sink, () => outstanding.has(s.id) && port.postMessage({ type: 'ack', id: s.id }));
    });
    // The pool must not keep the process alive on its own.
    port.unref();
    // A replacement worker takes what waited while it started.
    if (queue.size > 0) setImmediate(dispatch);
  });
  let nextId = 1;
  return {
    ready,
    get queueLength() {
      return queue.size;
    },
    get workerRestarts() {
      return workerRestarts;
    },
    query(request, sink) {
      const id = nextId;
      // Ids stay positive int32s (they are stored in the cancel slots); reused only after 2^31 queries.
      nextId = nextId === 0x7fffffff ? 1 : nextId + 1;
      const q: Outstanding = {
        id,
        request,
        sink,
        key: costKey(request.sql),
        ticket: 0,
        port: null,
        cancelled: false,
        seq: 0,
        light: false,
        batch: null,
        deadline: supervisor.deadline(),
        stopBy: 0,
      };
      outstanding.set(id, q);
      queue.push(q);
      if (q.light) lightSeenAt = performance.now();
      // Requests that arrive in one turn of the event loop are handed out together, after it.
      if (!dispatchScheduled && running.length < ports.size) {
        dispatchScheduled = true;
        setImmediate(dispatch);
      }
      return () => {
        if (!outstanding.delete(id)) return;
        flagCancelled(q);
        supervisor.cancelled(q);
      };
    },
    async close(boundMs) {
      const idle = new Promise<void>((resolve) => {
        whenIdle = resolve;
        dispatch();
      });
      const bound = boundMs === undefined ? null : new Promise<'late'>((r) => setTimeout(r, boundMs, 'late').unref());
      const outcome = await (bound === null ? idle : Promise.race([idle, bound]));
      supervisor.stop();
      if (outcome === 'late') {
        for (const b of running) for (const q of b.queries) endUnavailable(q);
        for (const q of queue.waiting()) endUnavailable(q);
        await piscina.destroy();
      } else {
        await piscina.close();
      }
      for (const p of ports.values()) p.close();
      ownVersions?.close();
    },
  };

  function endUnavailable(q: Outstanding): void {
    if (!outstanding.delete(q.id)) return;
    q.sink.error({ kind: 'unavailable', message: 'Runtime is shutting down', retryAfterS: 1 });
  }
}

/**
 * How long after the last light query a worker stays reserved for light ones (ms). Long, because a light query
 * arriving after the reserve lapsed waits for a heavy one to end; short enough that a server that only runs heavy
 * queries gets every worker back within a minute.
 */
const LIGHT_RESERVE_MS = 60_000;

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

/**
 * Whether `sql` may change data (INSERT, CREATE TABLE AS, ...): a keyword test, erring towards yes (a SELECT of a
 * column named `insert` counts), since a wrong yes only answers an error where a re-run would have answered.
 */
export function mayWrite(sql: string): boolean {
  return /\b(insert|create|drop|update|delete|merge|replace|alter|truncate)\b/i.test(sql);
}
