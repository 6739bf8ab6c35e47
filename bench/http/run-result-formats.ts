// `runResultFormats`: one large result (10 M rows of typed columns) fetched over POST /v1/sql as JSON, NDJSON and
// Arrow IPC and over Flight DoGet, beside DuckDB materialising the same result in process; the median of 3 runs each.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { DEFAULT_BENCH_DATA_DIR } from '../data/tpch-gen.js';
import { machineFacts, machineLine } from '../lib/machine.js';
import { REPO_ROOT } from '../lib/paths.js';
import type { ResultsHeader } from '../lib/results-file.js';
import { median } from '../lib/stats.js';
import { fetchArrow, fetchCounting, fetchFlight, type ResultFetcher } from './result-fetchers.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

/** The result: every row and column of the generated table (8 columns: int64, int32, decimal, date, ...). */
export const RESULT_SQL = 'SELECT * FROM wide';

/**
 * The transports timed, in report order. Each gets the running floe server and the SQL and returns the rows and
 * bytes it received (Flight DoGet reads the Flight port from `FloeServer`).
 */
export const RESULT_FETCHERS: ResultFetcher[] = [
  { name: 'HTTP JSON', run: (s, sql) => fetchCounting(s.httpUrl, sql, 'application/json', 0x7d) },
  { name: 'HTTP NDJSON', run: (s, sql) => fetchCounting(s.httpUrl, sql, 'application/x-ndjson', 0x0a) },
  { name: 'HTTP Arrow IPC', run: (s, sql) => fetchArrow(s.httpUrl, sql) },
  { name: 'Flight DoGet', run: (s, sql) => fetchFlight(s.flightPort, sql) },
];

const WARM_UP_ROWS = 200_000;

export interface FormatRow {
  readonly transport: string;
  readonly rows: number;
  /** Bytes received (for DuckDB: none, the result stays in process). */
  readonly bytes: number;
  readonly runsMs: readonly number[];
  readonly medianMs: number;
}

export interface ResultFormatsResults extends ResultsHeader<'result-formats'> {
  readonly config: { readonly rows: number; readonly runs: number; readonly workers: number | null };
  readonly sql: string;
  readonly rows: readonly FormatRow[];
}

export interface ResultFormatsOptions {
  readonly rows: number;
  readonly runs: number;
  readonly workers?: number;
  readonly label: string;
  readonly log: (line: string) => void;
}

/**
 * Generates (or reuses) the table as Parquet with DuckDB, serves it accelerated from the floe CLI (results cache
 * off, so every run computes), fetches the result `runs` times per transport after one untimed smaller fetch, then stops floe and times DuckDB's
 * `runAndReadAll` of the same query over the same rows loaded into an in-memory table (native chunks, no
 * conversion to JS values).
 */
export async function runResultFormats(opts: ResultFormatsOptions): Promise<ResultFormatsResults> {
  const date = new Date().toISOString();
  const file = await generateWide(opts.rows, opts.log);
  const rows: FormatRow[] = [];
  const server = await startFloeOver(file, opts.workers);
  try {
    const flightPort = Number(/floe flight: grpc:\/\/127\.0\.0\.1:(\d+)/.exec(server.output)?.[1]);
    const floe = { httpUrl: `http://127.0.0.1:${server.port}/v1/sql`, flightPort };
    for (const fetcher of RESULT_FETCHERS) {
      // Warm-up (untimed): the JIT, and the first query's plan.
      await fetcher.run(floe, `${RESULT_SQL} LIMIT ${WARM_UP_ROWS}`);
      rows.push(await timeRuns(fetcher.name, opts, () => fetcher.run(floe, RESULT_SQL)));
    }
  } finally {
    await server.stop();
  }
  rows.push(await timeDuckDb(file, opts));
  return {
    kind: 'result-formats',
    formatVersion: 1,
    label: opts.label,
    date,
    machine: machineFacts(),
    config: { rows: opts.rows, runs: opts.runs, workers: opts.workers ?? null },
    sql: RESULT_SQL,
    rows,
  };
}

async function timeRuns(
  transport: string,
  opts: ResultFormatsOptions,
  run: () => Promise<{ rows: number; bytes: number }>,
): Promise<FormatRow> {
  const runsMs: number[] = [];
  let last = { rows: 0, bytes: 0 };
  for (let i = 0; i < opts.runs; i++) {
    const started = performance.now();
    last = await run();
    runsMs.push(performance.now() - started);
    if (last.rows !== opts.rows) throw new Error(`${transport} received ${last.rows} rows, not ${opts.rows}`);
  }
  const row = { transport, rows: last.rows, bytes: last.bytes, runsMs, medianMs: median(runsMs) };
  opts.log(`  ${transport}: ${runsMs.map((ms) => (ms / 1000).toFixed(2)).join(' / ')} s, ${mb(row.bytes)} MB`);
  return row;
}

async function timeDuckDb(file: string, opts: ResultFormatsOptions): Promise<FormatRow> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`CREATE TABLE wide AS SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`);
    return await timeRuns('DuckDB materialisation (in process)', opts, async () => {
      const reader = await conn.runAndReadAll(RESULT_SQL);
      return { rows: reader.currentRowCount, bytes: 0 };
    });
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** `.floe/bench-data/result-formats-<rows>-v1/wide.parquet`, written by DuckDB once (10% NULL prices). */
async function generateWide(rows: number, log: (line: string) => void): Promise<string> {
  const dir = join(DEFAULT_BENCH_DATA_DIR, `result-formats-${rows}-v1`);
  const file = join(dir, 'wide.parquet');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  log(`generating ${rows} rows into ${file}`);
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`COPY (${wideSql(rows)}) TO '${file}.tmp' (FORMAT parquet)`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  renameSync(`${file}.tmp`, file);
  return file;
}

function wideSql(rows: number): string {
  return `SELECT i::BIGINT AS id, (i % 50 + 1)::INTEGER AS qty,
    CASE WHEN i % 10 = 0 THEN NULL ELSE ((i * 7919) % 100000000 / 100)::DECIMAL(15,2) END AS price,
    DATE '1992-01-01' + (i % 2500)::INTEGER AS ship,
    make_timestamp(694224000000000 + (i * 104729) % 220000000000000) AS ts,
    i % 3 = 0 AS flag,
    ['AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'][i % 7 + 1] AS mode,
    'note ' || ((i * 2654435761) % 1000000007)::VARCHAR AS note
  FROM range(${rows}) t(i)`;
}

/** The floe CLI serving `file` as the accelerated dataset `wide`, results cache off. */
function startFloeOver(file: string, workers: number | undefined): Promise<ServerProcess> {
  const manifest = join(file, '..', 'floe-result-formats.yaml');
  const datasets = [{ name: 'wide', from: `file:${file}`, acceleration: { enabled: true } }];
  const runtime = { caching: { sql_results: { enabled: false } } };
  // JSON is YAML: the manifest is written as JSON.
  writeFileSync(
    manifest,
    JSON.stringify({ version: 'v1', kind: 'Spicepod', name: 'formats-bench', datasets, runtime }),
  );
  const args = [...SERVER_NODE_FLAGS, join(REPO_ROOT, 'dist/server/cli.js'), 'run', '--manifest', manifest];
  args.push('--http', '127.0.0.1:0', '--metrics', '127.0.0.1:0', '--flight', '127.0.0.1:0');
  if (workers !== undefined) args.push('--workers', String(workers));
  return startServerProcess(args, /floe ready: http:\/\/127\.0\.0\.1:(\d+)/);
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);

/** The rows as a Markdown table: median time, rows/s, MB/s and size per transport. */
export function resultFormatsReport(r: ResultFormatsResults): string {
  const lines = r.rows.map((row) => {
    const s = row.medianMs / 1000;
    const rate = row.bytes === 0 ? '—' : (row.bytes / 1e6 / s).toFixed(0);
    return `| ${row.transport} | ${s.toFixed(2)} | ${(row.rows / s / 1e6).toFixed(2)} M | ${rate} | ${row.bytes === 0 ? '—' : mb(row.bytes)} |`;
  });
  return [
    `\`${r.sql}\`: ${r.config.rows.toLocaleString('en')} rows (int64, int32, decimal(15,2) 10% NULL, date, timestamp, ` +
      `bool, 2 text), median of ${r.config.runs}; floe workers: ${r.config.workers ?? 'one per core'}, results cache off`,
    '',
    '| Transport | Median s | Rows/s | MB/s | MB |',
    '|---|---|---|---|---|',
    ...lines,
    '',
    `- ${machineLine(r.machine)}`,
  ].join('\n');
}
