// `runHttp`: POST /v1/sql under load for small queries: floe (the real CLI, accelerated TPC-H tables), node:http +
// DuckDB (in-memory tables) and a uWebSockets.js hello world, one server at a time, 1/16/64 connections each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { generateTpch, TPCH_TABLES } from '../data/tpch-gen.js';
import { machineFacts, machineLine } from '../lib/machine.js';
import { REPO_ROOT } from '../lib/paths.js';
import type { ResultsHeader } from '../lib/results-file.js';
import { formatTable } from '../lib/table.js';
import { drive, type LoadResult, type LoadTool } from './load.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

/** The small queries, and how many rows each must answer (checked before any load). */
export const HTTP_QUERIES = [
  // orderKey(1000) = 4000: order keys are sparse, this one exists at every scale factor.
  { id: 'point', title: 'point lookup (orders by key)', sql: 'SELECT * FROM orders WHERE o_orderkey = 4000', rows: 1 },
  {
    id: 'aggregate',
    title: 'small aggregate (nation)',
    sql: 'SELECT n_regionkey, count(*) AS nations FROM nation GROUP BY n_regionkey ORDER BY n_regionkey',
    rows: 5,
  },
  {
    id: 'rows1000',
    title: '1,000-row result (customer)',
    sql: 'SELECT c_custkey, c_name, c_nationkey, c_phone, c_acctbal, c_mktsegment FROM customer LIMIT 1000',
    rows: 1000,
  },
] as const;

type HttpQuery = { readonly id: string; readonly sql: string };

export type HttpServerName = 'floe' | 'node:http + DuckDB' | 'uWS hello world';

export interface HttpRow extends LoadResult {
  readonly server: HttpServerName;
  readonly query: string;
  /** floe's results cache (`runtime.caching.sql_results.enabled`); 'n/a' for the references. */
  readonly cache: 'off' | 'on' | 'n/a';
  readonly connections: number;
  /** How long the server kept working on requests the load generator had given up on (see `settle`). */
  readonly settleMs: number;
}

export interface HttpResults extends ResultsHeader<'http'> {
  readonly config: {
    readonly sf: number;
    readonly seed: number;
    readonly durationS: number;
    readonly connections: readonly number[];
    readonly tool: LoadTool;
    readonly floeWorkers: number | null;
  };
  readonly rows: readonly HttpRow[];
  readonly notes: readonly string[];
}

export interface HttpOptions {
  readonly sf: number;
  readonly seed: number;
  readonly durationS: number;
  readonly connections: readonly number[];
  readonly tool: LoadTool;
  /** floe's query workers; default the CLI's (one per core). */
  readonly workers?: number;
  readonly label: string;
  readonly log: (line: string) => void;
}

const CACHE_NOTE =
  "floe cache on: Spice's defaults (128 MiB, 1 s TTL): wrk repeats one body, so all but about one request a second are hits";
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export async function runHttp(opts: HttpOptions): Promise<HttpResults> {
  const { log } = opts;
  const date = new Date().toISOString();
  const machine = machineFacts();
  const data = await generateTpch({ sf: opts.sf, seed: opts.seed });
  const rows: HttpRow[] = [];
  type Cache = HttpRow['cache'];
  const measure = async (server: HttpServerName, cache: Cache, port: number, queries: readonly HttpQuery[]) => {
    const url = `http://127.0.0.1:${port}/v1/sql`;
    for (const q of queries) {
      // A short warm-up: JIT, worker threads and connection set-up out of the measured window.
      await drive(opts.tool, { url, body: q.sql, connections: 16, durationS: 1 });
      await settle(url);
      for (const connections of opts.connections) {
        const r = await drive(opts.tool, { url, body: q.sql, connections, durationS: opts.durationS });
        const settleMs = await settle(url);
        rows.push({ server, query: q.id, cache, connections, ...r, settleMs });
        log(
          `  ${server}${cache === 'n/a' ? '' : ` (cache ${cache})`} ${q.id} c=${connections}: ` +
            `${r.requestsPerSec.toFixed(0)} req/s, ` +
            `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms` +
            (r.errors + r.non2xx > 0 ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : '') +
            (settleMs > 1000 ? `; busy ${(settleMs / 1000).toFixed(1)} s more with abandoned requests` : ''),
        );
      }
    }
  };
  const serve = async (name: HttpServerName, cache: Cache, start: () => Promise<ServerProcess>, check: boolean) => {
    log(`${name}${cache === 'n/a' ? '' : ` (cache ${cache})`}: starting`);
    const server = await start();
    try {
      if (check) for (const q of HTTP_QUERIES) await checkAnswer(name, server.port, q);
      await measure(name, cache, server.port, check ? HTTP_QUERIES : [{ id: 'hello', sql: HTTP_QUERIES[0].sql }]);
    } finally {
      await server.stop();
    }
  };
  const hello = () => startServerProcess([here('./uws-hello-server.js')], /listening (\d+)/);
  await serve('uWS hello world', 'n/a', hello, false);
  await serve('floe', 'off', () => startFloe(data.dir, opts.workers, false), true);
  await serve('floe', 'on', () => startFloe(data.dir, opts.workers, true), true);
  const duckdbArgs = [here('./duckdb-http-server.js'), data.dir];
  await serve('node:http + DuckDB', 'n/a', () => startServerProcess(duckdbArgs, /listening (\d+)/), true);
  return {
    kind: 'http',
    formatVersion: 1,
    label: opts.label,
    date,
    config: {
      sf: opts.sf,
      seed: opts.seed,
      durationS: opts.durationS,
      connections: opts.connections,
      tool: opts.tool,
      floeWorkers: opts.workers ?? null,
    },
    machine,
    rows,
    notes: [CACHE_NOTE],
  };
}

/**
 * Waits until the server has finished what the load generator left behind: requests still queued or running
 * when it stopped (their clients gone) would otherwise slow the next measurement. Four concurrent `SELECT 1`
 * reach every worker (queues are first in, first out); returns how long they took.
 */
async function settle(url: string): Promise<number> {
  const started = performance.now();
  const ping = () => fetch(url, { method: 'POST', body: 'SELECT 1', signal: AbortSignal.timeout(600_000) });
  await Promise.all(Array.from({ length: 4 }, () => ping().then((r) => r.arrayBuffer())));
  return performance.now() - started;
}

/** The floe CLI over a manifest with every TPC-H table accelerated, the results cache on or off. */
export function startFloe(dir: string, workers: number | undefined, cache: boolean): Promise<ServerProcess> {
  const manifest = join(dir, `floe-http-bench-cache-${cache ? 'on' : 'off'}.yaml`);
  const datasets = TPCH_TABLES.map((name) => ({ name, from: `file:${name}`, acceleration: { enabled: true } }));
  const runtime = { caching: { sql_results: { enabled: cache } } };
  // JSON is YAML: the manifest is written as JSON.
  writeFileSync(manifest, JSON.stringify({ version: 'v1', kind: 'Spicepod', name: 'http-bench', datasets, runtime }));
  const args = [
    ...SERVER_NODE_FLAGS,
    join(REPO_ROOT, 'dist/server/cli.js'),
    'run',
    '--manifest',
    manifest,
    '--http',
    '127.0.0.1:0',
    // Metrics on, as `floe run` defaults, on a free port (9090 may be taken).
    '--metrics',
    '127.0.0.1:0',
    '--flight',
    'off',
  ];
  if (workers !== undefined) args.push('--workers', String(workers));
  return startServerProcess(args, /floe ready: http:\/\/127\.0\.0\.1:(\d+)/);
}

/** One request before the load: the server must answer 200 with the expected number of JSON rows. */
async function checkAnswer(server: string, port: number, q: (typeof HTTP_QUERIES)[number]): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/sql`, { method: 'POST', body: q.sql });
  const text = await res.text();
  const rows = res.ok ? (JSON.parse(text) as unknown[]).length : -1;
  if (rows !== q.rows)
    throw new Error(`${server} answered ${q.id} with ${res.status} (${rows} rows): ${text.slice(0, 300)}`);
}

/** requests/s and p50 / p99 latency per server, query and connection count, as Markdown. */
export function httpReport(r: HttpResults): string {
  const title = (id: string) => HTTP_QUERIES.find((q) => q.id === id)?.title ?? 'any request → fixed body';
  const groups = new Map<string, HttpRow[]>();
  for (const row of r.rows) {
    const key = `${row.server}\u0000${row.query}\u0000${row.cache}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const fmt = (x: number) => (Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(1));
  const cell = (row: HttpRow | undefined) =>
    row === undefined
      ? '—'
      : `${Math.round(row.requestsPerSec).toLocaleString('en')} (${fmt(row.p50Ms)} / ${fmt(row.p99Ms)})` +
        (row.errors + row.non2xx > 0 ? ' !' : '');
  const table = formatTable(
    ['Server', 'Query', 'Cache', ...r.config.connections.map((c) => `${c} conn: req/s (p50 / p99 ms)`)],
    [...groups.values()].map((g) => [
      g[0]!.server,
      title(g[0]!.query),
      g[0]!.cache,
      ...r.config.connections.map((c) => cell(g.find((row) => row.connections === c))),
    ]),
  );
  return [
    `POST /v1/sql on loopback, ${r.config.tool}, ${r.config.durationS} s per cell, TPC-H SF${r.config.sf} ` +
      `(floe: tables accelerated, workers: ${r.config.floeWorkers ?? 'one per core'}; DuckDB: tables in memory)`,
    '',
    table,
    '',
    ...r.notes.map((n) => `- ${n}`),
    `- ${machineLine(r.machine)}`,
    ...(r.rows.some((row) => row.errors + row.non2xx > 0)
      ? ['- `!`: some requests failed or answered non-2xx (see the JSON).']
      : []),
  ].join('\n');
}
