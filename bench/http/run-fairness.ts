// `runFairness`: a point lookup's latency alone and beside heavy clients (second-long joins), on the floe CLI.
import { generateTpch } from '../data/tpch-gen.js';
import { machineFacts, machineLine } from '../lib/machine.js';
import type { ResultsHeader } from '../lib/results-file.js';
import { HTTP_QUERIES, startFloe } from './run-http.js';

/** A self-join of orders on the customer (2.6 M pairs at SF0.1): about half a second to a second on one core. */
export const HEAVY_SQL = 'SELECT count(*) AS n FROM orders a JOIN orders b ON a.o_custkey = b.o_custkey';

export interface FairnessRow {
  readonly heavyClients: number;
  readonly lookups: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Heavy queries finished during the window, and their median time. */
  readonly heavyDone: number;
  readonly heavyP50Ms: number;
  readonly errors: number;
}

export interface FairnessResults extends ResultsHeader<'fairness'> {
  readonly config: { readonly sf: number; readonly durationS: number; readonly workers: number | null };
  readonly heavySql: string;
  readonly lookupSql: string;
  readonly rows: readonly FairnessRow[];
}

export interface FairnessOptions {
  readonly sf: number;
  readonly seed: number;
  readonly durationS: number;
  /** Heavy clients in the loaded run (default 4). */
  readonly heavyClients: number;
  readonly workers?: number;
  readonly label: string;
  readonly log: (line: string) => void;
}

/**
 * One client sends point lookups back to back (results cache off) for `durationS`: first alone, then while
 * `heavyClients` clients each run the heavy join back to back. Latency is measured at the client.
 */
export async function runFairness(opts: FairnessOptions): Promise<FairnessResults> {
  const date = new Date().toISOString();
  const data = await generateTpch({ sf: opts.sf, seed: opts.seed });
  const server = await startFloe(data.dir, opts.workers, false);
  const url = `http://127.0.0.1:${server.port}/v1/sql`;
  const lookup = HTTP_QUERIES[0].sql;
  const rows: FairnessRow[] = [];
  try {
    // Warm-up: JIT, and the pool learns both statements' costs.
    await loop(url, lookup, 1000);
    await loop(url, HEAVY_SQL, 1);
    for (const heavyClients of [0, opts.heavyClients]) {
      const row = await measure(url, lookup, heavyClients, opts.durationS * 1000);
      rows.push(row);
      opts.log(
        `  point lookup with ${heavyClients} heavy clients: ${row.lookups} lookups, p50 ${row.p50Ms.toFixed(2)} ms, ` +
          `p99 ${row.p99Ms.toFixed(2)} ms, max ${row.maxMs.toFixed(1)} ms; heavy: ${row.heavyDone} done, ` +
          `p50 ${row.heavyP50Ms.toFixed(0)} ms${row.errors > 0 ? `; ${row.errors} errors` : ''}`,
      );
    }
  } finally {
    await server.stop();
  }
  return {
    kind: 'fairness',
    formatVersion: 1,
    label: opts.label,
    date,
    machine: machineFacts(),
    config: { sf: opts.sf, durationS: opts.durationS, workers: opts.workers ?? null },
    heavySql: HEAVY_SQL,
    lookupSql: lookup,
    rows,
  };
}

async function measure(url: string, lookup: string, heavyClients: number, ms: number): Promise<FairnessRow> {
  const until = performance.now() + ms;
  const heavy = Array.from({ length: heavyClients }, () => loopUntil(url, HEAVY_SQL, until));
  // Let the heavy clients take the workers first.
  if (heavyClients > 0) await new Promise((r) => setTimeout(r, 200));
  const light = await loopUntil(url, lookup, until);
  const heavyTimes = (await Promise.all(heavy)).flatMap((h) => h.times);
  const errors = light.errors + (await Promise.all(heavy)).reduce((n, x) => n + x.errors, 0);
  const t = light.times.sort((a, b) => a - b);
  const at = (p: number) => (t.length === 0 ? Number.NaN : t[Math.ceil(p * t.length) - 1]!);
  const h = heavyTimes.sort((a, b) => a - b);
  return {
    heavyClients,
    lookups: t.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: t.at(-1) ?? Number.NaN,
    heavyDone: h.length,
    heavyP50Ms: h.length === 0 ? Number.NaN : h[Math.floor(h.length / 2)]!,
    errors,
  };
}

/** Sends `sql` back to back until `until`; times of 200 answers and the count of others. */
async function loopUntil(url: string, sql: string, until: number): Promise<{ times: number[]; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', body: sql });
    await res.arrayBuffer();
    if (res.status === 200) times.push(performance.now() - started);
    else errors++;
  }
  return { times, errors };
}

async function loop(url: string, sql: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await (await fetch(url, { method: 'POST', body: sql })).arrayBuffer();
}

/** The two rows as Markdown lines. */
export function fairnessReport(r: FairnessResults): string {
  const lines = r.rows.map(
    (row) =>
      `| ${row.heavyClients} | ${row.lookups} | ${row.p50Ms.toFixed(2)} | ${row.p99Ms.toFixed(2)} | ` +
      `${row.maxMs.toFixed(1)} | ${row.heavyDone} | ${row.heavyP50Ms.toFixed(0)} |`,
  );
  return [
    `Point lookup (\`${r.lookupSql}\`) beside heavy clients (\`${r.heavySql}\`), TPC-H SF${r.config.sf}, ` +
      `${r.config.durationS} s each, workers: ${r.config.workers ?? 'one per core'}, results cache off`,
    '',
    '| Heavy clients | Lookups | p50 ms | p99 ms | max ms | Heavy done | Heavy p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    '',
    `- ${machineLine(r.machine)}`,
  ].join('\n');
}
