// RSS of a serving floe process while an accelerated table is replaced again and again (issue 32: memory freed).
//
// Usage: node dist/bench/catalog-replace.js [--rows N] [--times K] [--workers W] [--json]
// Writes N rows (default 3,000,000: about 77 MiB loaded) as Parquet under bench/results/tmp/ once, then a child
// process (run with --expose-gc) serves them accelerated, runs an aggregate on every worker (and so on their
// parallel helpers), reloads the table from its source K times (default 20), querying after each, and reports RSS
// after a forced GC: after the first reload and after the last. A replaced table that stayed referenced anywhere
// (a worker's engine or plan cache, a helper's table cache, the main thread) would add its size per reload.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCAN_SQL, startAcceleratedServer, writeAcceleratedData } from './accelerated-table.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '3000000' },
    times: { type: 'string', default: '20' },
    workers: { type: 'string', default: '2' },
    child: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    dir: { type: 'string', default: '' },
  },
});
const MIB = 1024 * 1024;

export interface ReplaceResult {
  readonly rows: number;
  readonly times: number;
  readonly workers: number;
  /** RSS in MiB after loading (version 1), after the first reload, and after the last. */
  readonly startMiB: number;
  readonly firstMiB: number;
  readonly lastMiB: number;
}

/** Child mode: serve, reload `times` times, print RSS JSON. */
async function measure(dir: string, rows: number, times: number, workers: number): Promise<void> {
  const { server, url } = await startAcceleratedServer(dir, workers);
  const sql = SCAN_SQL;
  // Concurrent queries so every worker (and its parallel helper: the table is over 1 Mi rows) reads the table.
  const query = async () => {
    const answers = await Promise.all(
      Array.from({ length: workers * 3 }, () =>
        fetch(url, { method: 'POST', body: sql, headers: { 'Cache-Control': 'no-cache' } }).then((r) => r.json()),
      ),
    );
    for (const a of answers) if ((a as { n: number }[])[0]?.n !== rows) throw new Error(JSON.stringify(a));
  };
  await query();
  const startMiB = await settledRss();
  let firstMiB = 0;
  for (let i = 1; i <= times; i++) {
    await server.reloadDataset('t');
    await query();
    if (i === 1) firstMiB = await settledRss();
  }
  const lastMiB = await settledRss();
  await server.close();
  const result: ReplaceResult = { rows, times, workers, startMiB, firstMiB, lastMiB };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** RSS once the threads have dropped what they release (they collect on their own) and this thread collected. */
async function settledRss(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 200));
    globalThis.gc?.();
  }
  return process.memoryUsage().rss / MIB;
}

/** Writes the data (once) and runs the measuring child; resolves with its figures. */
export async function measureReplacements(rows: number, times: number, workers: number): Promise<ReplaceResult> {
  const dir = fileURLToPath(new URL(`../../bench/results/tmp/replace-${rows}/`, import.meta.url));
  await writeAcceleratedData(dir, rows);
  const script = fileURLToPath(import.meta.url);
  const args = ['--expose-gc', script, '--child', '--dir', dir];
  args.push('--rows', String(rows), '--times', String(times), '--workers', String(workers));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const [rows, times, workers] = [Number(values.rows), Number(values.times), Number(values.workers)];
  if (values.child) return measure(values.dir, rows, times, workers);
  const r = await measureReplacements(rows, times, workers);
  if (values.json) return void console.log(JSON.stringify(r));
  const tableMiB = (rows * (4 + 8 + 4 + 11)) / MIB;
  console.log(`table: ${rows.toLocaleString('en')} rows, about ${tableMiB.toFixed(0)} MiB loaded; ${workers} workers`);
  console.log(`RSS after loading: ${r.startMiB.toFixed(0)} MiB`);
  console.log(`RSS after 1 replacement: ${r.firstMiB.toFixed(0)} MiB`);
  console.log(`RSS after ${times} replacements: ${r.lastMiB.toFixed(0)} MiB (${pct(r.lastMiB / r.firstMiB)} of 1)`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
