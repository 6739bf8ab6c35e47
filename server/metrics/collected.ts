// `CollectedFamily`: a metric family whose samples are computed at scrape time (from shared memory or a getter).
import type { Metric, Registry } from 'prom-client';

/** One exposition line: `name{labels} value` (name defaults to the family's). */
export interface Sample {
  readonly metricName?: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
}

/**
 * A family prom-client's registry formats like its own: the registry reads metrics through `get()` (the shape
 * its Counter, Gauge and Histogram return), so counts kept elsewhere (worker threads' shared slots) are turned
 * into samples only when scraped, never pushed into a prom-client metric as they happen.
 */
export class CollectedFamily {
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
    readonly samples: () => readonly Sample[],
  ) {}

  get(): { name: string; help: string; type: string; aggregator: string; values: readonly Sample[] } {
    const { name, help, type, aggregator } = this;
    return { name, help, type, aggregator, values: this.samples() };
  }

  /** The registry's `resetMetrics` calls this; the counts belong to their source. */
  reset(): void {}

  /** Adds the family to `registry` (typed for prom-client's own classes: the registry only needs `get`). */
  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }
}

/**
 * Histogram samples from per-bucket counts (not cumulative; one more than `bounds`, the last above every bound):
 * the cumulative `_bucket{le}` lines, `+Inf`, `_sum` and `_count`, each with `labels`.
 */
export function histogramSamples(
  name: string,
  bounds: readonly number[],
  counts: ArrayLike<number>,
  sum: number,
  labels: Readonly<Record<string, string>> = {},
): Sample[] {
  const samples: Sample[] = [];
  let total = 0;
  bounds.forEach((le, i) => {
    total += counts[i] ?? 0;
    samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: total });
  });
  total += counts[bounds.length] ?? 0;
  samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: total });
  samples.push({ metricName: `${name}_sum`, labels, value: sum });
  samples.push({ metricName: `${name}_count`, labels, value: total });
  return samples;
}
