// `node dist/bench/s3-tpch.js [--dir DIR] [--runs 3]`: the 22 TPC-H queries in files mode over S3 (s3rver on
// loopback, in a child process) vs the same files on the local disk, medians of --runs, and the bytes each query
// fetched from S3 against the size of the tables it reads. Default data: the bench's generated SF0.1 set.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type DatasetSpec, resolveDatasets } from '../catalog/datasets.js';
import { catalogFromSnapshot } from '../catalog/snapshot.js';
import { createEngine, type Engine, S3ObjectStore } from '../engine/index.js';
import { S3RVER_KEY, S3RVER_SECRET } from '../test/helpers/s3-server.js';
import { generateTpch, TPCH_TABLES } from './data/tpch-gen.js';
import { TPCH_QUERIES_DIR } from './lib/paths.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    runs: { type: 'string', default: '3' },
    sf: { type: 'string', default: '0.1' },
  },
});
const runs = Number(values.runs);

/** The tables' files: `<dir>/<table>.parquet` or `<dir>/<table>/*.parquet`. */
async function tableFiles(dir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const t of TPCH_TABLES) {
    const single = join(dir, `${t}.parquet`);
    const isSingle = await stat(single).then(
      () => true,
      () => false,
    );
    const files = isSingle
      ? [single]
      : (await readdir(join(dir, t))).filter((f) => f.endsWith('.parquet')).map((f) => join(dir, t, f));
    out.set(t, files.sort());
  }
  return out;
}

async function engineOf(specs: DatasetSpec[]): Promise<Engine> {
  return createEngine({ catalog: await catalogFromSnapshot(await resolveDatasets(specs, '/')) });
}

async function run(engine: Engine, sql: string): Promise<number> {
  const start = performance.now();
  const result = await engine.execute(sql);
  for await (const _ of result.batches);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const dir = values.dir ?? (await generateTpch({ sf: Number(values.sf) })).dir;
  const files = await tableFiles(dir);
  const child = fork(new URL('./lib/s3rver-child.js', import.meta.url));
  const [{ endpoint }] = (await once(child, 'message')) as [{ endpoint: string }];
  const params = { s3_endpoint: endpoint, s3_key: S3RVER_KEY, s3_secret: S3RVER_SECRET, allow_http: 'true' };
  const store = new S3ObjectStore({
    endpoint,
    region: 'us-east-1',
    auth: 'key',
    key: S3RVER_KEY,
    secret: S3RVER_SECRET,
    timeoutMs: 30_000,
  });
  const sizes = new Map<string, number>();
  for (const [t, paths] of files) {
    let bytes = 0;
    for (const p of paths) {
      await store.put(`s3://tpch/${t}/${p.slice(p.lastIndexOf('/') + 1)}`, await readFile(p));
      bytes += (await stat(p)).size;
    }
    sizes.set(t, bytes);
  }
  const local = [...files].map(([t, p]) => ({ name: t, from: `file:${p.length === 1 ? p[0] : join(dir, t)}` }));
  const localEngine = await engineOf(local.map((s) => ({ ...s, accelerated: false })));
  const remote = await engineOf(
    TPCH_TABLES.map((t) => ({ name: t, from: `s3://tpch/${t}/`, params, accelerated: false })),
  );
  const rows: string[] = [
    '| query | local ms | S3 ms | S3 ÷ local | fetched MB | of tables MB | GETs |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const totals = { local: 0, s3: 0 };
  for (let q = 1; q <= 22; q++) {
    const sql = await readFile(join(TPCH_QUERIES_DIR, `q${String(q).padStart(2, '0')}.sql`), 'utf8');
    const used = TPCH_TABLES.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(sql));
    await run(localEngine, sql);
    await served(child);
    await run(remote, sql);
    const { gets, bytes: fetched } = await served(child);
    const times = { local: [] as number[], s3: [] as number[] };
    for (let i = 0; i < runs; i++) {
      times.local.push(await run(localEngine, sql));
      times.s3.push(await run(remote, sql));
    }
    const l = median(times.local);
    const r = median(times.s3);
    totals.local += l;
    totals.s3 += r;
    const tableMb = used.reduce((n, t) => n + sizes.get(t)!, 0) / 1e6;
    rows.push(
      `| q${q} | ${l.toFixed(1)} | ${r.toFixed(1)} | ${(r / l).toFixed(2)} | ${(fetched / 1e6).toFixed(2)} | ${tableMb.toFixed(2)} | ${gets} |`,
    );
  }
  rows.push(
    `| total | ${totals.local.toFixed(0)} | ${totals.s3.toFixed(0)} | ${(totals.s3 / totals.local).toFixed(2)} | | | |`,
  );
  console.log(`TPC-H files mode, ${dir}, medians of ${runs} runs after one warm-up (its fetches counted):`);
  console.log(rows.join('\n'));
  store.close();
  child.send('stop');
}

/** GETs and bytes the server answered since the last call. */
async function served(child: ChildProcess): Promise<{ gets: number; bytes: number }> {
  child.send('stats');
  return ((await once(child, 'message')) as [{ gets: number; bytes: number }])[0];
}

await main();
