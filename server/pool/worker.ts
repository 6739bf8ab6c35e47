// The pool's worker entry: runs each task's batch of queries on its catalog version's engine and streams their bytes.
import { MessageChannel, parentPort, threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { workerCatalogWrites } from '../../catalog/iceberg/worker-writes.js';
import { connectWrites } from '../../catalog/iceberg/write-channel.js';
import { writesChannelName } from '../../catalog/iceberg/write-protocol.js';
import { type CatalogLease, VersionedCatalog } from '../../catalog/versioned-catalog.js';
import { createEngine } from '../../engine/index.js';
import { openQueryCounters } from '../metrics/worker-counters.js';
import { createSerializer } from '../serialize/serializer.js';
import { ChunkSender } from './chunk-sender.js';
import { CLAIM_MASK, claimTicket } from './claims.js';
import { FlagSignal } from './flag-signal.js';
import {
  type BatchResult,
  CANCEL_MASK,
  type Finished,
  type MainMessage,
  type QueryBatch,
  type QueryTask,
  type WorkerHello,
  type WorkerMessage,
} from './messages.js';
import { packAnswers } from './packed-answers.js';
import { toWireError } from './wire-error.js';

/** What `createQueryPool` hands every worker (structured-cloned; SharedArrayBuffers stay shared). */
export interface PoolWorkerData {
  /** The BroadcastChannel that publishes catalog versions (`CatalogVersions.channel`). */
  readonly catalogChannel: string;
  /** The shared cancel flags (see `CANCEL_SLOTS`). */
  readonly cancels: Int32Array;
  /** The shared claim slots (see `CLAIM_SLOTS`). */
  readonly claims: Int32Array;
  /** The metrics' query counters (see `openQueryCounters`); undefined when metrics are off. */
  readonly queryCounters?: SharedArrayBuffer;
  /** Beside `claims`: the thread id of the worker that claimed each ticket (the pool terminates it if stuck). */
  readonly runners: Int32Array;
}

const { catalogChannel, cancels, claims, runners, queryCounters } = workerData as PoolWorkerData;
const counters = openQueryCounters(queryCounters);
const isCancelled = (id: number) => Atomics.load(cancels, id & CANCEL_MASK) === id;

// One engine per catalog version, kept while a query on it runs (see `VersionedCatalog`).
// DDL and Iceberg commits go to the main thread's catalogs over the server's writes channel.
connectWrites(writesChannelName(catalogChannel));
const writes = workerCatalogWrites();
const catalogs = new VersionedCatalog(catalogChannel, (catalog) => createEngine({ catalog: { ...catalog, writes } }));

/** What a read-only principal's write gets (Spice's words for a read-only API key). */
const FORBIDDEN_WRITE = { kind: 'forbidden', message: 'API key does not allow write access' } as const;

/** The query running (a worker runs one task at a time, its queries in turn): where acks and cancels go. */
let running: { readonly id: number; sender: ChunkSender | null; readonly signal: FlagSignal } | null = null;

// One port per worker for every streamed result, made once (a MessageChannel per query costs ~0.1 ms).
const { port1: port, port2 } = new MessageChannel();
port.on('message', (m: MainMessage) => {
  // A message for a query that has ended is dropped.
  const query = running?.id === m.id ? running : null;
  if (m.type === 'ack') query?.sender?.ack();
  else query?.signal.abort();
});
// Piscina relays messages that are not its own as the pool's 'message' event. Sent once the engine is built (or
// failed: each query then reports why), so the pool is ready only when its first queries need not wait.
catalogs.ready.finally(() => {
  parentPort?.postMessage({ type: 'floe-worker-port', port: port2, threadId } satisfies WorkerHello, [port2]);
});
// Piscina marks a worker ready (and hands it tasks) once this module has loaded: a replacement worker (its
// predecessor was terminated or ran out of memory) must not take queries before its engine is built.
await catalogs.ready.catch(() => {});

/**
 * Runs a batch's queries in order (the Piscina task) and returns their answers together, packed, the bodies'
 * buffer moved rather than copied. It skips a query the main thread has taken back (`stealTicket`: a query that
 * turned out slow held the batch past `BATCH_BUDGET_MS` while another worker was free).
 */
export default async function runBatch(batch: QueryBatch): Promise<BatchResult> {
  const finished: Finished[] = [];
  for (const task of batch.tasks) {
    if (!claimTicket(claims, task.ticket)) continue;
    Atomics.store(runners, task.ticket & CLAIM_MASK, threadId);
    const begin = performance.now();
    const message = await runQuery(task);
    finished.push({ id: task.id, ms: isCancelled(task.id) ? -1 : performance.now() - begin, message });
  }
  return moved(finished);
}

/**
 * Runs `task.sql` and serializes the result. Returns the whole answer (or its error) when it fits one chunk;
 * otherwise streams it on the worker's port and returns null (see `WorkerMessage`).
 * Errors travel as messages, never as rejections, so Piscina never sees a failed task. A query whose cancel
 * flag is set stops between batches and sends nothing more; one cancelled while queued never starts.
 */
async function runQuery(task: QueryTask): Promise<WorkerMessage | null> {
  if (isCancelled(task.id)) return null;
  const flag = new FlagSignal(() => isCancelled(task.id));
  const signal = flag.asAbortSignal;
  const query: NonNullable<typeof running> = { id: task.id, sender: null, signal: flag };
  running = query;
  const began = counters.start();
  let rows = 0;
  let failure: string | null = null;
  let lease: CatalogLease | null = null;
  try {
    lease = await catalogs.acquire(task.catalogVersion);
    const { engine } = lease;
    const result = await engine.execute(task.sql, { params: task.params, signal, allowWrites: task.allowWrites });
    const { tables, readOnly } = result;
    // Nothing has run yet (batches are pulled lazily): a write is refused before it starts.
    if (!readOnly && task.allowWrites === false) return { type: 'error', error: FORBIDDEN_WRITE };
    const head = { format: task.format, tables, cacheable: readOnly };
    const sender = new ChunkSender(port, task.id, head, signal);
    query.sender = sender;
    const serializer = createSerializer(task.format);
    await sender.write(serializer.begin(result.schema));
    for await (const batch of result.batches) {
      if (signal.aborted) return null;
      rows += batch.length;
      await sender.write(serializer.batch(batch));
    }
    if (signal.aborted) return null;
    await sender.write(serializer.end());
    return sender.end();
  } catch (e) {
    if (signal.aborted) return null;
    const error = { type: 'error', error: toWireError(e, task.queryId) } as const;
    failure = error.error.kind;
    if (query.sender?.streaming !== true) return error;
    query.sender.fail(error.error);
    return null;
  } finally {
    running = null;
    counters.end(began, rows, signal.aborted ? 'cancelled' : failure);
    lease?.release();
  }
}

/** The batch's result (`packAnswers`) as a Piscina result whose buffer of bodies is transferred, not copied. */
function moved(finished: Finished[]): BatchResult {
  const value = packAnswers(finished);
  return move({ [transferableSymbol]: [value.whole.bodies], [valueSymbol]: value } as never) as unknown as BatchResult;
}
