// `runTpch`: the 22 TPC-H queries on floe and on DuckDB over the same generated files, interleaved query by
// query (warm-up, then N timed runs each), with a per-query result check; writes the run to bench/results/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTpch, TPCH_GENERATOR_VERSION } from '../data/tpch-gen.js';
import { machineFacts } from '../lib/machine.js';
import { TPCH_QUERIES_DIR } from '../lib/paths.js';
import { compareRows } from '../lib/result-rows.js';
import { median } from '../lib/stats.js';
import type { DataMode, EngineName } from './bench-engines.js';
import type { ChildReply } from './engine-child.js';
import { EngineProcess } from './engine-process.js';
import {
  type EngineFacts,
  type EngineOutcome,
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
  readonly threads: number;
  /** Query ids to run (`q01`…); default all 22. */
  readonly queries?: readonly string[];
  /** A query slower than this is cancelled (floe) and counted as failed. */
  readonly timeoutS: number;
  readonly label: string;
  readonly log: (line: string) => void;
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

  const procs = {} as Record<EngineName, EngineProcess>;
  const loads = {} as Record<EngineName, { loadMs: number; rssAfterLoadMiB: number; dataMiB: number | null }>;
  for (const engine of ['floe', 'duckdb'] as const) {
    procs[engine] = new EngineProcess({ type: 'load', engine, dir: data.dir, mode: opts.mode, threads: opts.threads });
    const loaded = await procs[engine].start();
    log(
      `  ${engine}: loaded (${opts.mode}) in ${(loaded.ms / 1000).toFixed(1)} s, RSS ${loaded.rssMiB.toFixed(0)} MiB`,
    );
    loads[engine] = { loadMs: loaded.ms, rssAfterLoadMiB: loaded.rssMiB, dataMiB: loaded.dataMiB };
  }

  const outcomes: QueryOutcome[] = [];
  try {
    for (const [id, sql] of queries) {
      const outcome = await runQuery(id, sql, opts, procs);
      outcomes.push(outcome);
      const f = medianOf(outcome.floe);
      log(
        `${id}  floe ${f === null ? 'failed' : `${ms(f)} ms`}  DuckDB ${ms(medianOf(outcome.duckdb))} ms  ` +
          `${times(outcome.ratio)}  ${outcome.identical === null ? '' : outcome.identical ? 'same result' : 'DIFFERENT RESULT'}`,
      );
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
      threads: opts.threads,
      generatorVersion: TPCH_GENERATOR_VERSION,
      timeoutS: opts.timeoutS,
    },
    machine,
    data: { rows: data.rows, generatedS: data.generatedMs === null ? null : data.generatedMs / 1000 },
    engines: { floe: facts('floe'), duckdb: facts('duckdb') },
    queries: outcomes,
    summary: summarize(outcomes),
  };
  log('');
  log(tpchReport(results));
  const notes = failureNotes(results);
  if (notes.length > 0) log(`\nfloe failed or differed:\n${notes.map((n) => `  ${n}`).join('\n')}`);
  return results;
}

/** Warm-up (rows collected and compared), then `runs` timed runs, floe and DuckDB in turn. */
async function runQuery(
  id: string,
  sql: string,
  opts: TpchOptions,
  procs: Record<EngineName, EngineProcess>,
): Promise<QueryOutcome> {
  const timeoutMs = opts.timeoutS * 1000;
  const attempt = async (name: EngineName, collect: boolean) => {
    const proc = procs[name];
    try {
      // The child cancels floe at timeoutMs; the hard limit is for a query stuck between two cancellation checks.
      return (await proc.request({ type: 'run', sql, collect, timeoutMs }, timeoutMs * 2 + 60_000)) as Extract<
        ChildReply,
        { type: 'ran' }
      >;
    } catch (e) {
      // A killed or crashed child takes its data with it: start a fresh one for the next query.
      if (!proc.running) await proc.restart();
      return { error: (e as Error).message };
    }
  };
  const warm = { floe: await attempt('floe', true), duckdb: await attempt('duckdb', true) };
  const runs: Record<EngineName, number[]> = { floe: [], duckdb: [] };
  const failed: Partial<Record<EngineName, string>> = {};
  for (const name of ['floe', 'duckdb'] as const) {
    const w = warm[name];
    if ('error' in w) failed[name] = w.error;
  }
  for (let r = 0; r < opts.runs; r++) {
    for (const name of ['floe', 'duckdb'] as const) {
      if (failed[name] !== undefined) continue;
      const out = await attempt(name, false);
      if ('error' in out) failed[name] = out.error;
      else runs[name].push(out.ms);
    }
  }
  const outcome = (name: EngineName): EngineOutcome =>
    failed[name] !== undefined ? { error: failed[name] } : { medianMs: median(runs[name]), runsMs: runs[name] };
  const floe = outcome('floe');
  const duckdb = outcome('duckdb');
  const bothRan = !('error' in floe) && !('error' in duckdb);
  const fw = warm.floe;
  const dw = warm.duckdb;
  const mismatch =
    bothRan && 'rows' in fw && 'rows' in dw ? compareRows(fw.rows!, dw.rows!, /\border\s+by\b/i.test(sql)) : null;
  return {
    id,
    floe,
    duckdb,
    ratio: bothRan ? floe.medianMs / duckdb.medianMs : null,
    identical: bothRan ? mismatch === null : null,
    ...(mismatch ? { mismatch } : {}),
    rows: 'rowCount' in dw ? dw.rowCount : null,
  };
}
