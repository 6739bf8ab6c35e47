// `runTpch`: the 22 TPC-H queries on floe and on DuckDB (and on request polars, alasql) over the same generated
// files, interleaved query by query (warm-up, then N timed runs each), with a per-query result check against DuckDB.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTpch, TPCH_GENERATOR_VERSION } from '../data/tpch-gen.js';
import { machineFacts } from '../lib/machine.js';
import { TPCH_QUERIES_DIR } from '../lib/paths.js';
import { compareRows, orderColumns } from '../lib/result-rows.js';
import { median } from '../lib/stats.js';
import type { DataMode } from './bench-engines.js';
import type { ChildReply } from './engine-child.js';
import { CORE_ENGINES, type EngineName, type ExtraEngineName } from './engine-names.js';
import { EngineProcess } from './engine-process.js';
import { extraReport } from './extra-report.js';
import { loadVariants, queriesFor } from './query-variants.js';
import {
  type EngineFacts,
  type EngineOutcome,
  type ExtraOutcome,
  failureNotes,
  medianOf,
  ms,
  type QueryOutcome,
  summarize,
  type TpchResults,
  times,
  tpchReport,
} from './tpch-results.js';

export interface TpchOptions {
  readonly sf: number;
  readonly seed: number;
  readonly mode: DataMode;
  readonly runs: number;
  /** Untimed runs before the timed ones (the first collects the rows compared with DuckDB's); at least 1. */
  readonly warmups: number;
  readonly threads: number;
  /** Query ids to run (`q01`…); default all 22. */
  readonly queries?: readonly string[];
  /** A query slower than this is cancelled (floe) or its process killed (polars, alasql) and counted as failed. */
  readonly timeoutS: number;
  /** Engines to run beside floe and DuckDB; their answers are compared with DuckDB's but never fail the run. */
  readonly extraEngines?: readonly ExtraEngineName[];
  readonly label: string;
  readonly log: (line: string) => void;
}

/** `1,6,q12..14` (or `12-14`) as query ids `q01`, `q06`, `q12` … `q14`; null when an item is not 1-22 or a range of them. */
export function parseQueryIds(text: string): string[] | null {
  const out: string[] = [];
  for (const item of text.split(',')) {
    const m = /^\s*q?(\d+)\s*(?:(?:\.\.|-)\s*q?(\d+)\s*)?$/i.exec(item);
    if (m === null) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > 22 || from > to) return null;
    for (let q = from; q <= to; q++) out.push(`q${String(q).padStart(2, '0')}`);
  }
  return out;
}

/** The query texts by id (`q01` …), from bench/tpch/queries/. */
export function loadQueries(ids?: readonly string[]): Map<string, string> {
  const all = readdirSync(TPCH_QUERIES_DIR)
    .filter((f) => /^q\d\d\.sql$/.test(f))
    .sort();
  const out = new Map(all.map((f) => [f.slice(0, 3), readFileSync(join(TPCH_QUERIES_DIR, f), 'utf8')] as const));
  for (const id of ids ?? []) if (!out.has(id)) throw new Error(`no query ${id} (expected q01 … q22)`);
  return ids ? new Map(ids.map((id) => [id, out.get(id)!] as const)) : out;
}

export async function runTpch(opts: TpchOptions): Promise<TpchResults> {
  const { log } = opts;
  const date = new Date().toISOString();
  const machine = machineFacts();
  const queries = loadQueries(opts.queries);
  log(`TPC-H SF${opts.sf} (seed ${opts.seed}): generating or reusing the data…`);
  const data = await generateTpch({ sf: opts.sf, seed: opts.seed });
  log(data.generatedMs === null ? `  reused ${data.dir}` : `  generated in ${(data.generatedMs / 1000).toFixed(1)} s`);

  const extras = opts.extraEngines ?? [];
  const engines: EngineName[] = [...CORE_ENGINES, ...extras];
  const texts = new Map(extras.map((e) => [e, queriesFor(queries, loadVariants(e))] as const));
  const procs = {} as Record<EngineName, EngineProcess>;
  const loads = {} as Record<EngineName, Omit<EngineFacts, 'peakRssMiB'>>;
  for (const engine of engines) {
    procs[engine] = new EngineProcess({ type: 'load', engine, dir: data.dir, mode: opts.mode, threads: opts.threads });
    const loaded = await procs[engine].start();
    log(
      `  ${engine}: loaded (${opts.mode}) in ${(loaded.ms / 1000).toFixed(1)} s, RSS ${loaded.rssMiB.toFixed(0)} MiB`,
    );
    const threads = engine === 'floe' ? 1 : engine === 'duckdb' ? opts.threads : loaded.threads;
    loads[engine] = { loadMs: loaded.ms, rssAfterLoadMiB: loaded.rssMiB, dataMiB: loaded.dataMiB, threads };
  }

  const outcomes: QueryOutcome[] = [];
  try {
    for (const [id, sql] of queries) {
      const sqlOf = (e: EngineName) => texts.get(e as ExtraEngineName)?.get(id) ?? { sql, variant: false };
      const outcome = await runQuery(id, sqlOf, engines, opts, procs);
      outcomes.push(outcome);
      log(queryLine(outcome));
    }
  } finally {
    for (const proc of Object.values(procs)) await proc.stop();
  }
  const facts = (name: EngineName): EngineFacts => ({ ...loads[name], peakRssMiB: procs[name].peakRssMiB });
  const results: TpchResults = {
    kind: 'tpch',
    formatVersion: 1,
    label: opts.label,
    date,
    config: {
      sf: opts.sf,
      seed: opts.seed,
      mode: opts.mode,
      runs: opts.runs,
      warmups: opts.warmups,
      threads: opts.threads,
      generatorVersion: TPCH_GENERATOR_VERSION,
      timeoutS: opts.timeoutS,
      ...(extras.length > 0 ? { extraEngines: extras } : {}),
    },
    machine,
    data: { rows: data.rows, generatedS: data.generatedMs === null ? null : data.generatedMs / 1000 },
    engines: Object.fromEntries(engines.map((e) => [e, facts(e)])) as TpchResults['engines'],
    queries: outcomes,
    summary: summarize(outcomes),
  };
  log('');
  log(tpchReport(results));
  const notes = failureNotes(results);
  if (notes.length > 0) log(`\nfloe failed or differed:\n${notes.map((n) => `  ${n}`).join('\n')}`);
  if (extras.length > 0) log(`\n${extraReport(results)}`);
  return results;
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
  opts: TpchOptions,
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
   * themselves); undefined when either has no rows. */
  const mismatchOf = (name: EngineName) => {
    const w = warm[name];
    if (!('rows' in w && 'rows' in dw)) return undefined;
    const sql = sqlOf('duckdb').sql;
    const order = /\border\s+by\b/i.test(sql) ? (orderColumns(sql, dw.rows!.names) ?? true) : false;
    return compareRows(w.rows!, dw.rows!, order);
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
