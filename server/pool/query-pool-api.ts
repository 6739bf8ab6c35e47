// The query pool's surface: what callers hand it (requests, sinks) and what it offers; `createQueryPool` builds one.
import type { CatalogSnapshot } from '../../catalog/snapshot.js';
import type { ParamValues } from '../../engine/index.js';
import type { CatalogVersions } from '../runtime/catalog-versions.js';
import type { ResultFormat } from '../serialize/serializer.js';
import type { Head, WireError } from './messages.js';

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
  /** The request's id, named in internal-error log lines. */
  readonly queryId?: string;
  /** False: writes are refused ('forbidden'); default true. */
  readonly allowWrites?: boolean;
  /** The catalog version to run on (`versionedPool` stamps it); absent: the latest the worker has. */
  readonly catalogVersion?: number;
}

export interface QueryPool {
  /** Resolves once every worker has loaded its code and built its engine; rejects if a worker fails first. */
  readonly ready: Promise<void>;
  /** Queues a query; returns a function that cancels it (safe to call at any time, also after the end). */
  query(request: QueryRequest, sink: QuerySink): () => void;
  /** Queries waiting for a worker (the metrics' pool queue length). */
  readonly queueLength: number;
  /** Workers replaced since start: terminated (a query that would not stop) or died (out of memory, a crash). */
  readonly workerRestarts: number;
  /**
   * Waits for the queued and running queries, then stops the workers; after `boundMs` (default: no bound) it
   * terminates them whatever they are doing, and the queries still outstanding get an 'unavailable' error.
   */
  close(boundMs?: number): Promise<void>;
}

export interface QueryPoolOptions {
  /** The catalog, versioned (the server publishes changes through it); or a fixed snapshot the pool versions itself. */
  readonly snapshot: CatalogSnapshot | CatalogVersions;
  /** Worker threads; default `os.availableParallelism()`. */
  readonly workers?: number;
  /** The metrics' shared query counters (`createCounterBuffer`), written by the workers; none when metrics are off. */
  readonly queryCounters?: SharedArrayBuffer;
  /** `runtime.query.timeout` (ms); default none. */
  readonly timeoutMs?: number;
  /** The time-out as the manifest wrote it, for the error text (e.g. `30s`). */
  readonly timeoutText?: string;
  /** Grace after a cancel or time-out before a worker that has not stopped is terminated (ms); default 1500. */
  readonly killGraceMs?: number;
  /** Each worker's V8 old-generation heap (bytes); default Node's. */
  readonly memoryLimitBytes?: number;
}
