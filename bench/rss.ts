// RSS of a floe server holding a large accelerated table, with 1 vs 2 query workers (shared, not copied).
//
// Usage: node dist/bench/rss.js [--rows N] [--files K]
// Writes N rows (default 5,000,000) as K Parquet files under bench/results/tmp/ once, then starts one child
// process per worker count; each loads the table accelerated, runs queries on every worker, and reports
// its RSS. If every worker copied the table, RSS would grow by about the table size per extra worker.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCAN_SQL, startAcceleratedServer, writeAcceleratedData } from './accelerated-table.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000000' },
    files: { type: 'string', default: '5' },
    child: { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    dir: { type: 'string', default: '' },
  },
});
const MIB = 1024 * 1024;

/** Child mode: serve the folder accelerated with `workers` threads, query every worker, print RSS JSON. */
async function measure(dir: string, workers: number): Promise<void> {
  const before = process.memoryUsage().rss;
  const { server, url } = await startAcceleratedServer(dir, workers);
  const sql = SCAN_SQL;
  // Several concurrent queries per worker so every thread scans the whole table at least once.
  await Promise.all(
    Array.from({ length: workers * 3 }, () => fetch(url, { method: 'POST', body: sql }).then((r) => r.text())),
  );
  globalThis.gc?.();
  const rss = process.memoryUsage().rss;
  await server.close();
  process.stdout.write(`${JSON.stringify({ workers, rssMiB: rss / MIB, startMiB: before / MIB })}\n`);
}

function runChild(dir: string, workers: number): Promise<{ workers: number; rssMiB: number; startMiB: number }> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', script, '--child', '--workers', String(workers), '--dir', dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  if (values.child) return measure(values.dir, Number(values.workers));
  const rows = Number(values.rows);
  const dir = fileURLToPath(new URL(`../../bench/results/tmp/rss-${rows}/`, import.meta.url));
  await writeAcceleratedData(dir, rows, Number(values.files));
  // Rough in-memory size of the loaded table: int32 + float64 + utf8 (offsets + ~11 bytes of text).
  const tableMiB = (rows * (4 + 8 + 4 + 11)) / MIB;
  console.log(`table: ${rows.toLocaleString('en')} rows, about ${tableMiB.toFixed(0)} MiB loaded`);
  // The same server over a 1,000-row table: what the process and its worker threads cost without the data.
  const tiny = fileURLToPath(new URL('../../bench/results/tmp/rss-1000/', import.meta.url));
  await writeAcceleratedData(tiny, 1000, 1);
  console.log('workers | RSS, large table | RSS, 1,000-row table | difference = table memory');
  for (const workers of [1, 2, 4]) {
    const big = await runChild(dir, workers);
    const small = await runChild(tiny, workers);
    const cells = [big.rssMiB, small.rssMiB, big.rssMiB - small.rssMiB].map((m) => `${m.toFixed(0)} MiB`);
    console.log(`${workers} | ${cells.join(' | ')}`);
  }
  console.log(`(a copy per worker would raise the difference by ~${tableMiB.toFixed(0)} MiB for every extra worker)`);
}

await main();
