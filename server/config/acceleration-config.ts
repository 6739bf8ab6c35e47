// `refreshConfig`: the acceleration refresh keys (Spice's names) as zod schemas, and the refresh policy they make.
import { z } from 'zod';
import type { DatasetSpec } from '../../catalog/datasets.js';
import { parseDuration } from './results-cache-config.js';
import type { SearchConfig } from './search-config.js';

/** How an accelerated dataset is refreshed (the dataset runtime's policy; see README, "Refresh"). */
export interface RefreshConfig {
  readonly mode: 'full' | 'append';
  /** Time from the end of one scheduled refresh to the start of the next; null: refreshed on demand only. */
  readonly checkIntervalMs: number | null;
  /** The SELECT over the dataset that chooses what is loaded; null: everything. */
  readonly sql: string | null;
  /** Largest random shift (either way) of each scheduled refresh; 0 when jitter is off. */
  readonly jitterMaxMs: number;
  readonly retryEnabled: boolean;
  /** Retries of a failed refresh before it waits for the next scheduled one; null: until it succeeds. */
  readonly retryMaxAttempts: number | null;
  /** Accepted for compatibility: floe keeps no state across restarts, so both values load at start. */
  readonly onStartup: 'auto' | 'always';
}

/** A manifest dataset as the server runs it: the catalog's spec plus its refresh policy. */
export interface DatasetConfig extends DatasetSpec {
  /** Dataset `time_column`: append mode loads only rows newer than the newest loaded; absent: only new files. */
  readonly timeColumn?: string;
  /** Absent when the dataset is not accelerated. */
  readonly refresh?: RefreshConfig;
  /** Full-text search over its `columns` marked `full_text_search`; absent when none is. */
  readonly search?: SearchConfig;
}

const UNSUPPORTED_MODES = ['changes', 'changesafterload', 'caching', 'snapshot'];

const refreshMode = z.string().check((ctx) => {
  if (ctx.value === 'full' || ctx.value === 'append') return;
  const message = UNSUPPORTED_MODES.includes(ctx.value)
    ? `refresh mode '${ctx.value}' is not supported yet; use full or append`
    : `unknown refresh mode '${ctx.value}'; expected full or append`;
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
});

const positiveDuration = z.union([z.string(), z.number()]).check((ctx) => {
  const ms = parseDuration(ctx.value);
  if (ms !== null && ms > 0) return;
  ctx.issues.push({ code: 'custom', message: `invalid duration '${ctx.value}' (e.g. 10s, 5m)`, input: ctx.value });
});

/** The refresh keys of `acceleration` floe implements (spread into its schema). */
export const refreshKeys = {
  refresh_mode: refreshMode.optional(),
  refresh_check_interval: positiveDuration.optional(),
  refresh_sql: z.string().min(1).optional(),
  refresh_jitter_enabled: z.boolean().optional(),
  refresh_jitter_max: positiveDuration.optional(),
  refresh_retry_enabled: z.boolean().optional(),
  refresh_retry_max_attempts: z.number().int().min(0).optional(),
  refresh_on_startup: z.enum(['auto', 'always']).optional(),
};

/** The dataset-level key floe implements (spread into the dataset schema). */
export const timeColumnKey = { time_column: z.string().min(1).optional() };

type RefreshKeys = { [K in keyof typeof refreshKeys]?: z.infer<(typeof refreshKeys)[K]> };

/** The policy of an accelerated dataset's `acceleration` block (Spice's defaults: full, retries on, no jitter). */
export function refreshConfig(keys: RefreshKeys): RefreshConfig {
  const interval = keys.refresh_check_interval === undefined ? null : parseDuration(keys.refresh_check_interval);
  const jitterMax = keys.refresh_jitter_max === undefined ? null : parseDuration(keys.refresh_jitter_max);
  return {
    mode: keys.refresh_mode === 'append' ? 'append' : 'full',
    checkIntervalMs: interval,
    sql: keys.refresh_sql ?? null,
    // Spice: jitter enabled without a max is 10% of the interval.
    jitterMaxMs: keys.refresh_jitter_enabled === true ? (jitterMax ?? Math.round((interval ?? 0) / 10)) : 0,
    retryEnabled: keys.refresh_retry_enabled ?? true,
    retryMaxAttempts: keys.refresh_retry_max_attempts ?? null,
    onStartup: keys.refresh_on_startup ?? 'auto',
  };
}

/**
 * Warnings for refresh keys that do nothing: on a dataset whose acceleration is disabled (kept, not refused, so
 * acceleration can be switched off without deleting its settings), and a jitter max or retry limit whose
 * switch is off. `path` is the block's key path, e.g. `datasets[0].acceleration`.
 */
export function refreshWarnings(keys: RefreshKeys & { enabled?: boolean }, path: string): string[] {
  const present = (Object.keys(refreshKeys) as (keyof RefreshKeys)[]).filter((k) => keys[k] !== undefined);
  if (keys.enabled === false) return present.map((k) => `${path}.${k}: ignored: acceleration is not enabled`);
  const warnings: string[] = [];
  if (keys.refresh_jitter_max !== undefined && keys.refresh_jitter_enabled !== true) {
    warnings.push(`${path}.refresh_jitter_max: ignored: refresh_jitter_enabled is not true`);
  }
  if (keys.refresh_retry_max_attempts !== undefined && keys.refresh_retry_enabled === false) {
    warnings.push(`${path}.refresh_retry_max_attempts: ignored: refresh_retry_enabled is false`);
  }
  return warnings;
}
