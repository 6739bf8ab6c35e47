// `createQueryService`: the one entry every front end calls to run a query: limits, cache, admission, pool.

import type { ParamValues } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { ResultsCache } from '../cache/results-cache.js';
import type { Head, WireError } from '../pool/messages.js';
import type { QueryPool, QuerySink } from '../pool/pool.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { Admission } from './admission.js';
import { type CacheDirectives, type CacheStatus, lookUpCache } from './results-cache-lookup.js';
import { storingSink } from './storing-sink.js';

/** One query as a front end hands it over (after authenticating the caller). */
export interface ServiceRequest {
  readonly sql: string;
  readonly params?: ParamValues;
  readonly format: ResultFormat;
  readonly principal: Principal;
  /** Aborting it cancels the query (the function `run` returns does the same). */
  readonly signal?: AbortSignal;
  /** The request's id (HTTP: `runtime-query-id`), named in internal-error log lines. */
  readonly queryId?: string;
  readonly cache?: CacheDirectives;
}

/** How the results cache took part in an answer; absent when it did not (cache off, or a write). */
export interface CacheInfo {
  readonly status: CacheStatus;
  /** The client named the cache entry (HTTP adds `Vary: Spice-Cache-Key`). */
  readonly customKey: boolean;
}

/**
 * Receives one answer; exactly one of `whole`, `end` or `error` ends it (see `QuerySink`). `cache` comes with a
 * successful, cacheable answer while the results cache is on.
 */
export interface AnswerSink extends QuerySink {
  whole(head: Head, body: Uint8Array, cache?: CacheInfo): void;
  head(head: Head, cache?: CacheInfo): void;
}

export interface QueryService {
  /** Runs `request`, streaming its answer into `sink`; returns a function that cancels it (safe at any time). */
  run(request: ServiceRequest, sink: AnswerSink): () => void;
  /** Queries admitted to the pool and waiting for admission (for metrics). */
  readonly admitted: number;
  readonly waiting: number;
}

export interface QueryServiceOptions {
  /** The pool while serving; null while loading or stopping (then `unavailable` says why). */
  pool(): QueryPool | null;
  unavailable(): WireError;
  /** The results cache; null when `runtime.caching.sql_results.enabled` is false. */
  readonly resultsCache: ResultsCache | null;
  readonly maxConcurrent: number;
  readonly maxQueued: number;
  /**
   * The rate-limit hook: called once per query before anything else; an error refuses it (kind
   * 'rate_limited' with `retryAfterS`). Absent: no limit.
   */
  beforeQuery?(principal: Principal): WireError | null;
}

const OVERLOADED: WireError = {
  kind: 'overloaded',
  message: 'Too many queries: the query queue is full (runtime.query.max_concurrent, max_queued); try again later',
  retryAfterS: 1,
};

/**
 * In order: the rate-limit hook → the results cache (a hit is answered at once; a miss while the same key is
 * already being computed waits for that computation instead of running again) → admission (`maxConcurrent`
 * admitted, `maxQueued` waiting, else 'overloaded') → the pool, with `allowWrites` from the principal. Auth
 * happens before, in the front end, which turns the principal into `request.principal`.
 */
export function createQueryService(options: QueryServiceOptions): QueryService {
  const admission = new Admission(options.maxConcurrent, options.maxQueued);
  /** Cache keys being computed, with the requests waiting for them. */
  const computing = new Map<string, ((stored: boolean) => void)[]>();

  /** Admits the query, then runs it on the pool; `cancels` collects what cancelling must undo. */
  const runOnPool = (request: ServiceRequest, sink: QuerySink, cancels: Cancels) => {
    const withdraw = admission.enter(() => {
      const pool = options.pool();
      const leaving = new LeavingSink(sink, admission);
      if (pool === null) return leaving.error(options.unavailable());
      const query = {
        sql: request.sql,
        params: request.params,
        format: request.format,
        queryId: request.queryId,
        allowWrites: request.principal.canWrite,
      };
      cancels.add(pool.query(query, leaving));
      cancels.add(() => leaving.leave());
    });
    if (withdraw === null) sink.error(OVERLOADED);
    else cancels.add(withdraw);
  };

  /** Answers from the cache, or on the pool (see `createQueryService` on coalescing). */
  const answer = (request: ServiceRequest, sink: AnswerSink, cancels: Cancels, coalesce: boolean) => {
    if (cancels.cancelled) return;
    const cache = options.resultsCache;
    if (cache === null || request.cache?.bypass === true) return runOnPool(request, sink, cancels);
    const lookup = lookUpCache(cache, request.format, request, request.cache ?? {});
    if (lookup.kind === 'invalid') return sink.error({ kind: 'bad_request', message: lookup.message });
    const custom = request.cache?.key !== undefined && request.cache.key !== '';
    if (lookup.kind === 'hit') {
      return sink.whole({ format: request.format, tables: NO_TABLES, cacheable: true }, lookup.body, HIT[+custom]);
    }
    const info = (lookup.status === 'MISS' ? MISS : BYPASS)[+custom]!;
    // no-cache: never served from the cache, so never from another request's computation either.
    if (lookup.status === 'BYPASS') {
      return runOnPool(
        request,
        storingSink(sink, info, cache, lookup, () => {}),
        cancels,
      );
    }
    if (coalesce) {
      const waiters = computing.get(lookup.key);
      if (waiters !== undefined) return void waiters.push((stored) => answer(request, sink, cancels, stored));
    }
    const waiters: ((stored: boolean) => void)[] = [];
    computing.set(lookup.key, waiters);
    let released = false;
    const release = (stored: boolean) => {
      if (released) return;
      released = true;
      if (computing.get(lookup.key) === waiters) computing.delete(lookup.key);
      for (const w of waiters) w(stored);
    };
    cancels.add(() => release(false));
    runOnPool(request, storingSink(sink, info, cache, lookup, release), cancels);
  };

  return {
    run(request, sink) {
      const refusal = options.beforeQuery?.(request.principal) ?? null;
      if (refusal !== null) {
        sink.error(refusal);
        return () => {};
      }
      const cancels = new Cancels();
      const cancel = () => cancels.cancel();
      const { signal } = request;
      if (signal === undefined) {
        answer(request, sink, cancels, true);
        return cancel;
      }
      // The listener goes when the answer ends: a caller that runs many queries on one signal (NSQL, MCP) would
      // otherwise pile them up for the signal's lifetime.
      signal.addEventListener('abort', cancel, { once: true });
      answer(
        request,
        endingSink(sink, () => signal.removeEventListener('abort', cancel)),
        cancels,
        true,
      );
      if (signal.aborted) cancel();
      return cancel;
    },
    get admitted() {
      return admission.active;
    },
    get waiting() {
      return admission.queued;
    },
  };
}

/** `sink`, calling `ended` once before whichever of `whole`, `end` or `error` ends the answer. */
function endingSink(sink: AnswerSink, ended: () => void): AnswerSink {
  let open = true;
  const end = () => {
    if (open) ended();
    open = false;
  };
  return {
    whole(head, body, cache) {
      end();
      sink.whole(head, body, cache);
    },
    head: (head, cache) => sink.head(head, cache),
    chunk: (body, ack) => sink.chunk(body, ack),
    end() {
      end();
      sink.end();
    },
    error(error) {
      end();
      sink.error(error);
    },
  };
}

/** What cancelling one request undoes (its pool query, its admission, its coalescing); runs each once. */
class Cancels {
  #fns: (() => void)[] | null = [];
  get cancelled(): boolean {
    return this.#fns === null;
  }
  add(fn: () => void): void {
    if (this.#fns === null) fn();
    else this.#fns.push(fn);
  }
  cancel(): void {
    const fns = this.#fns;
    this.#fns = null;
    for (const fn of fns ?? []) fn();
  }
}

const NO_TABLES: readonly string[] = [];
/** The cache outcomes as constants, indexed by whether the client named the key (an answer allocates none). */
const cacheInfos = (status: CacheStatus): readonly CacheInfo[] => [
  { status, customKey: false },
  { status, customKey: true },
];
const HIT = cacheInfos('HIT');
const MISS = cacheInfos('MISS');
const BYPASS = cacheInfos('BYPASS');

/** Passes an answer on and frees its admission slot as it ends (once, also when cancelled). */
class LeavingSink implements QuerySink {
  readonly #sink: QuerySink;
  #admission: Admission | null;

  constructor(sink: QuerySink, admission: Admission) {
    this.#sink = sink;
    this.#admission = admission;
  }

  leave(): void {
    this.#admission?.leave();
    this.#admission = null;
  }

  whole(head: Head, body: Uint8Array): void {
    this.leave();
    this.#sink.whole(head, body);
  }

  head(head: Head): void {
    this.#sink.head(head);
  }

  chunk(body: Uint8Array, ack: () => void): void {
    this.#sink.chunk(body, ack);
  }

  end(): void {
    this.leave();
    this.#sink.end();
  }

  error(error: WireError): void {
    this.leave();
    this.#sink.error(error);
  }
}
