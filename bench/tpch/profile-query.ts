// `node dist/bench/tpch/profile-query.js <dataDir> <mode> q1 q6 ...`: runs TPC-H queries on floe alone, timing
// each (run under `node --cpu-prof` to see where a query's time goes; no DuckDB in the process).
import { readFile } from 'node:fs/promises';
import { openFloeEngine } from './bench-engines.js';

const [dir, mode, ...queries] = process.argv.slice(2);
if (!dir || (mode !== 'files' && mode !== 'memory')) throw new Error('usage: profile-query <dir> files|memory q1 ...');
const engine = await openFloeEngine(dir, mode);
for (const q of queries) {
  const n = q.replace(/^q/, '').padStart(2, '0');
  const sql = await readFile(new URL(`../../../bench/tpch/queries/q${n}.sql`, import.meta.url), 'utf8');
  const t0 = performance.now();
  const result = await engine.execute(sql, { signal: new AbortController().signal });
  let rows = 0;
  for await (const b of result.batches) rows += b.length;
  console.log(`${q}: ${(performance.now() - t0).toFixed(0)} ms, ${rows} rows`);
}
