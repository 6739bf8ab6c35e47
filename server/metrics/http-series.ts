// `httpRecorder`: `http_requests` and `http_requests_duration_ms{method,path,status}`, counted on the main thread.
import type { Registry } from 'prom-client';
import { CollectedFamily, histogramSamples, type Sample } from './collected.js';
import { bucketOf, DURATION_BUCKETS_MS } from './shared-counters.js';

/** One label set's counts. */
interface Series {
  readonly labels: Readonly<Record<'method' | 'path' | 'status', string>>;
  /** Per bucket, not cumulative (see `bucketOf`). */
  readonly buckets: Float64Array;
  sum: number;
}

/**
 * Registers both families and returns the function that records one ended response. `path` is the route's
 * pattern and `method` one of a fixed set, so the label sets stay few. Counts go into plain arrays and become
 * samples at scrape time: prom-client's `labels().inc/observe` hash their labels on every call, a cost every
 * request of the HTTP thread would pay.
 */
export function httpRecorder(registry: Registry): (method: string, path: string, status: number, ms: number) => void {
  const all: Series[] = [];
  // path -> method -> status -> series
  const index = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf = (method: string, path: string, status: number): Series => {
    const byStatus = entry(
      entry(index, path, () => new Map()),
      method,
      () => new Map<number, Series>(),
    );
    return entry(byStatus, status, () => {
      const labels = { method, path, status: status === 0 ? 'aborted' : String(status) };
      const series = { labels, buckets: new Float64Array(DURATION_BUCKETS_MS.length + 1), sum: 0 };
      all.push(series);
      return series;
    });
  };
  const count = (s: Series) => s.buckets.reduce((a, b) => a + b, 0);
  new CollectedFamily('http_requests', 'HTTP requests answered', 'counter', () =>
    all.map((s): Sample => ({ labels: s.labels, value: count(s) })),
  ).registerIn(registry);
  new CollectedFamily(
    'http_requests_duration_ms',
    'Time from a request arriving to its response ending (ms)',
    'histogram',
    () =>
      all.flatMap((s) =>
        histogramSamples('http_requests_duration_ms', DURATION_BUCKETS_MS, s.buckets, s.sum, s.labels),
      ),
  ).registerIn(registry);
  return (method, path, status, ms) => {
    const series = seriesOf(method, path, status);
    const b = bucketOf(ms);
    series.buckets[b] = (series.buckets[b] as number) + 1;
    series.sum += ms;
  };
}

function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
