// The metric families floe publishes (Spice's names where it has one), registered into one prom-client registry.
import { Gauge, type Registry } from 'prom-client';
import { CollectedFamily, histogramSamples } from './collected.js';
import { DURATION_BUCKETS_MS, FAILURE_KINDS, readTotals } from './shared-counters.js';

/** The pool's figures read at scrape time; a getter a pool does not have is published as 0. */
export interface PoolFigures {
  readonly queueLength?: number;
  readonly workerRestarts?: number;
}

/** The results cache's counts read at scrape time (`ResultsCache` has them). */
export interface CacheFigures {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

/**
 * Query families from the workers' shared counters (`readTotals`): `query_executions`, `query_failures{err_code}`,
 * `query_active_count`, `query_returned_rows`, `query_duration_ms`. Every err_code is published, at 0 until seen.
 */
export function registerQueryFamilies(registry: Registry, counters: SharedArrayBuffer): void {
  const totals = () => readTotals(counters);
  const one = (value: number) => [{ labels: {}, value }];
  new CollectedFamily('query_executions', 'Queries started', 'counter', () => one(totals().started)).registerIn(
    registry,
  );
  new CollectedFamily('query_failures', 'Queries that ended in an error, by error kind', 'counter', () => {
    const { failures } = totals();
    return FAILURE_KINDS.map((err_code, i) => ({ labels: { err_code }, value: failures[i] ?? 0 }));
  }).registerIn(registry);
  new CollectedFamily('query_active_count', 'Queries running on a worker now', 'gauge', () => {
    const t = totals();
    return one(Math.max(0, t.started - t.ended));
  }).registerIn(registry);
  new CollectedFamily('query_returned_rows', 'Rows sent back by queries', 'counter', () =>
    one(totals().rows),
  ).registerIn(registry);
  new CollectedFamily(
    'query_duration_ms',
    'Time from a query starting on its worker to its last byte (ms)',
    'histogram',
    () => {
      const t = totals();
      return histogramSamples('query_duration_ms', DURATION_BUCKETS_MS, t.buckets, t.durationSumMs);
    },
  ).registerIn(registry);
}

/** `results_cache_{requests,hits,misses,items_count,size_bytes,max_size_bytes}`, all 0 when the cache is off. */
export function registerCacheFamilies(registry: Registry, cache: CacheFigures | null): void {
  const family = (name: string, help: string, type: 'counter' | 'gauge', read: (c: CacheFigures) => number) =>
    new CollectedFamily(name, help, type, () => [{ labels: {}, value: cache === null ? 0 : read(cache) }]).registerIn(
      registry,
    );
  family('results_cache_requests', 'Results cache lookups', 'counter', (c) => c.hits + c.misses);
  family('results_cache_hits', 'Results cache lookups answered from the cache', 'counter', (c) => c.hits);
  family('results_cache_misses', 'Results cache lookups not found (or expired)', 'counter', (c) => c.misses);
  family('results_cache_items_count', 'Entries in the results cache', 'gauge', (c) => c.size);
  family('results_cache_size_bytes', 'Bytes held by the results cache', 'gauge', (c) => c.bytes);
  family('results_cache_max_size_bytes', 'The results cache byte bound', 'gauge', (c) => c.maxBytes);
}

/** `pool_queue_length` (queries waiting for a worker) and `pool_worker_restarts` (workers replaced). */
export function registerPoolFamilies(registry: Registry, pool: () => PoolFigures | null): void {
  new CollectedFamily('pool_queue_length', 'Queries waiting for a worker', 'gauge', () => [
    { labels: {}, value: pool()?.queueLength ?? 0 },
  ]).registerIn(registry);
  new CollectedFamily('pool_worker_restarts', 'Query workers replaced after dying or being stopped', 'counter', () => [
    { labels: {}, value: pool()?.workerRestarts ?? 0 },
  ]).registerIn(registry);
}

/** Spice's `dataset_load_state` values. */
export const DatasetLoadState = {
  initializing: 0,
  ready: 1,
  disabled: 2,
  error: 3,
  refreshing: 4,
  shuttingDown: 5,
} as const;
export type DatasetLoadState = (typeof DatasetLoadState)[keyof typeof DatasetLoadState];

/** `dataset_load_state{dataset}`, set by the server as datasets load (Spice's values, `DatasetLoadState`). */
export function datasetStateGauge(registry: Registry): Gauge<'dataset'> {
  return new Gauge({
    name: 'dataset_load_state',
    help: 'Dataset state: 0 initializing, 1 ready, 2 disabled, 3 error, 4 refreshing, 5 shutting down',
    labelNames: ['dataset'],
    registers: [registry],
  });
}
