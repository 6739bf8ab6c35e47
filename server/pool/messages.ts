// The plain-data messages that cross the thread boundary for one query (types only).
import type { MessagePort } from 'node:worker_threads';
import type { ParamValues } from '../../engine/index.js';
import type { ResultFormat } from '../serialize/serializer.js';

/** One query for a worker; `port` is the worker's end of the query's MessageChannel (transferred). */
export interface QueryTask {
  readonly sql: string;
  readonly params?: ParamValues;
  readonly format: ResultFormat;
  readonly port: MessagePort;
}

/**
 * An error as data. `kind` is the engine's `EngineErrorKind` (parse, plan, exec, not_supported, cancelled,
 * internal); `ref` is set for internal errors, whose stack the worker has logged under that id.
 */
export interface WireError {
  readonly kind: string;
  readonly message: string;
  readonly ref?: string;
}

/**
 * Worker -> main, in this order: `whole` alone (the result fit in one chunk), or `head`, `chunk`*, `end`;
 * `error` may replace any of them and ends the stream.
 */
export type WorkerMessage =
  | { readonly type: 'whole'; readonly head: Head; readonly body: ArrayBuffer }
  | { readonly type: 'head'; readonly head: Head }
  | { readonly type: 'chunk'; readonly body: ArrayBuffer }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly error: WireError };

export interface Head {
  readonly status: number;
  readonly contentType: string;
}

/** Main -> worker: `ack` returns one chunk of credit; `cancel` aborts the query (client gone, shutdown). */
export type MainMessage = { readonly type: 'ack' } | { readonly type: 'cancel' };
