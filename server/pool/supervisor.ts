// `Supervisor`: the pool's watch over running queries: time-outs, and terminating a worker that will not stop.
import type { WireError } from './messages.js';

/** What the supervisor reads of a query. */
export interface SupervisedQuery {
  readonly id: number;
  /** Its claim ticket in the batch it was last handed out in (see `CLAIM_SLOTS`). */
  ticket: number;
  /** The batch it was last handed out in; null while queued. */
  batch: RunningBatch<SupervisedQuery> | null;
  /** `performance.now()` past which it has timed out (Infinity: no time-out). */
  readonly deadline: number;
  /** Once cancelled or timed out: by when its worker must have stopped it (0: not asked to stop). */
  stopBy: number;
}

/** A batch a worker is running: the queries not taken back, and when it was handed out. */
export interface RunningBatch<Q> {
  readonly queries: Q[];
  readonly started: number;
  /** Its queries were light (see `LIGHT_MS`) when handed out. */
  readonly light: boolean;
  /** The query the supervisor terminated its worker for. */
  killed: Q | null;
}

export interface SupervisorOptions<Q extends SupervisedQuery> {
  readonly timeoutMs?: number;
  readonly timeoutText?: string;
  readonly killGraceMs: number;
  /** The shared claim slots: a query has started when its slot holds its ticket. */
  readonly claims: Int32Array;
  /** The pool's running batches (read, never changed). */
  readonly running: readonly RunningBatch<Q>[];
  readonly waiting: () => Iterable<Q>;
  readonly isOutstanding: (q: Q) => boolean;
  /** Ends an outstanding query with `error` and sets its cancel flag. */
  readonly expire: (q: Q, error: WireError) => void;
  /** Terminates the worker running `batch` (its task then fails and the pool recovers); false if not found. */
  readonly terminate: (batch: RunningBatch<Q>, victim: Q) => boolean;
}

/**
 * Sweeps the running batches and the queue a few times per time-out or grace period (one timer for the pool,
 * nothing per query): a query past its deadline is answered with a 'timeout' error naming the limit and
 * cancelled through the shared flags; a cancelled or timed-out query that its worker is still running
 * `killGraceMs` later (work that never checks the cancel flag: a regex backtracking, one long kernel) has its
 * worker terminated. Queries waiting in the queue time out too.
 */
export class Supervisor<Q extends SupervisedQuery> {
  readonly #o: SupervisorOptions<Q>;
  readonly #timer: NodeJS.Timeout;
  readonly #timeoutError: WireError;

  constructor(options: SupervisorOptions<Q>) {
    this.#o = options;
    const text = options.timeoutText ?? `${options.timeoutMs}ms`;
    this.#timeoutError = { kind: 'timeout', message: `query exceeded the time-out (runtime.query.timeout=${text})` };
    const every = Math.min(options.timeoutMs ?? Number.POSITIVE_INFINITY, options.killGraceMs) / 4;
    this.#timer = setInterval(() => this.sweep(), Math.max(10, Math.min(250, every)));
    this.#timer.unref();
  }

  /** The deadline of a query arriving now. */
  deadline(): number {
    const t = this.#o.timeoutMs;
    return t === undefined ? Number.POSITIVE_INFINITY : performance.now() + t;
  }

  /** A client cancelled `q` (its flag is set): if a worker has it, that worker has `killGraceMs` to stop. */
  cancelled(q: Q): void {
    if (q.batch !== null && q.stopBy === 0) q.stopBy = performance.now() + this.#o.killGraceMs;
  }

  /** The query of `batch` its worker is running: the last one it has claimed. */
  runningQuery(batch: RunningBatch<Q>): Q | null {
    const { claims } = this.#o;
    for (let i = batch.queries.length - 1; i >= 0; i--) {
      const q = batch.queries[i]!;
      if (Atomics.load(claims, q.ticket & (claims.length - 1)) === q.ticket) return q;
    }
    return null;
  }

  sweep(): void {
    const now = performance.now();
    for (const q of this.#o.waiting()) if (now > q.deadline) this.#o.expire(q, this.#timeoutError);
    for (const batch of this.#o.running) {
      if (batch.killed !== null) continue;
      for (const q of batch.queries) {
        if (q.stopBy !== 0 || now <= q.deadline || !this.#o.isOutstanding(q)) continue;
        this.#o.expire(q, this.#timeoutError);
        q.stopBy = now + this.#o.killGraceMs;
      }
      const current = this.runningQuery(batch);
      if (current !== null && current.stopBy !== 0 && now > current.stopBy) this.#o.terminate(batch, current);
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
