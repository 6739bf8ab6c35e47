// The manifest's shape as zod schemas: the subset of Spice's spicepod.yaml that floe implements.
import { z } from 'zod';
import { refreshKeys, timeColumnKey } from './acceleration-config.js';
import { authSchema } from './auth-config.js';
import { catalogSchema } from './catalog-config.js';
import { checkSource } from './connectors.js';
import { corsSchema } from './cors-config.js';
import { datasetColumnSchema } from './file-format-config.js';
import { flightSchema } from './flight-config.js';
import { mcpSchema } from './mcp-config.js';
import { metricsSchema } from './metrics-config.js';
import { modelSchema } from './model-config.js';
import { querySchema, shutdownTimeoutSchema } from './query-config.js';
import { rateLimitSchema } from './rate-limit-config.js';
import { cachingSchema, legacyResultsCacheSchema } from './results-cache-config.js';
import { tlsSchema } from './tls-config.js';
import { toolSchema } from './tool-config.js';

/**
 * Sections Spice has and later floe issues implement. They are accepted (so a spicepod loads as is) and
 * reported as warnings; their content is not validated yet.
 */
export const LATER_SECTIONS = [
  'embeddings',
  'views',
  'rerankers',
  'search_engines',
  'workers',
  'functions',
  'dependencies',
  'management',
  'snapshots',
  'extensions',
] as const;

/** Acceleration keys floe reads, and Spice keys accepted with a warning (refresh, retention, indexes...). */
export const ACCELERATION_LATER_KEYS = [
  'refresh_cron',
  'refresh_data_window',
  'refresh_append_overlap',
  'retention_check_enabled',
  'retention_period',
  'retention_check_interval',
  'retention_sql',
  'on_zero_results',
  'ready_state',
  'indexes',
  'primary_key',
  'on_conflict',
  'partition_by',
  'params',
  'snapshots',
  'metrics',
] as const;

/** Dataset keys of Spice that floe ignores for now (with a warning). */
export const DATASET_LATER_KEYS = [
  'metadata',
  'embeddings',
  'dependsOn',
  'vectors',
  'mode',
  'access',
  'has_metadata_table',
  'replication',
  'time_format',
  'time_partition_column',
  'time_partition_format',
  'unsupported_type_action',
  'invalid_type_action',
  'ready_state',
  'metrics',
  'check_availability',
  'load',
] as const;

/** Runtime keys of Spice that floe ignores for now (with a warning). */
export const RUNTIME_LATER_KEYS = [
  'task_history',
  'memory_limit',
  'temp_directory',
  'dataset_load_parallelism',
  'ready_state',
  'output_level',
  'tracing',
  'telemetry',
  'scheduler',
  'params',
] as const;

const later = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, z.unknown().optional()])) as Record<K, z.ZodOptional<z.ZodUnknown>>;

const acceleration = z.strictObject({
  enabled: z.boolean().default(true),
  engine: supportedOnly('acceleration engine', 'arrow').default('arrow'),
  mode: supportedOnly('acceleration mode', 'memory').default('memory'),
  ...refreshKeys,
  ...later(ACCELERATION_LATER_KEYS),
});

const dataset = z.strictObject({
  from: z.string().check((ctx) => {
    const problem = checkSource(ctx.value);
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  }),
  name: z.string().min(1),
  description: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  columns: z.array(datasetColumnSchema).optional(),
  acceleration: acceleration.optional(),
  ...timeColumnKey,
  ...later(DATASET_LATER_KEYS),
});

const runtime = z.strictObject({
  http: z
    .strictObject({
      /** Largest accepted request body in bytes (413 above); default 128 MiB. A floe extension. */
      max_body_bytes: z.number().int().positive().optional(),
      rate_limit: rateLimitSchema.optional(),
    })
    .optional(),
  caching: cachingSchema.optional(),
  /** Deprecated by Spice in favour of `caching.sql_results`; still read. */
  results_cache: legacyResultsCacheSchema.optional(),
  // Security sections are validated, never warned about and ignored: what floe cannot honour stops the start.
  auth: authSchema.optional(),
  tls: tlsSchema.optional(),
  cors: corsSchema.optional(),
  /** The Prometheus listener (a floe extension); --metrics overrides it. */
  metrics: metricsSchema.optional(),
  /** The Arrow Flight / Flight SQL listener; --flight overrides it. */
  flight: flightSchema.optional(),
  /** `runtime.query`: time-out, memory limit, admission (query-config.ts). */
  query: querySchema.optional(),
  /** How long SIGTERM lets in-flight requests finish (default 10s); the workers get 2 s more. */
  shutdown_timeout: shutdownTimeoutSchema.optional(),
  /** `runtime.mcp`: session time-out and the Host allow-list of the MCP endpoints (mcp-config.ts). */
  mcp: mcpSchema.optional(),
  ...later(RUNTIME_LATER_KEYS),
});

const secretStore = z.strictObject({ from: z.string(), name: z.string(), params: z.unknown().optional() });

/** A whole manifest after `${...}` substitution. */
export const manifestSchema = z.strictObject({
  version: z.enum(['v1beta1', 'v1', 'v2']),
  kind: z.enum(['Spicepod']),
  name: z.string().min(1),
  datasets: z.array(dataset).default([]),
  /** Iceberg warehouses served as catalogs (catalog-config.ts). */
  catalogs: z.array(catalogSchema).default([]),
  /** Language models NSQL asks (model-config.ts). */
  models: z.array(modelSchema).default([]),
  /** External MCP servers whose tools floe proxies (tool-config.ts). */
  tools: z.array(toolSchema).default([]),
  runtime: runtime.default({}),
  secrets: z.array(secretStore).optional(),
  metadata: z.unknown().optional(),
  ...later(LATER_SECTIONS),
});

export type ManifestDocument = z.infer<typeof manifestSchema>;

// A string where Spice knows more values than floe has built: other values are "not supported yet".
function supportedOnly(what: string, supported: string) {
  return z.string().check((ctx) => {
    if (ctx.value === supported) return;
    ctx.issues.push({ code: 'custom', message: `${what} '${ctx.value}' is not supported yet`, input: ctx.value });
  });
}
