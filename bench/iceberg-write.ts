// `node dist/bench/iceberg-write.js [--rows 10000000] [--sf 2] [--runs 3]`: write throughput of
// `INSERT INTO <iceberg table> SELECT * FROM lineitem LIMIT n` through a real floe server (2 workers, local
// warehouse), against DuckDB's `COPY (SELECT ... LIMIT n) TO '<file>.parquet'` over the same Parquet files, in the
// same run. Prints the median time of each, rows/s and MB/s (bytes of Parquet written) and the ratio floe/DuckDB.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../server/main.js';
import { generateTpch } from './data/tpch-gen.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    sf: { type: 'string', default: '2' },
    runs: { type: 'string', default: '3' },
  },
});
const rows = Number(values.rows);
const runs = Number(values.runs);

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.parquet')) total += (await stat(join(e.parentPath, e.name))).size;
  return total;
}

async function main(): Promise<void> {
  const data = await generateTpch({ sf: Number(values.sf) });
  const lineitem = join(data.dir, 'lineitem');
  const wh = await mkdtemp(join(tmpdir(), 'floe-bench-wh-'));
  const server = await startServer({
    manifest: {
      version: 'v1',
      kind: 'Spicepod',
      name: 'bench',
      datasets: [{ from: `file:${lineitem}/`, name: 'lineitem' }],
      catalogs: [{ from: `iceberg:${pathToFileURL(wh).href}`, name: 'lake', access: 'read_write' }],
    },
    port: 0,
    workers: 2,
    log: () => {},
  });
  const sql = async (text: string) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/sql`, { method: 'POST', body: text });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${text}: ${res.status} ${body}`);
    return body;
  };
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  const floeMs: number[] = [];
  const duckMs: number[] = [];
  let floeBytes = 0;
  let duckBytes = 0;
  try {
    await sql('CREATE SCHEMA lake.bench');
    for (let r = 0; r < runs; r++) {
      const table = `lake.bench.li${r}`;
      let t = performance.now();
      await sql(`CREATE TABLE ${table} AS SELECT * FROM lineitem LIMIT ${rows}`);
      floeMs.push(performance.now() - t);
      floeBytes = await folderBytes(join(wh, 'bench', `li${r}`, 'data'));
      const out = join(wh, `duck-${r}.parquet`);
      t = performance.now();
      await duck.run(
        `COPY (SELECT * FROM read_parquet('${lineitem}/*.parquet') LIMIT ${rows}) TO '${out}' (FORMAT parquet, COMPRESSION zstd)`,
      );
      duckMs.push(performance.now() - t);
      duckBytes = (await stat(out)).size;
      await sql(`DROP TABLE ${table}`);
    }
  } finally {
    await server.close();
    await rm(wh, { recursive: true, force: true });
  }
  const f = median(floeMs);
  const d = median(duckMs);
  const mb = (bytes: number, ms: number) => ((bytes / 1e6 / ms) * 1000).toFixed(1);
  console.log(`rows ${rows.toLocaleString('en')} from lineitem SF${values.sf}, ${runs} runs (medians)`);
  console.log(
    `floe  CTAS into Iceberg: ${f.toFixed(0)} ms  ${Math.round((rows / f) * 1000).toLocaleString('en')} rows/s  ${mb(floeBytes, f)} MB/s (${(floeBytes / 1e6).toFixed(0)} MB written)`,
  );
  console.log(
    `duckdb COPY to Parquet:  ${d.toFixed(0)} ms  ${Math.round((rows / d) * 1000).toLocaleString('en')} rows/s  ${mb(duckBytes, d)} MB/s (${(duckBytes / 1e6).toFixed(0)} MB written)`,
  );
  console.log(`ratio floe/duckdb: ${(f / d).toFixed(2)}x`);
}

await main();
