// RSS of a serving floe process across on-demand refreshes of a ~50 MiB accelerated table (issue 33: no growth per refresh).
//
// Usage: node --expose-gc dist/bench/refresh-rss.js [--rows N] [--times K] [--workers W]
// Writes N rows (default 2,000,000: about 51 MiB loaded) as Parquet under bench/results/tmp/ once, serves them
// accelerated, then K times (default 20): triggers a refresh through `Datasets.refresh`, waits for its new version
// to serve, queries it on every worker, and prints RSS after a forced GC. The refreshed table is built beside the
// one serving, so RSS may hold two copies during a refresh; a version that stayed referenced would add one per line.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCAN_SQL, startAcceleratedServer, writeAcceleratedData } from './accelerated-table.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000000' },
    times: { type: 'string', default: '20' },
    workers: { type: 'string', default: '2' },
  },
});
const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const [rows, times, workers] = [Number(values.rows), Number(values.times), Number(values.workers)];
  if (globalThis.gc === undefined) throw new Error('run with node --expose-gc');
  const dir = fileURLToPath(new URL(`../../bench/results/tmp/refresh-${rows}/`, import.meta.url));
  await writeAcceleratedData(dir, rows);
  const { server, url } = await startAcceleratedServer(dir, workers);
  const query = async () => {
    const answers = await Promise.all(
      Array.from({ length: workers * 2 }, () =>
        fetch(url, { method: 'POST', body: SCAN_SQL, headers: { 'Cache-Control': 'no-cache' } }).then((r) => r.json()),
      ),
    );
    for (const a of answers) if ((a as { n: number }[])[0]?.n !== rows) throw new Error(JSON.stringify(a));
  };
  const tableMiB = (rows * (4 + 8 + 4 + 11)) / MIB;
  console.log(`table: ${rows.toLocaleString('en')} rows, about ${tableMiB.toFixed(0)} MiB loaded; ${workers} workers`);
  await query();
  console.log(`loaded: RSS ${await settledRss()} MiB`);
  for (let i = 1; i <= times; i++) {
    const before = server.catalogVersion;
    const started = Date.now();
    await server.datasets.refresh('t');
    while (server.catalogVersion === before || server.datasets.list()[0]?.status !== 'Ready') {
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = Date.now() - started;
    await query();
    console.log(`refresh ${i}: ${ms} ms, RSS ${await settledRss()} MiB`);
  }
  await server.close();
}

/** RSS once the threads have dropped what they release (they collect on their own) and this thread collected. */
async function settledRss(): Promise<string> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 200));
    globalThis.gc?.();
  }
  return (process.memoryUsage().rss / MIB).toFixed(0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
