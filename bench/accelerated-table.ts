// The RSS benches' table: `id, val, label` rows written as Parquet once, and a server holding it accelerated.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeParquetFile } from '../engine/index.js';
import { type RunningServer, startServer } from '../server/main.js';

/** Reads the whole table: every worker (and its parallel helper, over 1 Mi rows) that runs it scans every row. */
export const SCAN_SQL = 'SELECT count(*) AS n, sum(val) AS s, min(id) AS lo, max(id) AS hi FROM t';

/** Writes `rows` rows as `files` Parquet files under `dir` (skipping files already there: the data is fixed). */
export async function writeAcceleratedData(dir: string, rows: number, files = 1): Promise<void> {
  const per = Math.ceil(rows / files);
  for (let f = 0; f < files; f++) {
    const path = join(dir, `part-${f}.parquet`);
    if (existsSync(path)) continue;
    const n = Math.min(per, rows - f * per);
    const id = Int32Array.from({ length: n }, (_, i) => f * per + i);
    const val = Float64Array.from(id, (i) => (i % 1000) / 10);
    const label = Array.from(id, (i) => `label-${i % 100_000}`);
    await writeParquetFile(path, [
      { name: 'id', type: { id: 'int32' }, nullable: false, values: id },
      { name: 'val', type: { id: 'float64' }, nullable: false, values: val },
      { name: 'label', type: { id: 'utf8' }, nullable: false, values: label },
    ]);
  }
}

/** A server on a free port serving `dir` as the accelerated table `t`, and its /v1/sql URL. */
export async function startAcceleratedServer(
  dir: string,
  workers: number,
): Promise<{ server: RunningServer; url: string }> {
  const server = await startServer({
    manifest: {
      version: 'v1',
      kind: 'Spicepod',
      name: 'accelerated',
      datasets: [{ name: 't', from: `file:${dir}`, acceleration: { enabled: true } }],
    },
    port: 0,
    workers,
    log: () => {},
  });
  return { server, url: `http://127.0.0.1:${server.port}/v1/sql` };
}
