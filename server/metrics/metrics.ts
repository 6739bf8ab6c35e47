// `createMetrics`: the server's metrics: one prom-client registry, its families and its listener.
import { collectDefaultMetrics, Registry } from 'prom-client';
import {
  type CacheFigures,
  DatasetLoadState,
  datasetStateGauge,
  type PoolFigures,
  registerCacheFamilies,
  registerPoolFamilies,
  registerQueryFamilies,
} from './families.js';
import { httpRecorder } from './http-series.js';
import { listenMetrics, type MetricsListener } from './listener.js';
import { type ModelFigures, registerModelFamilies } from './model-families.js';
import { createCounterBuffer } from './shared-counters.js';

export { DatasetLoadState } from './families.js';

/** Where the Prometheus listener binds (port 0: a free port), or off. */
export type MetricsListen = { readonly host: string; readonly port: number } | 'off';

/** What the families read at scrape time. */
export interface MetricsSources {
  /** The worker pool once started (null while loading). */
  pool(): PoolFigures | null;
  /** The results cache, null when it is off. */
  readonly resultsCache: CacheFigures | null;
  /** Dataset names: published as initializing until `datasetsState` says otherwise. */
  readonly datasets: readonly string[];
  /** The manifest's models (`model_load_state`, calls running and queued); absent: none. */
  models?(): readonly ModelFigures[];
}

export interface ServerMetrics {
  /** The workers' query counters: hand it to the pool (`workerData`); workers write it with `openQueryCounters`. */
  readonly queryCounters: SharedArrayBuffer;
  /** The bound port once `listen` resolved, else null. */
  readonly port: number | null;
  /** Binds the listener; rejects when the address is taken. */
  listen(): Promise<void>;
  /** Records one ended HTTP response (`status` 0: the client left before any status was sent). */
  observeHttp(method: string, path: string, status: number, ms: number): void;
  /** Sets `dataset_load_state` for `names`. */
  datasetsState(names: readonly string[], state: DatasetLoadState): void;
  /** The exposition text, as GET /metrics answers it. */
  scrape(): Promise<{ contentType: string; text: string }>;
  /** Closes the listener (the registry keeps counting until dropped). */
  close(): Promise<void>;
}

/**
 * Builds the registry (floe's families, and prom-client's process metrics such as
 * `process_resident_memory_bytes`) when `listen` is not 'off'; null otherwise, and nothing is counted.
 * Each server has its own registry (several servers can run in one process, as in tests).
 */
export function createMetrics(listen: MetricsListen, sources: MetricsSources): ServerMetrics | null {
  if (listen === 'off') return null;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const queryCounters = createCounterBuffer();
  registerQueryFamilies(registry, queryCounters);
  registerCacheFamilies(registry, sources.resultsCache);
  registerPoolFamilies(registry, sources.pool);
  registerModelFamilies(registry, () => sources.models?.() ?? []);
  const datasets = datasetStateGauge(registry);
  const datasetsState = (names: readonly string[], state: DatasetLoadState) => {
    for (const dataset of names) datasets.set({ dataset }, state);
  };
  datasetsState(sources.datasets, DatasetLoadState.initializing);
  const scrape = async () => ({ contentType: registry.contentType, text: await registry.metrics() });
  let listener: MetricsListener | null = null;
  return {
    queryCounters,
    get port() {
      return listener?.port ?? null;
    },
    async listen() {
      listener ??= await listenMetrics(listen.host, listen.port, scrape);
    },
    observeHttp: httpRecorder(registry),
    datasetsState,
    scrape,
    async close() {
      await listener?.close();
    },
  };
}
