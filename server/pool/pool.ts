// `createQueryPool`: the Piscina pool of query workers and the main thread's half of each result stream.
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { CatalogSnapshot } from '../../catalog/snapshot.js';
import type { ParamValues } from '../../engine/index.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { logInternalError } from './error-ref.js';
import type { Head, MainMessage, WireError, WorkerMessage } from './messages.js';

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

/**
 * Starts the workers (each builds the catalog from `snapshot` once) and streams each query's bytes back
 * over its own MessageChannel. Cancellation is a message to the worker, never Piscina's abort signal,
 * which would kill the thread. A task that fails outside the query (worker crash) ends as an internal error.
 */
export function createQueryPool(options: QueryPoolOptions): QueryPool {
  const threads = Math.max(1, options.workers ?? availableParallelism());
  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Workers idle on the event loop, not in Atomics.wait, so their ports keep receiving acks and cancels.
    atomics: 'disabled',
    workerData: { snapshot: options.snapshot },
  });
  return {
    query(request, sink) {
      const { port1, port2 } = new MessageChannel();
      let open = true;
      const finish = () => {
        open = false;
        port1.close();
      };
      const post = (m: MainMessage) => open && port1.postMessage(m);
      port1.on('message', (m: WorkerMessage) => {
        if (open) dispatch(m, sink, () => post({ type: 'ack' }), finish);
      });
      piscina.run({ ...request, port: port2 }, { transferList: [port2] }).catch((e: unknown) => {
        if (!open) return;
        const ref = logInternalError('query worker failed', e);
        finish();
        sink.error({ kind: 'internal', message: 'Internal server error', ref });
      });
      return () => {
        post({ type: 'cancel' });
        if (open) finish();
      };
    },
    close: () => piscina.close(),
  };
}

function dispatch(m: WorkerMessage, sink: QuerySink, ack: () => void, finish: () => void): void {
  if (m.type === 'head') sink.head(m.head);
  else if (m.type === 'chunk') sink.chunk(new Uint8Array(m.body), ack);
  else {
    // whole, end and error close the stream.
    finish();
    if (m.type === 'whole') sink.whole(m.head, new Uint8Array(m.body));
    else if (m.type === 'end') sink.end();
    else sink.error(m.error);
  }
}
