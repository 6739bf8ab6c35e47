// `runTpch`: the 22 TPC-H queries on floe and on DuckDB (and on request polars, alasql) over the same generated
// files (run-queries.ts: interleaved query by query, warm-ups, N timed runs each, results checked against DuckDB).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTpch, TPCH_GENERATOR_VERSION, TPCH_TABLES } from '../data/tpch-gen.js';
import { machineFacts } from '../lib/machine.js';
import { TPCH_QUERIES_DIR } from '../lib/paths.js';
import type { DataMode } from './bench-engines.js';
import { CORE_ENGINES, type EngineName, type ExtraEngineName } from './engine-names.js';
import { extraReport } from './extra-report.js';
import { loadVariants, queriesFor } from './query-variants.js';
import { runQueries } from './run-queries.js';
import { failureNotes, summarize, type TpchResults, tpchReport } from './tpch-results.js';

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
  /** False: floe runs without its plan cache (default true). */
  readonly planCache?: boolean;
  /** Engines to run beside floe and DuckDB; their answers are compared with DuckDB's but never fail the run. */
  readonly extraEngines?: readonly ExtraEngineName[];
  readonly label: string;
  readonly log: (line: string) => void;
}

/**
 * `1,6,q12..14` (or `12-14`) as query ids `q01`, `q06`, `q12` … `q14`; null when an item is not in
 * [first, last] (TPC-H: 1-22) or a range of them.
 */
export function parseQueryIds(text: string, first = 1, last = 22): string[] | null {
  const out: string[] = [];
  for (const item of text.split(',')) {
    const m = /^\s*q?(\d+)\s*(?:(?:\.\.|-)\s*q?(\d+)\s*)?$/i.exec(item);
    if (m === null) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < first || to > last || from > to) return null;
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
  const settings = { ...opts, planCache: opts.planCache ?? true };
  const ran = await runQueries({ dir: data.dir, tables: TPCH_TABLES }, queries, engines, settings, (e, id) =>
    texts.get(e as ExtraEngineName)?.get(id),
  );
  const outcomes = ran.outcomes;
  const results: TpchResults = {
    kind: 'tpch',
    benchmark: 'tpch',
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
      planCache: settings.planCache,
      ...(extras.length > 0 ? { extraEngines: extras } : {}),
    },
    machine,
    data: { rows: data.rows, generatedS: data.generatedMs === null ? null : data.generatedMs / 1000 },
    engines: ran.engines as TpchResults['engines'],
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
