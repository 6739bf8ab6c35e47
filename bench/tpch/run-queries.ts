// Runs a list of queries on floe and DuckDB (and on request polars, alasql), each engine in its own child process,
// interleaved query by query: warm-ups (the first's rows compared with DuckDB's), then N timed runs each. The
// TPC-H and ClickBench runners share it.
import { compareRows, resultOrder } from '../lib/result-rows.js';
import { median } from '../lib/stats.js';
import type { DataMode } from './bench-engines.js';
import type { ChildReply } from './engine-child.js';
import type { EngineName, ExtraEngineName } from './engine-names.js';
import { EngineProcess } from './engine-process.js';
import {
  type EngineFacts,
  type EngineOutcome,
  type ExtraOutcome,
  medianOf,
  ms,
  type QueryOutcome,
  times,
} from './tpch-results.js';

/** How every query of a run is run. */
export interface RunSettings {
  readonly mode: DataMode;
  readonly runs: number;
  /** Untimed runs before the timed ones (the first collects the rows compared with DuckDB's); at least 1. */
  readonly warmups: number;
  /** DuckDB's threads. */
  readonly threads: number;
  /** A query slower than this is cancelled (floe) or its process killed (polars, alasql) and counted as failed. */
  readonly timeoutS: number;
  /** False: floe runs without its plan cache. */
  readonly planCache: boolean;
  readonly log: (line: string) => void;
}

/** What the engines load: the folder of the data set and its tables (each `<dir>/<table>/*.parquet`). */
export interface DataSet {
  readonly dir: string;
  readonly tables: readonly string[];
}

export type EngineLoads = Record<EngineName, Omit<EngineFacts, 'peakRssMiB'>>;

/**
 * Runs `queries` (id -> SQL; `textFor` gives an engine its own text, a dialect variant, when it has one) on
 * `engines`; returns each query's outcome and each engine's facts (load time, RSS, threads, peak RSS).
 */
export async function runQueries(
  data: DataSet,
  queries: ReadonlyMap<string, string>,
  engines: readonly EngineName[],
  opts: RunSettings,
  textFor: (engine: EngineName, id: string) => { sql: string; variant: boolean } | undefined = () => undefined,
): Promise<{ outcomes: QueryOutcome[]; engines: Record<EngineName, EngineFacts> }> {
  const { log } = opts;
  const procs = {} as Record<EngineName, EngineProcess>;
  const loads = {} as EngineLoads;
  const outcomes: QueryOutcome[] = [];
  try {
    for (const engine of engines) {
      const { dir, tables } = data;
      const load = { type: 'load', engine, dir, tables, mode: opts.mode, threads: opts.threads } as const;
      procs[engine] = new EngineProcess({ ...load, planCache: opts.planCache });
      const loaded = await procs[engine].start();
      log(
        `  ${engine}: loaded (${opts.mode}) in ${(loaded.ms / 1000).toFixed(1)} s, RSS ${loaded.rssMiB.toFixed(0)} MiB, ` +
          `${loaded.threads ?? '?'} thread(s)`,
      );
      // alasql runs on this thread only; every other engine says how many it uses.
      const threads = loaded.threads ?? 1;
      loads[engine] = { loadMs: loaded.ms, rssAfterLoadMiB: loaded.rssMiB, dataMiB: loaded.dataMiB, threads };
    }
    for (const [id, sql] of queries) {
      const sqlOf = (e: EngineName) => textFor(e, id) ?? { sql, variant: false };
      const outcome = await runQuery(id, sqlOf, engines, opts, procs);
      outcomes.push(outcome);
      log(queryLine(outcome));
    }
  } finally {
    for (const proc of Object.values(procs)) await proc.stop();
  }
  const facts = (name: EngineName): EngineFacts => ({ ...loads[name], peakRssMiB: procs[name].peakRssMiB });
  return {
    outcomes,
    engines: Object.fromEntries(engines.map((e) => [e, facts(e)])) as Record<EngineName, EngineFacts>,
  };
}

type Ran = Extract<ChildReply, { type: 'ran' }>;

/**
 * Warm-ups (the first's rows collected and compared with DuckDB's), then `runs` timed runs, the engines in turn.
 * An engine that fails or times out on a warm-up or a run is not asked again for this query.
 */
async function runQuery(
  id: string,
  sqlOf: (engine: EngineName) => { sql: string; variant: boolean },
  engines: readonly EngineName[],
  opts: RunSettings,
  procs: Record<EngineName, EngineProcess>,
): Promise<QueryOutcome> {
  const timeoutMs = opts.timeoutS * 1000;
  const attempt = async (name: EngineName, collect: boolean): Promise<Ran | { error: string }> => {
    const proc = procs[name];
    // floe cancels itself at timeoutMs and the hard limit is for a query stuck between two cancellation checks;
    // polars and alasql cannot be cancelled, so their process is killed at the timeout.
    const limitMs = name === 'floe' || name === 'duckdb' ? timeoutMs * 2 + 60_000 : timeoutMs;
    try {
      return (await proc.request({ type: 'run', sql: sqlOf(name).sql, collect, timeoutMs }, limitMs)) as Ran;
    } catch (e) {
      // A killed or crashed child takes its data with it: start a fresh one for the next query.
      if (!proc.running) await proc.restart();
      return { error: (e as Error).message };
    }
  };
  const warm = {} as Record<EngineName, Ran | { error: string }>;
  const runs = {} as Record<EngineName, number[]>;
  const failed: Partial<Record<EngineName, string>> = {};
  for (const name of engines) {
    warm[name] = await attempt(name, true);
    runs[name] = [];
    const w = warm[name];
    if ('error' in w) failed[name] = w.error;
  }
  // Further warm-ups, the engines in turn as in the timed runs: floe's JIT compiles a query's kernels over its
  // first few runs (the first run's time is kept as `firstMs`).
  for (let r = 1; r < opts.warmups; r++) {
    for (const name of engines) {
      if (failed[name] !== undefined) continue;
      const out = await attempt(name, false);
      if ('error' in out) failed[name] = out.error;
    }
  }
  for (let r = 0; r < opts.runs; r++) {
    for (const name of engines) {
      if (failed[name] !== undefined) continue;
      const out = await attempt(name, false);
      if ('error' in out) failed[name] = out.error;
      else runs[name].push(out.ms);
    }
  }
  const outcome = (name: EngineName): EngineOutcome =>
    failed[name] !== undefined
      ? { error: failed[name] }
      : { medianMs: median(runs[name]), runsMs: runs[name], firstMs: (warm[name] as Ran).ms };
  const dw = warm.duckdb;
  /** Why `name`'s warm-up rows differ from DuckDB's (rows tied on the ORDER BY keys in any order among
   * themselves, and at a LIMIT or OFFSET only their keys compared); undefined when either has no rows. */
  const mismatchOf = (name: EngineName) => {
    const w = warm[name];
    if (!('rows' in w && 'rows' in dw)) return undefined;
    const { order, cut } = resultOrder(sqlOf('duckdb').sql, dw.rows!.names);
    const problem = compareRows(w.rows!, dw.rows!, order, cut);
    // Keys that are not output columns hide which rows tie: a difference at the cut may be a tie.
    const unsure = problem !== null && order === true && (cut.limit || cut.offset);
    return unsure
      ? `${problem}\n  (the ORDER BY keys are not all output columns: rows tied on them cannot be told apart)`
      : problem;
  };
  const duckdb = outcome('duckdb');
  const judged = (name: EngineName) => {
    const own = outcome(name);
    const mismatch = 'error' in own || 'error' in duckdb ? undefined : mismatchOf(name);
    return { own, identical: mismatch === undefined ? null : mismatch === null, mismatch: mismatch ?? undefined };
  };
  const floe = judged('floe');
  const extra: Partial<Record<ExtraEngineName, ExtraOutcome>> = {};
  for (const name of engines) {
    if (name === 'floe' || name === 'duckdb') continue;
    const j = judged(name);
    extra[name] = { ...j.own, variant: sqlOf(name).variant, identical: j.identical, ...mismatchField(j.mismatch) };
  }
  const bothRan = !('error' in floe.own) && !('error' in duckdb);
  return {
    id,
    floe: floe.own,
    duckdb,
    ratio: bothRan ? medianOf(floe.own)! / medianOf(duckdb)! : null,
    identical: bothRan ? floe.identical !== false : null,
    ...mismatchField(floe.mismatch),
    rows: 'rowCount' in dw ? dw.rowCount : null,
    ...(engines.length > 2 ? { extra } : {}),
  };
}

const mismatchField = (m: string | undefined) => (m ? { mismatch: m } : {});

/** The progress line of one query: each engine's median, floe ÷ DuckDB, and whether the answers agree. */
function queryLine(o: QueryOutcome): string {
  const f = medianOf(o.floe);
  const same = o.identical === null ? '' : o.identical ? 'same result' : 'DIFFERENT RESULT';
  const extras = Object.entries(o.extra ?? {}).map(([name, x]) => {
    if ('error' in x) return `  ${name} ${x.error.split('\n')[0]!.slice(0, 60)}`;
    return `  ${name} ${ms(x.medianMs)} ms${x.identical === false ? ' (differs)' : ''}`;
  });
  return (
    `${o.id}  floe ${f === null ? 'failed' : `${ms(f)} ms`}  DuckDB ${ms(medianOf(o.duckdb))} ms  ` +
    `${times(o.ratio)}  ${same}${extras.join('')}`
  );
}
