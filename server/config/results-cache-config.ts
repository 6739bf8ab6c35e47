// `resultsCacheConfig`: `runtime.caching.sql_results` (and the deprecated `runtime.results_cache`) as zod schemas and settings.
import { z } from 'zod';

/** The results cache as the server uses it. */
export interface ResultsCacheConfig {
  readonly enabled: boolean;
  /** Bytes of cached bodies (plus keys) kept before the least recently used entries are evicted. */
  readonly maxBytes: number;
  /** How long an entry is served after it was stored. */
  readonly ttlMs: number;
  /** Spice's `plan | sql`; floe keys by the request text either way (see README, "Results cache"). */
  readonly keyType: 'plan' | 'sql';
}

/** Spice's defaults: on, 128 MiB, 1 s. */
export const DEFAULT_RESULTS_CACHE: ResultsCacheConfig = {
  enabled: true,
  maxBytes: 128 * 1024 * 1024,
  ttlMs: 1000,
  keyType: 'plan',
};

const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};
const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `128MiB`, `1 GB`, `512kb` or a number of bytes -> bytes; null when malformed. */
export function parseByteSize(value: string | number): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = SIZE_UNITS[(m?.[2] || 'b').toLowerCase()];
  if (!m || unit === undefined) return null;
  return Math.floor(Number(m[1]) * unit);
}

/** `1s`, `500ms`, `10m`, `1h 30m` -> milliseconds; null when malformed or not finite. A bare number is seconds. */
export function parseDuration(value: string | number): number | null {
  if (typeof value === 'number') return value >= 0 && Number.isFinite(value * 1000) ? value * 1000 : null;
  const parts = value.trim().split(/\s+/);
  let ms = 0;
  for (const part of parts) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/i.exec(part);
    if (!m) return null;
    ms += Number(m[1]) * (DURATION_UNITS[(m[2] as string).toLowerCase()] as number);
  }
  // Hundreds of digits make Infinity, which no timer can wait for.
  return Number.isFinite(ms) ? ms : null;
}

const size = z.union([z.string(), z.number()]).check((ctx) => {
  if (parseByteSize(ctx.value) === null) {
    ctx.issues.push({ code: 'custom', message: `invalid size '${ctx.value}' (e.g. 128MiB, 1GB)`, input: ctx.value });
  }
});
const duration = z.union([z.string(), z.number()]).check((ctx) => {
  if (parseDuration(ctx.value) === null) {
    ctx.issues.push({ code: 'custom', message: `invalid duration '${ctx.value}' (e.g. 1s, 500ms)`, input: ctx.value });
  }
});
const HASHING = ['siphash', 'ahash', 'xxh3', 'xxh32', 'xxh64', 'xxh128', 'blake3'] as const;
const evictionPolicy = z.string().check((ctx) => {
  if (ctx.value === 'lru') return;
  const message =
    ctx.value === 'tiny_lfu'
      ? `eviction policy 'tiny_lfu' is not supported yet; use lru`
      : `unknown eviction policy '${ctx.value}'; expected lru`;
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
});
const common = {
  enabled: z.boolean().optional(),
  item_ttl: duration.optional(),
  eviction_policy: evictionPolicy.optional(),
  cache_key_type: z.enum(['plan', 'sql']).optional(),
  // floe keys a Map by the request text: no hash, no collisions; the setting is accepted for compatibility.
  hashing_algorithm: z.enum(HASHING).optional(),
};

/** `runtime.caching`: `sql_results` is implemented; `search_results` and `embeddings` are accepted with a warning. */
export const cachingSchema = z.strictObject({
  sql_results: z.strictObject({ ...common, max_size: size.optional() }).optional(),
  search_results: z.unknown().optional(),
  embeddings: z.unknown().optional(),
});

/** The deprecated `runtime.results_cache`, mapped onto `caching.sql_results` (`cache_max_size` -> `max_size`). */
export const legacyResultsCacheSchema = z.strictObject({ ...common, cache_max_size: size.optional() });

type Caching = z.infer<typeof cachingSchema>;
type Legacy = z.infer<typeof legacyResultsCacheSchema>;

/**
 * The effective settings: `caching.sql_results` when present, else the deprecated `results_cache`, else the
 * defaults (each unset field keeps its default). Values were validated by the schemas.
 */
export function resultsCacheConfig(caching: Caching | undefined, legacy: Legacy | undefined): ResultsCacheConfig {
  const explicit = caching?.sql_results;
  const source = explicit ?? (legacy && { ...legacy, max_size: legacy.cache_max_size });
  if (source === undefined) return DEFAULT_RESULTS_CACHE;
  const d = DEFAULT_RESULTS_CACHE;
  return {
    enabled: source.enabled ?? d.enabled,
    maxBytes: source.max_size === undefined ? d.maxBytes : (parseByteSize(source.max_size) as number),
    ttlMs: source.item_ttl === undefined ? d.ttlMs : (parseDuration(source.item_ttl) as number),
    keyType: source.cache_key_type ?? d.keyType,
  };
}
