// The plain-data messages that cross the thread boundary (types only).
import type { ParamValues } from '../../engine/index.js';
import type { ResultFormat } from '../serialize/serializer.js';

/**
 * Cancel flags shared by the main thread and every worker: a query is cancelled when slot `id & CANCEL_MASK`
 * holds its id (the main thread stores it when the client is gone). Storing the id rather than 1 means a slot
 * needs no reset between the queries that share it.
 */
export const CANCEL_SLOTS = 65_536;
export const CANCEL_MASK = CANCEL_SLOTS - 1;

/** One query for a worker. */
export interface QueryTask {
  /** Names the query in stream messages on the worker's port. */
  readonly id: number;
  /** This hand-out's claim ticket (see `CLAIM_SLOTS`): the worker runs the query only if it claims it. */
  readonly ticket: number;
  readonly sql: string;
  readonly params?: ParamValues;
  readonly format: ResultFormat;
  /** The request's id (`runtime-query-id`), named in the log line of an internal error. */
  readonly queryId?: string;
  /** False for a read-only principal: the engine refuses writes (`ExecuteOptions.allowWrites`). */
  readonly allowWrites?: boolean;
  /** The catalog version the query runs on (`CatalogVersions`); absent: the latest the worker has. */
  readonly catalogVersion?: number;
}

/** One Piscina task: queries the worker runs one after the other (see `BatchQueue`). */
export interface QueryBatch {
  readonly tasks: readonly QueryTask[];
}

/** A query the worker has finished: its answer when it did not stream (null when it streamed or was cancelled). */
export interface Finished {
  readonly id: number;
  /** What running and serializing it took (the main thread learns which queries are cheap); -1 if cancelled. */
  readonly ms: number;
  readonly message: WorkerMessage | null;
}

/**
 * A batch's task result: the queries it ran (not those the main thread took back). The answers that came back
 * whole are packed (`packAnswers`); `rest` holds the others: streamed or cancelled (message null) or failed.
 */
export interface BatchResult {
  readonly whole: PackedAnswers;
  readonly rest: readonly Finished[];
}

/**
 * Whole answers, packed: answer i is query `ids[i]`, took `ms[i]`, has head `heads[headOf[i]]` and body bytes
 * [ends[i], ends[i + 1]) of `bodies`.
 */
export interface PackedAnswers {
  readonly ids: Int32Array;
  readonly ms: Float64Array;
  readonly heads: readonly Head[];
  readonly headOf: Uint16Array;
  readonly ends: Int32Array;
  readonly bodies: ArrayBuffer;
}

/**
 * What went wrong, as a kind, never as a protocol status (each front end maps kinds to its own codes):
 * - the engine's `EngineErrorKind`s the user caused: parse, plan, exec, not_supported, cancelled;
 * - forbidden: a write by a principal that may only read;
 * - timeout: `runtime.query.timeout` passed; memory: the worker's heap limit (`runtime.query.memory_limit`);
 * - overloaded: admission queue full; rate_limited: the principal's rate limit; unavailable: not serving
 *   (loading or stopping); these three carry `retryAfterS`;
 * - internal: a bug or a worker that died; its stack is logged under `ref`.
 */
export type WireErrorKind =
  | 'parse'
  | 'plan'
  | 'exec'
  | 'not_supported'
  | 'cancelled'
  | 'forbidden'
  | 'timeout'
  | 'memory'
  | 'overloaded'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

/** An error as data; `ref` is set for internal errors, `retryAfterS` where trying later may succeed. */
export interface WireError {
  readonly kind: WireErrorKind | (string & {});
  readonly message: string;
  readonly ref?: string;
  readonly retryAfterS?: number;
}

/**
 * How one query ends or streams. A result that fits one chunk comes back whole (`whole`, packed with its
 * batch's other whole answers, or `error` before any output) in its batch's result. A longer one goes over the
 * worker's port as `head`, `chunk`*, then `end` or `error`, and its `Finished` message is null.
 */
export type WorkerMessage =
  | { readonly type: 'whole'; readonly head: Head; readonly body: ArrayBuffer }
  | { readonly type: 'head'; readonly head: Head }
  | { readonly type: 'chunk'; readonly body: ArrayBuffer }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly error: WireError };

/** A streamed message on a worker's port, tagged with its query. */
export type StreamMessage = WorkerMessage & { readonly id: number };

/** What a worker posts once at start-up (through Piscina's 'message' event): its end of the stream port. */
export interface WorkerHello {
  readonly type: 'floe-worker-port';
  readonly port: import('node:worker_threads').MessagePort;
  /** The worker's thread id: `runners` names the worker running a query by it. */
  readonly threadId: number;
}

/** A successful answer's head: neutral data, no protocol status (a failure is a `WireError` instead). */
export interface Head {
  /** The format the body is in (the front end names it: a content type for HTTP). */
  readonly format: ResultFormat;
  /** Lower-case names of the tables the query read: a results-cache entry is dropped when one is refreshed. */
  readonly tables: readonly string[];
  /** The statement only read (a query): its answer may be cached. */
  readonly cacheable: boolean;
}

/** Main -> worker on its port: `ack` returns one chunk of credit; `cancel` wakes a query waiting for credit. */
export type MainMessage = { readonly type: 'ack' | 'cancel'; readonly id: number };
