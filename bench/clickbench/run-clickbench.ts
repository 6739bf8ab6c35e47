// `runClickBench`: ClickBench's 43 queries (queries.sql, PostgreSQL dialect) on floe and DuckDB over a generated
// `hits` table, run as the TPC-H runner runs its queries (tpch/run-queries.ts), into the same results file shape.
import { readFileSync } from 'node:fs';
import { generateHits, HITS_GENERATOR_VERSION } from '../data/hits-gen.js';
import { machineFacts } from '../lib/machine.js';
import { CLICKBENCH_QUERIES_FILE } from '../lib/paths.js';
import { CORE_ENGINES } from '../tpch/engine-names.js';
import { type RunSettings, runQueries } from '../tpch/run-queries.js';
import { type ClickBenchResults, failureNotes, summarize, tpchReport } from '../tpch/tpch-results.js';

/** ClickBench numbers its queries from 0 (Q0 … Q42); ids here are `q00` … `q42`. */
export const CLICKBENCH_LAST_QUERY = 42;

export interface ClickBenchOptions extends RunSettings {
  readonly rows: number;
  readonly seed: number;
  /** Query ids to run (`q00`…); default all 43. */
  readonly queries?: readonly string[];
  readonly label: string;
}

/** The query texts by id (`q00` … `q42`), one a line of bench/clickbench/queries.sql. */
export function loadClickBenchQueries(ids?: readonly string[], file = CLICKBENCH_QUERIES_FILE): Map<string, string> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const all = new Map<string, string>(lines.map((sql, i) => [`q${String(i).padStart(2, '0')}`, sql]));
  for (const id of ids ?? []) if (!all.has(id)) throw new Error(`no query ${id} (expected q00 … q42)`);
  return ids ? new Map(ids.map((id) => [id, all.get(id)!] as const)) : all;
}

export async function runClickBench(opts: ClickBenchOptions): Promise<ClickBenchResults> {
  const { log } = opts;
  const date = new Date().toISOString();
  const machine = machineFacts();
  const queries = loadClickBenchQueries(opts.queries);
  log(`ClickBench hits, ${opts.rows} rows (seed ${opts.seed}): generating or reusing the data…`);
  const data = await generateHits({ rows: opts.rows, seed: opts.seed });
  log(data.generatedMs === null ? `  reused ${data.dir}` : `  generated in ${(data.generatedMs / 1000).toFixed(1)} s`);
  const ran = await runQueries({ dir: data.dir, tables: ['hits'] }, queries, CORE_ENGINES, opts);
  const results: ClickBenchResults = {
    kind: 'clickbench',
    benchmark: 'clickbench',
    formatVersion: 1,
    label: opts.label,
    date,
    config: {
      rows: opts.rows,
      seed: opts.seed,
      mode: opts.mode,
      runs: opts.runs,
      warmups: opts.warmups,
      threads: opts.threads,
      generatorVersion: HITS_GENERATOR_VERSION,
      timeoutS: opts.timeoutS,
      planCache: opts.planCache,
    },
    machine,
    data: { rows: { hits: data.rows }, generatedS: data.generatedMs === null ? null : data.generatedMs / 1000 },
    engines: ran.engines as ClickBenchResults['engines'],
    queries: ran.outcomes,
    summary: summarize(ran.outcomes),
  };
  log('');
  log(tpchReport(results));
  const notes = failureNotes(results);
  if (notes.length > 0) log(`\nfloe failed or differed:\n${notes.map((n) => `  ${n}`).join('\n')}`);
  return results;
}
