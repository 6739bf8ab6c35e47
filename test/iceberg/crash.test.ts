// kill -9 of a writer at random moments: the table always reads as one whole snapshot (its previous or its next).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { liveDataFiles } from '../../catalog/iceberg/live-files.js';
import { decodeManifestList } from '../../catalog/iceberg/manifest-list.js';
import { currentSnapshot, parseTableMetadata } from '../../catalog/iceberg/metadata.js';
import { readCurrent } from '../../catalog/iceberg/warehouse.js';
import { objectStoreFor } from '../../engine/index.js';
import { startAppender } from './appender.js';
import { icebirdRows, SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

const TRIALS = 50;
/** The kill comes this long (at most) after the child is ready: each commit takes a few milliseconds. */
const MAX_KILL_DELAY_MS = 100;
const ROWS = 2;

let wh: Awaited<ReturnType<typeof tempWarehouse>>;
before(async () => {
  wh = await tempWarehouse();
});
after(() => wh.dispose());

it(`survives ${TRIALS} kill -9s of appending processes at random moments`, { timeout: 90_000 }, async (t) => {
  // Two tables killed in turn side by side: process start-up (~0.5 s) dominates a trial.
  const lanes = await Promise.all([0, 1].map((lane) => runTrials(`${wh.url}/s/crash${lane}`, TRIALS / 2)));
  const sum = (f: (l: LaneResult) => number) => lanes.reduce((n, l) => n + f(l), 0);
  t.diagnostic(
    `${TRIALS} kills: ${sum((l) => l.commits)} commits published, ${sum((l) => l.midCommit)} kills between ` +
      `publishing and reporting; orphans: ${sum((l) => l.orphans.avro)} Avro files, ${sum((l) => l.orphans.data)} ` +
      `data files, ${sum((l) => l.orphans.tmp)} temporary files`,
  );
});

interface LaneResult {
  readonly commits: number;
  readonly midCommit: number;
  readonly orphans: Awaited<ReturnType<typeof countOrphans>>;
}

/** `trials` kills of an appender on `table`; after each the table reads as a whole snapshot. */
async function runTrials(table: string, trials: number): Promise<LaneResult> {
  const store = objectStoreFor(table);
  await createTable(store, table, SCHEMA, []);
  let next = 0;
  let version = 1;
  let midCommit = 0;
  for (let trial = 0; trial < trials; trial++) {
    const child = startAppender(table, { count: 0, first: next, rows: ROWS });
    await child.ready;
    await new Promise((r) => setTimeout(r, Math.random() * MAX_KILL_DELAY_MS));
    child.child.kill('SIGKILL');
    assert.equal(await child.exited, null, 'the child was killed, not finished');
    const printed = child.lines.filter((l) => l.startsWith('committed ')).map((l) => Number(l.split(' ')[1]));
    const lastPrinted = printed.at(-1) ?? version;

    const current = (await readCurrent(store, table))!;
    // Published = printed, or one more (killed between the link and the print).
    assert.ok(
      current.version === lastPrinted || current.version === lastPrinted + 1,
      `v${current.version} after v${lastPrinted}`,
    );
    if (current.version > lastPrinted) midCommit++;
    const live = await liveDataFiles(store, current.metadata);
    const total = currentSnapshot(current.metadata)?.summary['total-records'] ?? '0';
    assert.equal(String(live.reduce((n, f) => n + f.recordCount, 0)), total, `trial ${trial}: a whole snapshot`);
    assert.equal(live.length, current.version - 1, 'one file per append, none lost');
    await Promise.all(live.map((f) => store.head(f.path)));
    // icebird trusts version-hint.text: after a kill between publishing v(N+1) and rewriting the hint it reads vN,
    // the previous whole snapshot (floe's reader, like Java's, also takes the newer version it finds).
    if (trial % 8 === 7 && live.length > 0)
      assert.equal((await icebirdRows(table)).length, await hintedTotal(store, table));
    version = current.version;
    next += 1_000_000;
  }
  // The table still takes commits after all this.
  const after = await commitFiles(store, table, 'append', [await writeDataFile(table, [-1])]);
  assert.equal(after.version, version + 1);
  return { commits: version - 1, midCommit, orphans: await countOrphans(table, after.metadata) };
}

/** total-records of the snapshot version-hint.text points at (what a hint-trusting reader such as icebird reads). */
async function hintedTotal(store: ReturnType<typeof objectStoreFor>, table: string): Promise<number> {
  const hint = new TextDecoder().decode(await store.read(`${table}/metadata/version-hint.text`)).trim();
  const file = `${table}/metadata/v${hint}.metadata.json`;
  const metadata = parseTableMetadata(new TextDecoder().decode(await store.read(file)), file);
  return Number(currentSnapshot(metadata)?.summary['total-records'] ?? '0');
}

/** Files under the table that no snapshot of `metadata` references (allowed: a killed commit's leftovers). */
async function countOrphans(table: string, metadata: Parameters<typeof currentSnapshot>[0]) {
  const store = objectStoreFor(table);
  const referenced = new Set<string>();
  for (const s of metadata.snapshots ?? []) {
    referenced.add(s['manifest-list']);
    for (const m of decodeManifestList(await store.read(s['manifest-list']), s['manifest-list']))
      referenced.add(m.manifest_path);
  }
  for (const f of await liveDataFiles(store, metadata)) referenced.add(f.path);
  const all = (await store.list(`${table}/`)).map((o) => o.location);
  const unreferenced = all.filter((l) => !referenced.has(l) && !/\/(v\d+\.metadata\.json|version-hint\.text)$/.test(l));
  return {
    avro: unreferenced.filter((l) => l.endsWith('.avro')).length,
    data: unreferenced.filter((l) => l.endsWith('.parquet')).length,
    tmp: unreferenced.filter((l) => l.endsWith('.tmp')).length,
  };
}
