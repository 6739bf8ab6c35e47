// The results file of a query benchmark, TPC-H or ClickBench (`bench/results/<date>-<label>.json`): its shape, its
// summary, and its tables as text.
import type { TpchTable } from '../data/tpch-gen.js';
import { machineLine } from '../lib/machine.js';
import type { ResultsHeader } from '../lib/results-file.js';
import { geomean } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';
import type { DataMode } from './bench-engines.js';
import type { CoreEngineName, ExtraEngineName } from './engine-names.js';

export type EngineOutcome =
  | {
      readonly medianMs: number;
      readonly runsMs: readonly number[];
      /** The first (cold) run's time: the first warm-up, which also collected the rows (absent in older files). */
      readonly firstMs?: number;
    }
  | { readonly error: string };

export interface QueryOutcome {
  /** `q01` … `q22`. */
  readonly id: string;
  readonly floe: EngineOutcome;
  readonly duckdb: EngineOutcome;
  /** floe's median ÷ DuckDB's: above 1, floe is slower. Null unless both ran. */
  readonly ratio: number | null;
  /** Whether floe's rows equal DuckDB's (floats within tolerance). Null unless both ran. */
  readonly identical: boolean | null;
  /** Why they differ, when they do. */
  readonly mismatch?: string;
  /** Rows of DuckDB's answer. */
  readonly rows: number | null;
  /** The engines run beside floe and DuckDB (`--engines`), when any. */
  readonly extra?: Readonly<Partial<Record<ExtraEngineName, ExtraOutcome>>>;
}

/** An extra engine on one query: its times or error, and its rows against DuckDB's (never a reason to fail a run). */
export type ExtraOutcome = EngineOutcome & {
  /** True when it ran its dialect variant, `queries/<engine>/qNN.sql`, instead of the standard text. */
  readonly variant: boolean;
  /** Whether its rows equal DuckDB's (floats within tolerance). Null unless both ran. */
  readonly identical: boolean | null;
  readonly mismatch?: string;
};

export interface EngineFacts {
  readonly loadMs: number;
  readonly rssAfterLoadMiB: number;
  readonly peakRssMiB: number;
  /** Bytes of the loaded column buffers (floe, memory mode); RSS after load is compared with them. */
  readonly dataMiB?: number | null;
  /**
   * Threads a query may run on, as the engine said: floe its query thread + helpers (parallel-aggregate helpers in
   * memory mode, Parquet decode threads in files mode), DuckDB `current_setting('threads')`, polars its pool,
   * alasql 1. Files before 2026-11-28 wrote floe 1 and DuckDB `--threads`; older ones nothing.
   */
  readonly threads?: number | null;
}

/** What TPC-H and ClickBench results share; `Kind` tells them apart. */
interface QueryBenchBase<Kind extends 'tpch' | 'clickbench'> extends ResultsHeader<Kind> {
  /** The query set (the same as `kind`; absent in TPC-H files before 2026-11-28). */
  readonly benchmark?: Kind;
  readonly engines: Readonly<Record<CoreEngineName, EngineFacts>> &
    Readonly<Partial<Record<ExtraEngineName, EngineFacts>>>;
  readonly queries: readonly QueryOutcome[];
  readonly summary: TpchSummary;
}

/** How a run was made, whatever the benchmark. */
export interface RunConfig {
  readonly seed: number;
  readonly mode: DataMode;
  readonly runs: number;
  /** Untimed runs of each query per engine before the timed ones (absent in older files: 1). */
  readonly warmups?: number;
  /** DuckDB's threads as asked for (`--threads`); `engines.<name>.threads` says what each engine used. */
  readonly threads: number;
  readonly generatorVersion: number;
  readonly timeoutS: number;
  /** False: floe ran without its plan cache, planning every run as DuckDB does (absent in older files: on). */
  readonly planCache?: boolean;
  /** Engines run beside floe and DuckDB (absent: none). */
  readonly extraEngines?: readonly ExtraEngineName[];
}

export interface ClickBenchResults extends QueryBenchBase<'clickbench'> {
  readonly config: RunConfig & { readonly rows: number };
  readonly data: { readonly rows: { readonly hits: number }; readonly generatedS: number | null };
}

/** A TPC-H or a ClickBench results file. */
export type QueryBenchResults = TpchResults | ClickBenchResults;

export interface TpchResults extends QueryBenchBase<'tpch'> {
  readonly config: RunConfig & { readonly sf: number };
  readonly data: { readonly rows: Readonly<Record<TpchTable, number>>; readonly generatedS: number | null };
}

export interface TpchSummary {
  readonly total: number;
  /** Queries both engines ran: the geometric means are over these. */
  readonly both: number;
  readonly identical: number;
  readonly geomeanRatio: number | null;
  readonly floeGeomeanMs: number | null;
  readonly duckdbGeomeanMs: number | null;
  /** DuckDB over every query it ran, for comparing with other runs of DuckDB. */
  readonly duckdbAllGeomeanMs: number | null;
}

export const medianOf = (o: EngineOutcome): number | null => ('medianMs' in o ? o.medianMs : null);

export function summarize(queries: readonly QueryOutcome[]): TpchSummary {
  const both = queries.filter((q) => q.ratio !== null);
  const gm = (xs: number[]) => (xs.length === 0 ? null : geomean(xs));
  return {
    total: queries.length,
    both: both.length,
    identical: queries.filter((q) => q.identical === true).length,
    geomeanRatio: gm(both.map((q) => q.ratio!)),
    floeGeomeanMs: gm(both.map((q) => medianOf(q.floe)!)),
    duckdbGeomeanMs: gm(both.map((q) => medianOf(q.duckdb)!)),
    duckdbAllGeomeanMs: gm(queries.flatMap((q) => medianOf(q.duckdb) ?? [])),
  };
}

export const ms = (x: number | null) =>
  x === null ? '—' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
export const times = (x: number | null) => (x === null ? '—' : `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`);

/** `TPC-H SF1` or `ClickBench 1,000,000 rows`: what a run measured. */
export function benchmarkTitle(r: QueryBenchResults): string {
  return r.kind === 'clickbench'
    ? `ClickBench ${r.config.rows.toLocaleString('en-US')} rows`
    : `TPC-H SF${r.config.sf}`;
}

/** The threads each core engine used, as recorded (files without `benchmark`, older: as that runner described them). */
function threadsText(r: QueryBenchResults): string {
  if (r.benchmark === undefined) {
    const helpers =
      r.config.mode === 'memory'
        ? ' + a helper for the aggregates it splits'
        : ' + Parquet decode threads (one per core)';
    return `DuckDB ${r.config.threads} thread(s), floe one query thread${helpers}`;
  }
  const floe = r.engines.floe.threads ?? 1;
  const duck = r.engines.duckdb.threads ?? r.config.threads;
  const helpers = r.config.mode === 'memory' ? 'parallel-aggregate helpers' : 'Parquet decode threads';
  const floeText = floe > 1 ? `${floe} threads (one query thread + ${floe - 1} ${helpers})` : 'one thread';
  return `DuckDB ${duck} thread(s), floe ${floeText}`;
}

/** The per-query table and the summary lines, as Markdown (readable in a terminal too). */
export function tpchReport(r: QueryBenchResults): string {
  const rows = r.queries.map((q) => [
    q.id,
    'error' in q.floe ? 'floe failed' : ms(q.floe.medianMs),
    'error' in q.duckdb ? 'DuckDB failed' : ms(q.duckdb.medianMs),
    times(q.ratio),
    q.identical === null ? '—' : q.identical ? 'yes' : '**NO**',
  ]);
  const s = r.summary;
  const table = formatTable(['Query', 'floe ms', 'DuckDB ms', 'floe ÷ DuckDB', 'Same result'], rows);
  const e = r.engines;
  const load = (name: CoreEngineName) =>
    `${name}: load ${(e[name].loadMs / 1000).toFixed(1)} s, RSS after load ${e[name].rssAfterLoadMiB.toFixed(0)} MiB` +
    dataText(e[name]) +
    `, peak RSS ${e[name].peakRssMiB.toFixed(0)} MiB`;
  return [
    `${benchmarkTitle(r)}, ${r.config.mode} mode, median of ${r.config.runs} runs after ${warmupsText(r.config.warmups ?? 1)}; ` +
      `${threadsText(r)}; floe plan cache ${r.config.planCache === false ? 'off (every run planned)' : 'on'}`,
    '',
    table,
    '',
    `- Geometric mean of floe ÷ DuckDB over the ${s.both} of ${s.total} queries both ran: ${times(s.geomeanRatio)}` +
      ` (floe ${ms(s.floeGeomeanMs)} ms, DuckDB ${ms(s.duckdbGeomeanMs)} ms); same result on ${s.identical} of ${s.both}.`,
    `- DuckDB geometric mean over all ${s.total} queries: ${ms(s.duckdbAllGeomeanMs)} ms.`,
    `- ${load('floe')}; ${load('duckdb')}.`,
    `- ${machineLine(r.machine)}`,
  ].join('\n');
}

/** One line per query floe failed or answered differently from DuckDB: the error, or the first difference. */
export function failureNotes(r: QueryBenchResults): string[] {
  return r.queries.flatMap((q) => {
    if ('error' in q.floe) return [`${q.id}: ${q.floe.error.split('\n')[0]}`];
    return q.mismatch ? [`${q.id}: different result: ${q.mismatch.split('\n')[0]}`] : [];
  });
}

/** ` (column data N MiB, RSS ÷ data x)` when the engine reported its data bytes. */
function dataText(e: EngineFacts): string {
  const data = e.dataMiB;
  if (data === undefined || data === null || data === 0) return '';
  return ` (column data ${data.toFixed(0)} MiB, RSS ÷ data ${(e.rssAfterLoadMiB / data).toFixed(2)})`;
}

const warmupsText = (n: number) => (n === 1 ? 'a warm-up' : `${n} warm-ups`);
