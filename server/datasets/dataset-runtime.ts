// `DatasetRuntime`: the running datasets (`Datasets`): first loads, retries, scheduled and on-demand refreshes, runtime refresh SQL.
import { DatasetError, resolveDatasets } from '../../catalog/datasets.js';
import { checkRefreshSql, closeIdleLoader, loadForRefresh } from '../../catalog/refresh.js';
import type { CatalogSnapshot, TableEntry } from '../../catalog/snapshot.js';
import type { DatasetConfig } from '../config/acceleration-config.js';
import { type Backoff, DEFAULT_BACKOFF, type Random } from './backoff.js';
import {
  DatasetNotFoundError,
  DatasetRequestError,
  type DatasetState,
  type DatasetStatus,
  type Datasets,
  NotAcceleratedError,
  type RefreshOverrides,
} from './datasets.js';
import { LoadQueue } from './load-queue.js';
import { type DatasetContext, ManagedDataset } from './managed-dataset.js';

export interface DatasetRuntimeOptions {
  /** Folder relative `file:` paths resolve against. */
  readonly baseDir: string;
  /** Retry delays; default `DEFAULT_BACKOFF` (about 1 s, doubling, at most a minute). */
  readonly backoff?: Backoff;
  /** Jitter source; default Math.random. */
  readonly random?: Random;
  /** An accelerated dataset's load and the refresh SQL check; default `loadForRefresh`, `checkRefreshSql`. */
  readonly load?: typeof loadForRefresh;
  readonly checkSql?: typeof checkRefreshSql;
  readonly log?: (line: string) => void;
  /** Every status change, e.g. for the `dataset_load_state` metric. */
  readonly stateChanged?: (name: string, status: DatasetStatus) => void;
}

/** How long `close` waits for a load that does not stop when cancelled before it gives up on it. */
const CLOSE_WAIT_MS = 2000;

/**
 * The datasets of a running server. `start` makes each dataset's first load attempt (one at a time: at most one
 * load of any dataset runs at once, bounding peak memory) and returns the first catalog: loaded tables, and a
 * stand-in whose queries fail with the error for each dataset that failed. `serve` then hands it the publication
 * hook and starts the retries and scheduled refreshes.
 */
export class DatasetRuntime implements Datasets {
  readonly #datasets: readonly ManagedDataset[];
  readonly #ctx: DatasetContext;
  readonly #checkSql: typeof checkRefreshSql;
  #closed = false;

  constructor(configs: readonly DatasetConfig[], options: DatasetRuntimeOptions) {
    this.#ctx = {
      baseDir: options.baseDir,
      queue: new LoadQueue(),
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      random: options.random ?? Math.random,
      load: options.load ?? loadForRefresh,
      log: options.log ?? (() => {}),
      stateChanged: options.stateChanged ?? (() => {}),
      publish: null,
    };
    this.#checkSql = options.checkSql ?? checkRefreshSql;
    this.#datasets = configs.map((config) => new ManagedDataset(config, this.#ctx));
  }

  /** Makes every dataset's first load attempt; resolves (never rejects) with the first catalog. */
  async start(): Promise<CatalogSnapshot> {
    const files = this.#datasets.filter((d) => !d.config.accelerated);
    // Files mode only checks footers: all on one helper thread (one thread each costs about as much as a check).
    // A failure there sends each to its own attempt, which reports the failure of its own dataset.
    const batch =
      files.length < 2
        ? null
        : await resolveDatasets(
            files.map((d) => d.config),
            this.#ctx.baseDir,
          ).catch(() => null);
    await Promise.all(this.#datasets.map((d) => d.first(batch?.tables[files.indexOf(d)])));
    return { tables: this.#datasets.map((d) => d.published) };
  }

  /** From now on loads publish through `publish` (returning the catalog version); retries and schedules start. */
  serve(publish: (name: string, entry: TableEntry) => number): void {
    if (this.#closed) return;
    this.#ctx.publish = publish;
    for (const d of this.#datasets) d.serve();
  }

  list(): readonly DatasetState[] {
    return this.#datasets.map((d) => d.state());
  }

  get settled(): boolean {
    return this.#datasets.every((d) => d.settled);
  }

  async refresh(name: string, overrides: RefreshOverrides = {}): Promise<string> {
    const dataset = this.#accelerated(name);
    const refresh = dataset.config.refresh!;
    if (overrides.refreshMode !== undefined && overrides.refreshMode !== 'full' && overrides.refreshMode !== 'append') {
      throw new DatasetRequestError(`refresh_mode '${overrides.refreshMode}' is not supported; use full or append`);
    }
    const jitterMax = overrides.jitterMaxMs ?? 0;
    if (!(jitterMax >= 0 && Number.isFinite(jitterMax))) {
      throw new DatasetRequestError(`refresh_jitter_max must be a duration of 0 or more, not ${jitterMax} ms`);
    }
    if (overrides.refreshSql !== undefined) await this.#check(dataset, overrides.refreshSql);
    this.#serving();
    const request = { mode: overrides.refreshMode ?? refresh.mode, sqlOverride: overrides.refreshSql, attempt: 0 };
    // The caller learns it was triggered; how it ends shows in the dataset's status.
    dataset.trigger(request, jitterMax * this.#ctx.random()).catch(() => {});
    return dataset.config.name;
  }

  async setRefreshSql(name: string, sql: string): Promise<string> {
    const dataset = this.#accelerated(name, (e) => new DatasetRequestError(e.message));
    await this.#check(dataset, sql);
    dataset.setRuntimeSql(sql);
    return dataset.config.name;
  }

  /**
   * Reads dataset `name` again in full (any dataset, accelerated or not) and swaps it in; resolves with the catalog
   * version published, rejects with the load's error (`RunningServer.reloadDataset`).
   */
  reload(name: string): Promise<number> {
    const dataset = this.#find(name);
    if (dataset === undefined) return Promise.reject(new Error(`no dataset named "${name}" in the manifest`));
    this.#serving();
    return dataset.trigger({ mode: 'full', attempt: 0 });
  }

  /**
   * Stops every timer and cancels the running loads (their results are dropped; each dataset is `ShuttingDown`),
   * then waits for the load in progress to end so its helper thread does not outlive the runtime (at most
   * `CLOSE_WAIT_MS` for a load that does not stop when cancelled; its thread does not keep the process alive), and
   * ends the idle loader thread.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const d of this.#datasets) d.close();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((r) => {
      timer = setTimeout(r, CLOSE_WAIT_MS).unref();
    });
    await Promise.race([this.#ctx.queue.idle(), bound]);
    clearTimeout(timer);
    await closeIdleLoader();
  }

  #find(name: string): ManagedDataset | undefined {
    return this.#datasets.find((d) => d.config.name.toLowerCase() === name.toLowerCase());
  }

  #accelerated(name: string, notAccelerated = (e: NotAcceleratedError): Error => e): ManagedDataset {
    const dataset = this.#find(name);
    if (dataset === undefined) throw new DatasetNotFoundError(name);
    if (dataset.config.refresh === undefined) throw notAccelerated(new NotAcceleratedError(dataset.config.name));
    return dataset;
  }

  async #check(dataset: ManagedDataset, sql: string): Promise<void> {
    if (typeof sql !== 'string' || sql.trim() === '') throw new DatasetRequestError('refresh_sql must be a SQL query');
    await this.#checkSql(dataset.config, sql, this.#ctx.baseDir).catch((e: unknown) => {
      // The source cannot be read to check the SQL: not the request's fault (500 with the reason).
      if (e instanceof DatasetError) throw e;
      throw new DatasetRequestError(e instanceof Error ? e.message : String(e));
    });
  }

  #serving(): void {
    if (this.#closed) throw new Error('the runtime is shutting down');
    if (this.#ctx.publish === null) throw new Error('the datasets are still loading');
  }
}
