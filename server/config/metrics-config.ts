// `runtime.metrics` (the Prometheus listener) as a zod schema, and how it combines with --metrics.
import { z } from 'zod';
import type { MetricsListen } from '../metrics/metrics.js';
import { hostPort, hostPortSchema } from './host-port-config.js';

/** The `floe` CLI's listener when neither --metrics nor `runtime.metrics` says otherwise (`spice run`'s). */
export const DEFAULT_METRICS_ENDPOINT = { host: '127.0.0.1', port: 9090 } as const;

/** `runtime.metrics: {enabled, endpoint}` (a floe extension: Spice takes the address on its command line only). */
export const metricsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  endpoint: hostPortSchema.optional(),
});

/** The manifest's setting, or undefined when `runtime.metrics` is absent. */
export function metricsConfig(raw: z.infer<typeof metricsSchema> | undefined): MetricsListen | undefined {
  if (raw === undefined) return undefined;
  if (!raw.enabled) return 'off';
  return raw.endpoint === undefined ? DEFAULT_METRICS_ENDPOINT : (hostPort(raw.endpoint) as MetricsListen);
}

/** The explicit setting (--metrics, or `startServer`'s option) wins, then the manifest's, then `fallback`. */
export function chooseMetricsListen(
  given: MetricsListen | undefined,
  manifest: MetricsListen | undefined,
  fallback: MetricsListen = 'off',
): MetricsListen {
  return given ?? manifest ?? fallback;
}
