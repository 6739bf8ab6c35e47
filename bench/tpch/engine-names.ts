// The engines the TPC-H runner can drive and the `--engines` list: floe and DuckDB always, polars and alasql on request.

/** floe and DuckDB (the oracle) run in every TPC-H run; the others are measured beside them. */
export const CORE_ENGINES = ['floe', 'duckdb'] as const;
/** Engines run only when `--engines` names them; their answers are checked against DuckDB's but never fail a run. */
export const EXTRA_ENGINES = ['polars', 'alasql'] as const;

export type CoreEngineName = (typeof CORE_ENGINES)[number];
export type ExtraEngineName = (typeof EXTRA_ENGINES)[number];
export type EngineName = CoreEngineName | ExtraEngineName;

/**
 * The extra engines named by an `--engines` list such as `floe,duckdb,polars` (in the order of EXTRA_ENGINES, without
 * repeats). Throws on an unknown name or a list without floe and DuckDB, which every run measures against.
 */
export function parseEngines(list: string): ExtraEngineName[] {
  const names = list
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const known: readonly string[] = [...CORE_ENGINES, ...EXTRA_ENGINES];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`unknown engine ${unknown.join(', ')} (expected ${known.join(', ')})`);
  const missing = CORE_ENGINES.filter((n) => !names.includes(n));
  if (missing.length > 0) throw new Error(`--engines must include ${missing.join(' and ')}`);
  return EXTRA_ENGINES.filter((n) => names.includes(n));
}
