// S3 datasets through a real server: files and accelerated mode, one object, a prefix and a glob, each answering
// what the same files answer locally (s3rver on loopback, real HTTP to /v1/sql).
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, startServer } from '../../server/main.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { writeTrips } from '../helpers/s3-data.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

const FILES = ['trips/part-0.parquet', 'trips/part-1.parquet', 'trips/sub/part-2.parquet'];

let s3: S3TestServer;
let dir: string;
let server: RunningServer;
const lines: string[] = [];

before(async () => {
  dir = await makeTempDir('floe-s3-datasets-');
  s3 = await startS3Server(['data']);
  for (const [i, f] of FILES.entries()) {
    await writeTrips(join(dir, f), i * 5000, 5000);
    await s3.upload(`s3://data/${f}`, join(dir, f));
  }
  const pairs: [string, string, string][] = [
    ['one', 's3://data/trips/part-0.parquet', `file:${dir}/trips/part-0.parquet`],
    ['prefix', 's3://data/trips/', `file:${dir}/trips/`],
    ['glob', 's3://data/trips/part-*.parquet', `file:${dir}/trips/part-*.parquet`],
  ];
  const datasets = pairs.flatMap(([name, from, local]) => [
    { name: `s3_${name}`, from, params: s3.params },
    { name: `s3_${name}_acc`, from, params: s3.params, acceleration: { enabled: true } },
    { name: `local_${name}`, from: local },
  ]);
  const manifest = { version: 'v1', kind: 'Spicepod', name: 's3', datasets };
  server = await startServer({ manifest, host: '127.0.0.1', port: 0, workers: 2, log: (l) => lines.push(l) });
});

after(async () => {
  await server?.close();
  await s3?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function rows(sql: string): Promise<unknown> {
  const answer = await post(`http://127.0.0.1:${server.port}/v1/sql`, sql, { Accept: 'application/json' });
  assert.equal(answer.status, 200, answer.text);
  return JSON.parse(answer.text);
}

const QUERIES = [
  'SELECT count(*) AS n, sum(amount) AS total, min(note) AS lo, max(id) AS hi, count(DISTINCT day) AS days FROM {t}',
  'SELECT grp, count(*) AS n, avg(amount) AS mean FROM {t} WHERE id BETWEEN 1200 AND 11000 GROUP BY grp ORDER BY grp',
  "SELECT id, note, day FROM {t} WHERE note LIKE 'a%' ORDER BY id DESC LIMIT 7",
];

describe('S3 datasets answer what the same files answer locally', () => {
  for (const name of ['one', 'prefix', 'glob']) {
    for (const mode of ['files', 'accelerated']) {
      it(`${name}, ${mode}`, async () => {
        const table = mode === 'files' ? `s3_${name}` : `s3_${name}_acc`;
        for (const q of QUERIES) {
          assert.deepEqual(await rows(q.replace('{t}', table)), await rows(q.replace('{t}', `local_${name}`)), q);
        }
      });
    }
  }

  it('reads every file of a prefix (at any depth) and only the matching ones of a glob', async () => {
    assert.deepEqual(await rows('SELECT count(*) AS n FROM s3_one'), [{ n: 5000 }]);
    assert.deepEqual(await rows('SELECT count(*) AS n FROM s3_prefix'), [{ n: 15000 }]);
    assert.deepEqual(await rows('SELECT count(*) AS n FROM s3_glob'), [{ n: 10000 }]);
  });

  it('never prints the secret', () => {
    assert.ok(lines.length > 0);
    for (const l of lines) assert.ok(!l.includes(String(s3.params.s3_secret)), l);
  });
});

describe('S3 going away while serving', () => {
  it('a files-mode query fails naming the endpoint (never the credentials), the accelerated copy still answers, and files mode recovers when S3 returns', async () => {
    await s3.stop();
    try {
      // Not a query asked before: the results cache would answer it.
      const answer = await post(`http://127.0.0.1:${server.port}/v1/sql`, 'SELECT max(note) AS m FROM s3_prefix');
      assert.ok(answer.status >= 400, answer.text);
      assert.match(answer.text, /cannot reach http:\/\/127\.0\.0\.1:\d+ for s3:\/\/data\/trips\//);
      assert.ok(!answer.text.includes(String(s3.params.s3_secret)), answer.text);
      assert.deepEqual(await rows('SELECT count(*) AS n, min(id) AS lo FROM s3_prefix_acc'), [{ n: 15000, lo: 0 }]);
    } finally {
      await s3.start();
    }
    assert.deepEqual(await rows('SELECT count(*) AS n, max(id) AS hi FROM s3_prefix'), [{ n: 15000, hi: 14999 }]);
  });
});
