// `ManagedDataset`: one dataset's state machine: its loads (first, retries, scheduled and on-demand refreshes), status and error.
import { resolveDataset } from '../../catalog/datasets.js';
import type { UnavailableTableEntry } from '../../catalog/providers/builtin.js';
import type { RefreshRequest, RefreshResult } from '../../catalog/refresh.js';
import type { TableEntry } from '../../catalog/snapshot.js';
import type { DatasetConfig } from '../config/acceleration-config.js';
import { type Backoff, exponentialDelay, fibonacciDelay, jittered, type Random } from './backoff.js';
import type { DatasetState, DatasetStatus } from './datasets.js';
import { type DatasetFailureInfo, describeFailure } from './describe-failure.js';
import type { LoadQueue } from './load-queue.js';

/** The longest delay one Node timer holds (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const NO_SEARCH: Readonly<Record<string, string>> = Object.freeze({
  search: 'unsupported',
  vector_search: 'unsupported',
});
const FULL_TEXT_SEARCH: Readonly<Record<string, string>> = Object.freeze({
  search: 'supported',
  vector_search: 'unsupported',
});

/** What the datasets of one runtime share. */
export interface DatasetContext {
  readonly baseDir: string;
  readonly queue: LoadQueue;
  readonly backoff: Backoff;
  readonly random: Random;
  /** An accelerated dataset's load: `loadForRefresh` (tests pass their own). */
  load(request: RefreshRequest, baseDir: string): Promise<RefreshResult>;
  log(line: string): void;
  /** Called on every status change (the `dataset_load_state` metric). */
  stateChanged(name: string, status: DatasetStatus): void;
  /** Swaps `entry` in as table `name`, returning the catalog version; null until the catalog serves. */
  publish: ((name: string, entry: TableEntry) => number) | null;
}

/** One load asked for. */
export interface LoadRequest {
  readonly mode: 'full' | 'append';
  /** This load's refresh SQL (an on-demand override), else the runtime's (PATCH) or the manifest's. */
  readonly sqlOverride?: string;
  /** Retries of this request so far (0: its first try). */
  readonly attempt: number;
}

/** Why a load's result was dropped: another load replaced it, or the runtime closed. */
export class LoadCancelledError extends Error {}

/**
 * A dataset and its loads. At most one load is running or queued per dataset: a new one cancels it (a refresh
 * asked for while one runs restarts with the new request). A load builds the new table beside the one serving
 * and swaps it in with one publication; a failure keeps what serves, records the error and schedules a retry:
 * exponential while the dataset has no data (forever: it serves nothing until then), Fibonacci per the refresh
 * retry keys once it has. After a success the next scheduled refresh is `refresh_check_interval` (± jitter) later.
 */
export class ManagedDataset {
  readonly config: DatasetConfig;
  readonly #ctx: DatasetContext;
  #status: DatasetStatus = 'Initializing';
  #failure: DatasetFailureInfo | null = null;
  /** The data serving; null while none loaded (an `unavailable` entry stands in). */
  #entry: TableEntry | null = null;
  #loadedAt: Date | null = null;
  /** The refresh SQL the data serving was loaded with: append extends only data of the same selection. */
  #loadedSql: string | null = null;
  /** `setRefreshSql`'s SQL: replaces the manifest's until restart. */
  #runtimeSql: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #current: AbortController | null = null;
  #settled = false;
  #closed = false;

  constructor(config: DatasetConfig, ctx: DatasetContext) {
    this.config = config;
    this.#ctx = ctx;
  }

  /** True once the first load attempt ended, loaded or failed. */
  get settled(): boolean {
    return this.#settled;
  }

  state(): DatasetState {
    return {
      name: this.config.name,
      from: this.config.from,
      accelerated: this.config.accelerated,
      status: this.#status,
      error: this.#failure?.error ?? null,
      errorMessage: this.#failure?.message ?? null,
      // Full-text search when a column asks for it (server/search/); vector search is not supported.
      properties: this.config.search === undefined ? NO_SEARCH : FULL_TEXT_SEARCH,
    };
  }

  /** The table serving now: the loaded data, or an entry whose queries fail with the load's error. */
  get published(): TableEntry {
    if (this.#entry !== null) return this.#entry;
    const message = this.#failure?.message ?? `Dataset ${this.config.name} is still loading`;
    return { name: this.config.name, kind: 'unavailable', message } satisfies UnavailableTableEntry;
  }

  /** `setRefreshSql`: the refresh SQL of every later load (unless one overrides it), until restart. */
  setRuntimeSql(sql: string): void {
    this.#runtimeSql = sql;
  }

  /**
   * The first load, before the catalog serves; resolves whatever its outcome (`serve` schedules what follows).
   * `resolved`: the entry a batch resolution already made for it (files mode), taken as its first load.
   */
  async first(resolved?: TableEntry): Promise<void> {
    if (resolved !== undefined) this.#succeed(resolved, null);
    else await this.#load({ mode: 'full', attempt: 0 }).catch(() => {});
    this.#settled = true;
  }

  /** Once the catalog serves (`ctx.publish` set): the retry of a failed first load, or the first scheduled refresh. */
  serve(): void {
    if (this.#entry !== null) {
      this.#scheduleRefresh();
      return;
    }
    const next = this.#scheduleRetry({ mode: 'full', attempt: 0 });
    this.#ctx.log(`floe: dataset ${this.config.name}: retrying in ${seconds(next)}`);
  }

  /**
   * Cancels the pending or running load and starts `request` after `delayMs`. Resolves with the catalog version
   * it published; rejects with the load's error, or `LoadCancelledError` when another load replaced it.
   */
  trigger(request: LoadRequest, delayMs = 0): Promise<number> {
    this.#clearTimer();
    this.#current?.abort(new LoadCancelledError(`the load of ${this.config.name} was replaced by a newer one`));
    if (delayMs <= 0) return this.#load(request);
    return new Promise((resolve, reject) => {
      this.#setTimer(delayMs, () => this.#load(request).then(resolve, reject));
    });
  }

  /** Stops the timers and cancels the running load (its result is dropped); the status becomes `ShuttingDown`. */
  close(): void {
    this.#closed = true;
    this.#clearTimer();
    this.#current?.abort(new LoadCancelledError('the runtime is shutting down'));
    this.#setStatus('ShuttingDown');
  }

  async #load(request: LoadRequest): Promise<number> {
    if (this.#closed) throw new LoadCancelledError('the runtime is shutting down');
    // One load per dataset: whatever still runs is superseded (its result would be older than this one's).
    this.#current?.abort(new LoadCancelledError(`the load of ${this.config.name} was replaced by a newer one`));
    const controller = new AbortController();
    this.#current = controller;
    const sql = request.sqlOverride ?? this.#runtimeSql ?? this.config.refresh?.sql ?? null;
    // Append extends the data serving only if it was selected by the same SQL; otherwise the whole table is read again.
    const append = request.mode === 'append' && this.#entry !== null && sql === this.#loadedSql;
    try {
      const entry = await this.#ctx.queue.run(async () => {
        controller.signal.throwIfAborted();
        if (this.#entry !== null) this.#setStatus('Refreshing');
        return this.#read(append ? 'append' : 'full', sql, controller.signal);
      });
      // Replaced or closed while it loaded: a newer load (or none) decides what serves.
      controller.signal.throwIfAborted();
      return this.#succeed(entry, sql);
    } catch (e) {
      if (!controller.signal.aborted) this.#fail(e, request);
      throw e;
    } finally {
      if (this.#current === controller) this.#current = null;
    }
  }

  async #read(mode: 'full' | 'append', sql: string | null, signal: AbortSignal): Promise<TableEntry> {
    if (!this.config.accelerated) return resolveDataset(this.config, this.#ctx.baseDir);
    const { entry } = await this.#ctx.load(
      {
        spec: this.config,
        mode,
        refreshSql: sql ?? undefined,
        timeColumn: this.config.timeColumn,
        previous: this.#entry ?? undefined,
        signal,
      },
      this.#ctx.baseDir,
    );
    return entry;
  }

  #succeed(entry: TableEntry, sql: string | null): number {
    const first = this.#entry === null;
    // An append that found nothing new answers the entry serving: nothing to publish, no cached result to drop.
    const unchanged = entry === this.#entry;
    this.#entry = entry;
    this.#loadedAt = new Date();
    this.#loadedSql = sql;
    const recovered = this.#failure !== null;
    this.#failure = null;
    const version = unchanged ? 0 : (this.#ctx.publish?.(this.config.name, entry) ?? 0);
    this.#setStatus('Ready');
    if (first || recovered) this.#ctx.log(`floe: dataset ${this.config.name}: ${first ? 'loaded' : 'recovered'}`);
    if (this.#ctx.publish !== null) this.#scheduleRefresh();
    return version;
  }

  #fail(e: unknown, request: LoadRequest): void {
    const before = this.published;
    this.#failure = describeFailure(this.config.name, this.config.from, e, this.#loadedAt ?? undefined);
    const after = this.published;
    // No data yet: the stand-in entry carries the message its queries raise; keep it current.
    if (
      this.#entry === null &&
      (before as UnavailableTableEntry).message !== (after as UnavailableTableEntry).message
    ) {
      this.#ctx.publish?.(this.config.name, after);
    }
    this.#setStatus('Error');
    const next = this.#ctx.publish === null ? null : this.#scheduleRetry(request);
    const retry = next === null ? '' : `; retrying in ${seconds(next)}`;
    this.#ctx.log(`floe: dataset ${this.config.name}: ${this.#failure.message}${retry}`);
  }

  /** Schedules the retry of `request` (returns its delay), or the next scheduled refresh when retries are over. */
  #scheduleRetry(request: LoadRequest): number | null {
    const attempt = request.attempt + 1;
    const { backoff, random } = this.#ctx;
    if (this.#entry === null)
      return this.#schedule(exponentialDelay(attempt, backoff, random), { ...request, attempt });
    const refresh = this.config.refresh;
    if (refresh?.retryEnabled && (refresh.retryMaxAttempts === null || attempt <= refresh.retryMaxAttempts)) {
      return this.#schedule(fibonacciDelay(attempt, backoff, random), { ...request, attempt });
    }
    this.#scheduleRefresh();
    return null;
  }

  #scheduleRefresh(): void {
    const refresh = this.config.refresh;
    if (refresh === undefined || refresh.checkIntervalMs === null) return;
    const delay = jittered(refresh.checkIntervalMs, refresh.jitterMaxMs, this.#ctx.random);
    this.#schedule(delay, { mode: refresh.mode, attempt: 0 });
  }

  #schedule(delayMs: number, request: LoadRequest): number | null {
    this.#clearTimer();
    if (this.#closed) return null;
    this.#setTimer(delayMs, () => void this.#load(request).catch(() => {}));
    return delayMs;
  }

  /**
   * Runs `fn` after `delayMs`, however long: Node fires a timer set beyond 2^31 - 1 ms (24.8 days) at once, so a
   * longer delay (`refresh_check_interval: 1000000h`, a huge jitter) waits in steps. The timer never keeps the
   * process alive.
   */
  #setTimer(delayMs: number, fn: () => void): void {
    const step = Math.min(delayMs, MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      if (delayMs > step) return this.#setTimer(delayMs - step, fn);
      this.#timer = null;
      fn();
    }, step).unref();
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #setStatus(status: DatasetStatus): void {
    if (this.#closed && status !== 'ShuttingDown') return;
    if (this.#status === status) return;
    this.#status = status;
    this.#ctx.stateChanged(this.config.name, status);
  }
}

function seconds(ms: number | null): string {
  return `${((ms ?? 0) / 1000).toFixed(1)} s`;
}
