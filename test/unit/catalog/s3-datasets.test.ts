// S3 dataset failures keep their kind (auth, connection, source), name the dataset and the connector, and never
// carry the credentials; S3 params are validated before anything is fetched.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DatasetLoader } from '../../../catalog/dataset-loader.js';
import { DatasetError, type DatasetSpec, resolveDataset } from '../../../catalog/datasets.js';
import { catalogFromSnapshot } from '../../../catalog/snapshot.js';
import { createEngine } from '../../../engine/index.js';
import { queryRows } from '../../helpers/engines.js';
import { makeTempDir } from '../../helpers/fixtures.js';
import { writeTrips } from '../../helpers/s3-data.js';
import { type S3TestServer, startS3Server } from '../../helpers/s3-server.js';
import { startSilentServer } from '../../helpers/silent-server.js';

const SECRET = 'sekrit-9f8e7d6c5b4a';
const WRONG_KEY = 'AKIAWRONGKEY0042';

let s3: S3TestServer;
let dir: string;

before(async () => {
  dir = await makeTempDir('floe-s3-errors-');
  s3 = await startS3Server(['data']);
  await writeTrips(join(dir, 'a.parquet'), 0, 100);
  await s3.upload('s3://data/t/a.parquet', join(dir, 'a.parquet'));
  await s3.upload('s3://data/text/items.csv', new TextEncoder().encode('id,name\n1,apple\n2,"pear, ripe"\n'));
  await s3.upload('s3://data/text/more/items2.csv', new TextEncoder().encode('id,name\n3,fig\n'));
  await s3.upload('s3://data/text/events.json', new TextEncoder().encode('{"k":1,"v":"a"}\n{"k":2,"v":null}\n'));
});

after(async () => {
  await s3?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const params = (extra: Record<string, string> = {}) => ({
  s3_endpoint: s3.endpoint,
  allow_http: 'true',
  s3_auth: 'key',
  s3_key: 'S3RVER',
  s3_secret: 'S3RVER',
  ...extra,
});

async function failure(spec: Omit<DatasetSpec, 'accelerated'>, accelerated = false): Promise<DatasetError> {
  const e = await resolveDataset({ ...spec, accelerated }, dir).then(
    () => assert.fail('the dataset resolved'),
    (e: unknown) => e,
  );
  assert.ok(e instanceof DatasetError, String(e));
  for (const secret of [SECRET, WRONG_KEY]) assert.ok(!e.message.includes(secret), e.message);
  assert.match(e.message, /^datasets\[0\] \(trips\): s3 connector: /);
  return e;
}

describe('S3 dataset failures', () => {
  it("wrong credentials: auth, naming the object and the store's reason", async () => {
    for (const accelerated of [false, true]) {
      const e = await failure(
        { name: 'trips', from: 's3://data/t/', params: params({ s3_key: WRONG_KEY, s3_secret: SECRET }) },
        accelerated,
      );
      assert.equal(e.failure, 'auth');
      assert.equal(e.message, 'datasets[0] (trips): s3 connector: access denied by s3://data/t/: InvalidAccessKeyId');
    }
    const signed = await failure({ name: 'trips', from: 's3://data/t/', params: params({ s3_secret: SECRET }) });
    assert.equal(signed.failure, 'auth');
    assert.equal(
      signed.message,
      'datasets[0] (trips): s3 connector: access denied by s3://data/t/: SignatureDoesNotMatch',
    );
    const e = await failure({ name: 'trips', from: 's3://data/t/a.parquet', params: params({ s3_key: WRONG_KEY }) });
    assert.equal(e.failure, 'auth');
    // A HEAD's 403 names no S3 error: the message says what to check.
    assert.equal(
      e.message,
      'datasets[0] (trips): s3 connector: access denied by s3://data/t/a.parquet: HTTP 403 (check s3_key, s3_secret and the bucket policy)',
    );
  });

  it('an endpoint nobody answers: connection', async () => {
    const down = await startS3Server();
    await down.dispose();
    const e = await failure({ name: 'trips', from: 's3://data/t/', params: params({ s3_endpoint: down.endpoint }) });
    assert.equal(e.failure, 'connection');
    assert.match(e.message, /cannot reach http:\/\/127\.0\.0\.1:\d+ for s3:\/\/data\/t\/: ECONNREFUSED/);
  });

  it('an endpoint that accepts and never answers: connection once client_timeout passes (the SDK alone only warns)', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const hung = params({ s3_endpoint: silent.endpoint, client_timeout: '300ms' });
      for (const from of ['s3://data/t/', 's3://data/t/a.parquet']) {
        const e = await failure({ name: 'trips', from, params: hung });
        assert.equal(e.failure, 'connection');
        assert.match(e.message, /cannot reach http:\/\/127\.0\.0\.1:\d+ for s3:\/\/data\/t\/(a\.parquet)?: ETIMEDOUT/);
      }
      assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    } finally {
      await silent.close();
    }
  });

  it('nothing at the key, the prefix, the glob or the bucket: source', async () => {
    const cases: [string, RegExp][] = [
      ['s3://data/t/missing.parquet', /nothing at s3:\/\/data\/t\/missing\.parquet/],
      ['s3://data/none/', /nothing at s3:\/\/data\/none\//],
      ['s3://data/t/*.csv', /no files match s3:\/\/data\/t\/\*\.csv/],
      ['s3://nobucket/t/', /nothing at s3:\/\/nobucket\/t\/ \(no such bucket\)/],
    ];
    for (const [from, message] of cases) {
      const e = await failure({ name: 'trips', from, params: params() });
      assert.equal(e.failure, 'source', from);
      assert.equal(e.isConfig, true);
      assert.match(e.message, message);
    }
  });

  it('a plain http endpoint without allow_http is refused before any request (fail closed)', async () => {
    const seen = s3.requests.length;
    const e = await failure({ name: 'trips', from: 's3://data/t/', params: params({ allow_http: 'false' }) });
    assert.equal(e.isConfig, true);
    assert.match(e.message, /params\.s3_endpoint: 'http:\/\/127\.0\.0\.1:\d+' is plain http: set allow_http: true/);
    assert.equal(s3.requests.length, seen);
  });

  it('the loader thread keeps the kind of a failure met after the listing (auth, connection)', async () => {
    const loader = new DatasetLoader();
    try {
      const wrong = { ...s3.config, key: WRONG_KEY, secret: SECRET };
      for (const op of ['check', 'load'] as const) {
        const e = await loader[op](['s3://data/t/a.parquet'], wrong).then(
          () => assert.fail('loaded'),
          (x: unknown) => x,
        );
        assert.equal((e as { failure?: string }).failure, 'auth');
        assert.ok(!(e as Error).message.includes(SECRET));
      }
      const down = await startS3Server();
      await down.dispose();
      const e = await loader
        .check(['s3://data/t/a.parquet'], { ...s3.config, endpoint: down.endpoint })
        .catch((x) => x);
      assert.equal((e as { failure?: string }).failure, 'connection');
    } finally {
      await loader.close();
    }
  });

  it('resolves a good source to its objects, with the settings the workers need', async () => {
    const entry = await resolveDataset(
      { name: 'trips', from: 's3://data/t/', params: params(), accelerated: false },
      dir,
    );
    assert.deepEqual(entry.files, ['s3://data/t/a.parquet']);
    assert.equal((entry.s3 as { endpoint: string }).endpoint, s3.endpoint);
  });
});

describe('CSV and JSON files on S3', () => {
  for (const accelerated of [false, true]) {
    it(`a CSV prefix and a JSON object (${accelerated ? 'accelerated' : 'files'})`, async () => {
      const csv = await resolveDataset(
        { name: 'items', from: 's3://data/text/', params: { ...params(), file_format: 'csv' }, accelerated },
        dir,
      );
      const json = await resolveDataset(
        { name: 'events', from: 's3://data/text/events.json', params: params(), accelerated },
        dir,
      );
      const engine = createEngine({ catalog: await catalogFromSnapshot({ tables: [csv, json] }) });
      assert.deepEqual((await queryRows(engine, 'SELECT id, name FROM items ORDER BY id')).rows, [
        ['1', 'apple'],
        ['2', 'pear, ripe'],
        ['3', 'fig'],
      ]);
      assert.deepEqual((await queryRows(engine, 'SELECT k, v FROM events ORDER BY k')).rows, [
        ['1', 'a'],
        ['2', null],
      ]);
    });
  }

  it('wrong credentials on a CSV source: auth', async () => {
    const e = await failure({ name: 'trips', from: 's3://data/text/items.csv', params: params({ s3_key: WRONG_KEY }) });
    assert.equal(e.failure, 'auth');
  });
});
