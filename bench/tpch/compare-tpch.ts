// `compareTpch`: did a change make floe slower? Compares two runs of one benchmark (TPC-H or ClickBench) by each
// query's floe ÷ DuckDB ratio, which cancels most of the machine's speed (and its noise), so a baseline from another
// machine or day still applies.
import { geomean } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';
import { type QueryBenchResults, times } from './tpch-results.js';

/** A query regressed when its ratio grew by more than this (15%). */
export const QUERY_REGRESSION = 0.15;
/** The run regressed when the geometric mean of the ratios, over the queries both runs ran, grew by more than 5%. */
export const GEOMEAN_REGRESSION = 0.05;

export type Verdict = 'ok' | 'faster' | 'slower' | 'now fails' | 'wrong result' | 'now runs' | 'not compared';

export interface QueryComparison {
  readonly id: string;
  readonly baseRatio: number | null;
  readonly newRatio: number | null;
  /** newRatio ÷ baseRatio − 1: +0.2 is 20% slower relative to DuckDB. */
  readonly change: number | null;
  readonly verdict: Verdict;
}

export interface TpchComparison {
  readonly queries: readonly QueryComparison[];
  /** Queries with a ratio in both runs: the geometric means are over these. */
  readonly common: number;
  readonly baseGeomean: number | null;
  readonly newGeomean: number | null;
  readonly geomeanChange: number | null;
  /** Why the comparison fails (empty: no regression), including runs of another scale factor or mode. */
  readonly regressions: readonly string[];
  /** Differences between the runs' settings that make the comparison less certain. */
  readonly warnings: readonly string[];
}

const REGRESSIONS: readonly Verdict[] = ['slower', 'now fails', 'wrong result'];

export function compareTpch(base: QueryBenchResults, next: QueryBenchResults): TpchComparison {
  // Q3 of TPC-H and Q3 of ClickBench share an id and nothing else.
  if (base.kind !== next.kind) {
    const regressions = [`not comparable (benchmark: ${base.kind} vs ${next.kind})`];
    return {
      queries: [],
      common: 0,
      baseGeomean: null,
      newGeomean: null,
      geomeanChange: null,
      regressions,
      warnings: [],
    };
  }
  const baseById = new Map(base.queries.map((q) => [q.id, q]));
  const ids = [...new Set([...base.queries.map((q) => q.id), ...next.queries.map((q) => q.id)])].sort();
  const queries = ids.map((id): QueryComparison => {
    const b = baseById.get(id);
    const n = next.queries.find((q) => q.id === id);
    const baseRatio = b?.ratio ?? null;
    const newRatio = n?.ratio ?? null;
    const change = baseRatio !== null && newRatio !== null ? newRatio / baseRatio - 1 : null;
    return { id, baseRatio, newRatio, change, verdict: verdictOf(b, n, change) };
  });
  const common = queries.filter((q) => q.change !== null);
  const baseGeomean = common.length > 0 ? geomean(common.map((q) => q.baseRatio!)) : null;
  const newGeomean = common.length > 0 ? geomean(common.map((q) => q.newRatio!)) : null;
  const geomeanChange = baseGeomean !== null && newGeomean !== null ? newGeomean / baseGeomean - 1 : null;
  const regressions = queries
    .filter((q) => REGRESSIONS.includes(q.verdict))
    .map((q) => `${q.id}: ${q.verdict}${q.change === null ? '' : ` (${percent(q.change)})`}`);
  if (geomeanChange !== null && geomeanChange > GEOMEAN_REGRESSION) {
    regressions.push(`geometric mean: ${percent(geomeanChange)} (limit +${GEOMEAN_REGRESSION * 100}%)`);
  }
  const setting = (r: QueryBenchResults, k: string) => (r.config as unknown as Record<string, unknown>)[k];
  const differs = (keys: readonly string[]) =>
    keys
      .filter((k) => setting(base, k) !== setting(next, k))
      .map((k) => `${k}: ${setting(base, k)} vs ${setting(next, k)}`);
  // Another benchmark, scale factor, table size or mode measures other work: its ratios say nothing about a change.
  regressions.push(...differs(['sf', 'rows', 'mode']).map((d) => `not comparable (${d})`));
  const warnings = differs(['threads', 'seed', 'generatorVersion']).map((d) => `the runs differ in ${d}`);
  // Files from before --no-plan-cache ran with it; DuckDB threads as used (older files: as asked for).
  const [bc, nc] = [base.config.planCache ?? true, next.config.planCache ?? true];
  if (bc !== nc) warnings.push(`the runs differ in floe's plan cache: ${onOff(bc)} vs ${onOff(nc)}`);
  for (const engine of ['floe', 'duckdb'] as const) {
    const [bt, nt] = [base.engines[engine]?.threads, next.engines[engine]?.threads];
    if (bt != null && nt != null && bt !== nt) warnings.push(`the runs differ in ${engine}'s threads: ${bt} vs ${nt}`);
  }
  // Files from before --warmups ran one warm-up.
  const [bw, nw] = [base.config.warmups ?? 1, next.config.warmups ?? 1];
  if (bw !== nw) warnings.push(`the runs differ in warmups: ${bw} vs ${nw}`);
  return { queries, common: common.length, baseGeomean, newGeomean, geomeanChange, regressions, warnings };
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

type Outcome = QueryBenchResults['queries'][number] | undefined;

function verdictOf(b: Outcome, n: Outcome, change: number | null): Verdict {
  if (change !== null) {
    if (n!.identical === false && b!.identical !== false) return 'wrong result';
    if (change > QUERY_REGRESSION) return 'slower';
    return change < -QUERY_REGRESSION ? 'faster' : 'ok';
  }
  if (b?.ratio != null && n && 'error' in n.floe) return 'now fails';
  if (b?.ratio == null && n?.ratio != null) return 'now runs';
  return 'not compared';
}

export const percent = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** The comparison as a Markdown table and a verdict line. */
export function comparisonReport(c: TpchComparison): string {
  const shown = c.queries.filter((q) => q.verdict !== 'not compared');
  const skipped = c.queries.filter((q) => q.verdict === 'not compared').map((q) => q.id);
  const rows = shown.map((q) => [
    q.id,
    times(q.baseRatio),
    times(q.newRatio),
    q.change === null ? '—' : percent(q.change),
    REGRESSIONS.includes(q.verdict) ? `**${q.verdict.toUpperCase()}**` : q.verdict,
  ]);
  const lines = [
    formatTable(['Query', 'base floe ÷ DuckDB', 'new floe ÷ DuckDB', 'change', 'verdict'], rows),
    ...(skipped.length > 0 ? [`Not compared (no ratio in one run or both): ${skipped.join(', ')}.`] : []),
    '',
    `Geometric mean over the ${c.common} queries both runs ran: ${times(c.baseGeomean)} → ${times(c.newGeomean)}` +
      (c.geomeanChange === null ? '' : ` (${percent(c.geomeanChange)})`),
    ...c.warnings.map((w) => `warning: ${w}`),
    c.regressions.length === 0
      ? `No regression (limits: +${QUERY_REGRESSION * 100}% per query, +${GEOMEAN_REGRESSION * 100}% geometric mean).`
      : `REGRESSION: ${c.regressions.join('; ')}`,
  ];
  return lines.join('\n');
}
