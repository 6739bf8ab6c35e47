// Child-process entry: serves the built-in TPC-H sample plus the slt tables (items, specials) on an
// ephemeral port and prints `FUZZ_PORT <port>`; the fuzzer watches this process for crashes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeParquetFile } from '../../engine/index.js';
import { prepareSample } from '../../server/sample/prepare-sample.js';
import { makeItems, makeSpecials } from '../helpers/gen-data.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The sample's eight tables plus the slt suite's `items` and `specials` (its `lineitem` is left out: the
 * sample's takes the name), written once into $FLOE_FUZZ_DATA, a folder the parent process owns.
 */
async function datasets(dir: string): Promise<{ name: string; from: string }[]> {
  const sample = prepareSample(dir);
  await sample.generate();
  const tpch = (sample.manifest as { datasets: { name: string; from: string }[] }).datasets;
  const extra: { name: string; from: string }[] = [];
  for (const [name, make] of [
    ['items', makeItems],
    ['specials', makeSpecials],
  ] as const) {
    const path = join(dir, `slt-${name}.parquet`);
    if (!existsSync(path)) await writeParquetFile(path, make());
    extra.push({ name, from: `file:${path}` });
  }
  return [...tpch, ...extra];
}

async function main(dataDir: string): Promise<void> {
  const server = await startTestServer(await datasets(dataDir), {
    workers: 2,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`FUZZ_PORT ${server.server.port}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  // An orphan (the fuzzer was killed) has nobody to answer: it exits once its parent is gone.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && process.exit(0), 1000).unref();
}

// `node --test dist/test/` loads every file under test/: only the fuzzer's spawn (which sets the folder) serves.
const dataDir = process.env.FLOE_FUZZ_DATA;
if (dataDir !== undefined) await main(dataDir);
