// `npm run bench -- <command>`: the benchmark suite's entry point (built to dist/bench/cli.js).

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadClickBenchQueries, runClickBench } from './clickbench/run-clickbench.js';
import { generateHits } from './data/hits-gen.js';
import { generateTpch } from './data/tpch-gen.js';
import { hasWrk } from './http/load.js';
import { type FairnessResults, fairnessReport, runFairness } from './http/run-fairness.js';
import { type HttpResults, httpReport, runHttp } from './http/run-http.js';
import { type ResultFormatsResults, resultFormatsReport, runResultFormats } from './http/run-result-formats.js';
import { isMicroSummary, type MicroSummary, microReport } from './lib/micro-report.js';
import { readResults, saveResults } from './lib/results-file.js';
import type { DataMode } from './tpch/bench-engines.js';
import { compareTpch, comparisonReport } from './tpch/compare-tpch.js';
import { parseEngines } from './tpch/engine-names.js';
import { extraReport } from './tpch/extra-report.js';
import { runQueryPeaks } from './tpch/query-peaks.js';
import { parseQueryIds, runTpch } from './tpch/run-tpch.js';
import { type QueryBenchResults, tpchReport } from './tpch/tpch-results.js';

const USAGE = `usage: npm run bench -- <command> [options]

  tpch [--sf 1] [--mode files|memory|both] [--runs 5] [--warmups 3] [--threads 2] [--queries 1,6,12..14]
       [--timeout 300] [--seed 1] [--label NAME] [--no-save] [--no-plan-cache]
       [--engines floe,duckdb[,polars][,alasql]]
      The 22 TPC-H queries on floe and DuckDB, interleaved; writes bench/results/<date>-<label>.json
      (label default: tpch-sf<sf>-<mode>). Each engine runs a query --warmups times untimed (the first run's
      rows are compared with DuckDB's, its time kept as the cold time), then --runs timed. --threads is
      DuckDB's (floe runs a query on one thread, plus a helper for the aggregates it splits in memory mode, or
      one Parquet decode thread per core in files mode).
      --engines adds nodejs-polars (its pool: POLARS_MAX_THREADS, else one thread per core) and alasql (memory
      mode only; far too slow for SF1): timed beside floe, answers compared with DuckDB's, never failing the run.
      --no-plan-cache runs floe without its plan cache (each run planned, as DuckDB plans each run).
      The results file records the threads each engine used and whether floe's plan cache was on.
  clickbench [--rows 1000000] [--mode files|memory|both] [--runs 5] [--warmups 3] [--threads 2]
       [--queries 0,3,10..12] [--timeout 300] [--seed 1] [--label NAME] [--no-save] [--no-plan-cache]
      ClickBench's 43 queries (Q0 … Q42) on floe and DuckDB over a generated \`hits\` table (105 columns, cached
      under .floe/bench-data/hits-<rows>-seed<seed>-v<n>/), run as tpch runs (label default:
      clickbench-<rows>-<mode>); results compared with DuckDB's, rows tied at a LIMIT/OFFSET by their keys only.
  http [--sf 0.1] [--duration 5] [--connections 1,16,64] [--tool autocannon|wrk] [--workers N]
       [--seed 1] [--label NAME] [--no-save]
      /v1/sql requests/s and p50/p99 latency for small queries on floe, node:http + DuckDB and a
      uWebSockets.js hello world (tool default: wrk when installed, else autocannon).
  fairness [--sf 0.1] [--duration 10] [--heavy 4] [--workers N] [--label fairness] [--no-save]
      A point lookup's p50/p99 from one client, alone and while --heavy clients each run a second-long
      join back to back (results cache off); writes bench/results/<date>-<label>.json.
  formats [--rows 10000000] [--runs 3] [--workers N] [--label result-formats] [--no-save]
      One large result (\`SELECT * FROM wide\`: int64, int32, decimal, date, timestamp, bool, 2 text columns,
      generated once by DuckDB) fetched over POST /v1/sql as JSON, NDJSON and Arrow IPC (rows/s, MB/s, median
      of --runs), and DuckDB's in-process materialisation of the same rows for comparison.
  compare BASE.json NEW.json
      Per-query floe ÷ DuckDB ratios of two TPC-H (or two ClickBench) runs; exits 1 if a query got more than 15%
      slower, the geometric mean more than 5%, a query now fails or answers differently, or the runs differ
      in benchmark, scale factor, rows or mode.
  report FILE.json...
      Prints the tables of results files (tpch, http, or benny's micro/*.json, as one table) as Markdown.
  micro [NAME...]
      benny micro-benchmarks of the engine's hot paths on TPC-H SF0.1 (parquet-decode, filter, like,
      hash-aggregate, hash-join, sort, serialize); summaries go to bench/results/micro/<name>.json.
  peaks [--sf 10] [--mode files|memory] [--engines floe[,duckdb]] [--runs 0] [--threads 2] [--queries 1..22]
        [--timeout 900] [--seed 1] [--one-process]
      Each TPC-H query in a fresh process per engine: its time (first run, or the median of --runs after it)
      and the process's peak RSS, for checking a memory bound (answers are not compared: use tpch for that).
      --one-process loads the data once per engine and reports the peak so far after each query.
  gen [--sf 1] [--seed 1] [--hits ROWS]
      Generates (or finds cached) TPC-H data (or with --hits, a ClickBench hits table of ROWS rows) under
      .floe/bench-data/ and prints its row counts.`;

let [command, ...rest] = process.argv.slice(2);
const log = (line: string) => console.log(line);

async function main(): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) command = 'help';
  switch (command) {
    case 'tpch':
      return tpch(rest);
    case 'clickbench':
      return clickbench(rest);
    case 'compare': {
      const [base, next] = parseArgs({ args: rest, allowPositionals: true, options: {} }).positionals;
      if (!base || !next) return usage('compare needs two results files');
      const kinds = ['tpch', 'clickbench'] as const;
      const c = compareTpch(readResults<QueryBenchResults>(base, kinds), readResults<QueryBenchResults>(next, kinds));
      log(comparisonReport(c));
      return c.regressions.length > 0 ? 1 : 0;
    }
    case 'http':
      return http(rest);
    case 'fairness':
      return fairness(rest);
    case 'formats':
      return formats(rest);
    case 'micro': {
      const names = rest.length > 0 ? rest : MICRO_BENCHES;
      const unknown = names.filter((n) => !MICRO_BENCHES.includes(n));
      if (unknown.length > 0) return usage(`no micro-benchmark ${unknown.join(', ')}`);
      for (const name of names) {
        const suite = (await import(`./${name}.bench.js`)) as { default: () => Promise<void> };
        await suite.default();
      }
      return 0;
    }
    case 'report': {
      const micro: MicroSummary[] = [];
      for (const path of rest) {
        const r = JSON.parse(readFileSync(path, 'utf8')) as
          | QueryBenchResults
          | HttpResults
          | FairnessResults
          | ResultFormatsResults
          | MicroSummary;
        if (isMicroSummary(r)) micro.push(r);
        else if (r.kind === 'result-formats') log(`${resultFormatsReport(r)}\n`);
        else if (r.kind === 'fairness') log(`${fairnessReport(r)}\n`);
        else if (r.kind === 'http') log(`${httpReport(r)}\n`);
        else log(`${[tpchReport(r), extraReport(r)].filter((t) => t !== '').join('\n\n')}\n`);
      }
      if (micro.length > 0) log(microReport(micro));
      return 0;
    }
    case 'peaks':
      return peaks(rest);
    case 'gen': {
      const { values } = parseArgs({
        args: rest,
        options: { sf: { type: 'string', default: '1' }, seed: num('1'), hits: { type: 'string' } },
      });
      if (values.hits !== undefined) {
        const hits = await generateHits({ rows: Number(values.hits), seed: Number(values.seed) });
        log(hits.generatedMs === null ? `reused ${hits.dir}` : `generated ${hits.dir} in ${hits.generatedMs / 1000} s`);
        log(JSON.stringify({ hits: hits.rows }));
        return 0;
      }
      const data = await generateTpch({ sf: Number(values.sf), seed: Number(values.seed) });
      log(data.generatedMs === null ? `reused ${data.dir}` : `generated ${data.dir} in ${data.generatedMs / 1000} s`);
      log(JSON.stringify(data.rows));
      return 0;
    }
    case undefined:
    case '--help':
    case 'help':
      log(USAGE);
      return 0;
    default:
      return usage(`unknown command '${command}'`);
  }
}

/** bench/<name>.bench.ts files. */
const MICRO_BENCHES = ['parquet-decode', 'filter', 'like', 'hash-aggregate', 'hash-join', 'sort', 'serialize'];

const num = (def: string) => ({ type: 'string', default: def }) as const;

/** The options the TPC-H and ClickBench runners share (DuckDB gets 2 threads unless told otherwise). */
const RUN_OPTIONS = {
  mode: num('files'),
  runs: num('5'),
  warmups: num('3'),
  threads: num('2'),
  seed: num('1'),
  queries: { type: 'string' },
  timeout: num('300'),
  label: { type: 'string' },
  'no-save': { type: 'boolean', default: false },
  'no-plan-cache': { type: 'boolean', default: false },
} as const;

interface RunArgs {
  readonly modes: DataMode[];
  readonly warmups: number;
  readonly queries: string[] | undefined;
}

/** Checks the shared options; a string is the usage problem. `ids`: the runner's query numbers, and an example. */
function runArgs(
  values: { mode: string; warmups: string; queries?: string },
  ids: { first: number; last: number; example: string },
): RunArgs | string {
  const { first, last } = ids;
  const modes = values.mode === 'both' ? ['files', 'memory'] : [values.mode];
  if (!modes.every((m) => m === 'files' || m === 'memory')) return '--mode is files, memory or both';
  const warmups = Number(values.warmups);
  if (!Number.isInteger(warmups) || warmups < 1) return '--warmups is a whole number, at least 1';
  const queries = values.queries === undefined ? undefined : parseQueryIds(values.queries, first, last);
  if (queries === null) {
    return `--queries takes query numbers ${first}-${last} and ranges, e.g. ${ids.example}`;
  }
  return { modes: modes as DataMode[], warmups, queries };
}

async function tpch(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...RUN_OPTIONS, sf: num('1'), engines: num('floe,duckdb') },
  });
  let extraEngines: ReturnType<typeof parseEngines>;
  try {
    extraEngines = parseEngines(values.engines);
  } catch (e) {
    return usage((e as Error).message);
  }
  const checked = runArgs(values, { first: 1, last: 22, example: '1,6,12..14' });
  if (typeof checked === 'string') return usage(checked);
  const { modes, warmups, queries } = checked;
  for (const mode of modes) {
    const label = values.label ?? `tpch-sf${values.sf}-${mode}`;
    const results = await runTpch({
      sf: Number(values.sf),
      seed: Number(values.seed),
      mode,
      runs: Number(values.runs),
      warmups,
      threads: Number(values.threads),
      queries,
      timeoutS: Number(values.timeout),
      planCache: !values['no-plan-cache'],
      extraEngines,
      label,
      log,
    });
    if (!values['no-save']) log(`\nwrote ${saveResults(label, results)}`);
  }
  return 0;
}

async function clickbench(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...RUN_OPTIONS, rows: num('1000000') } });
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows < 1) return usage('--rows is a whole number, at least 1');
  const checked = runArgs(values, { first: 0, last: 42, example: '0,3,10..12' });
  if (typeof checked === 'string') return usage(checked);
  const { modes, warmups, queries } = checked;
  loadClickBenchQueries(queries);
  for (const mode of modes) {
    const label = values.label ?? `clickbench-${rows}-${mode}`;
    const results = await runClickBench({
      rows,
      seed: Number(values.seed),
      mode,
      runs: Number(values.runs),
      warmups,
      threads: Number(values.threads),
      queries,
      timeoutS: Number(values.timeout),
      planCache: !values['no-plan-cache'],
      label,
      log,
    });
    if (!values['no-save']) log(`\nwrote ${saveResults(label, results)}`);
  }
  return 0;
}

async function peaks(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      sf: num('10'),
      mode: num('files'),
      engines: num('floe'),
      runs: num('0'),
      threads: num('2'),
      seed: num('1'),
      queries: { type: 'string' },
      timeout: num('900'),
      'one-process': { type: 'boolean', default: false },
    },
  });
  const engines = values.engines.split(',').map((e) => e.trim());
  if (!engines.every((e) => e === 'floe' || e === 'duckdb')) return usage('--engines is floe, duckdb or both');
  if (values.mode !== 'files' && values.mode !== 'memory') return usage('--mode is files or memory');
  const queries = values.queries === undefined ? undefined : parseQueryIds(values.queries);
  if (queries === null) return usage('--queries takes query numbers 1-22 and ranges, e.g. 1,6,12..14');
  await runQueryPeaks({
    sf: Number(values.sf),
    seed: Number(values.seed),
    mode: values.mode,
    engines: engines as ('floe' | 'duckdb')[],
    threads: Number(values.threads),
    runs: Number(values.runs),
    queries,
    timeoutS: Number(values.timeout),
    oneProcess: values['one-process'],
    log,
  });
  return 0;
}

async function http(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      sf: num('0.1'),
      seed: num('1'),
      duration: num('5'),
      connections: num('1,16,64'),
      tool: { type: 'string' },
      workers: { type: 'string' },
      label: num('http'),
      'no-save': { type: 'boolean', default: false },
    },
  });
  const tool = values.tool ?? (hasWrk() ? 'wrk' : 'autocannon');
  if (tool !== 'wrk' && tool !== 'autocannon') return usage('--tool is autocannon or wrk');
  const results = await runHttp({
    sf: Number(values.sf),
    seed: Number(values.seed),
    durationS: Number(values.duration),
    connections: values.connections.split(',').map(Number),
    tool,
    workers: values.workers === undefined ? undefined : Number(values.workers),
    label: values.label,
    log,
  });
  log(`\n${httpReport(results)}`);
  if (!values['no-save']) log(`\nwrote ${saveResults(values.label, results)}`);
  return 0;
}

async function formats(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      rows: num('10000000'),
      runs: num('3'),
      workers: { type: 'string' },
      label: num('result-formats'),
      'no-save': { type: 'boolean', default: false },
    },
  });
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows < 1) return usage('--rows is a whole number, at least 1');
  const results = await runResultFormats({
    rows,
    runs: Number(values.runs),
    workers: values.workers === undefined ? undefined : Number(values.workers),
    label: values.label,
    log,
  });
  log(`\n${resultFormatsReport(results)}`);
  if (!values['no-save']) log(`\nwrote ${saveResults(values.label, results)}`);
  return 0;
}

async function fairness(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      sf: num('0.1'),
      seed: num('1'),
      duration: num('10'),
      heavy: num('4'),
      workers: { type: 'string' },
      label: num('fairness'),
      'no-save': { type: 'boolean', default: false },
    },
  });
  const results = await runFairness({
    sf: Number(values.sf),
    seed: Number(values.seed),
    durationS: Number(values.duration),
    heavyClients: Number(values.heavy),
    workers: values.workers === undefined ? undefined : Number(values.workers),
    label: values.label,
    log,
  });
  log(`\n${fairnessReport(results)}`);
  if (!values['no-save']) log(`\nwrote ${saveResults(values.label, results)}`);
  return 0;
}

function usage(problem: string): number {
  console.error(`${problem}\n\n${USAGE}`);
  return 2;
}

/** node:util parseArgs rejects an unknown or malformed option with an error of this code family. */
function isArgumentError(e: unknown): e is Error {
  return e instanceof Error && String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_');
}

try {
  process.exitCode = await main();
} catch (e) {
  if (!isArgumentError(e)) throw e;
  process.exitCode = usage(e.message);
}
