// Runs the object-store conformance suite against every store: local files (by path and by `file://` URL), the
// in-memory store and S3 (s3rver on loopback); then what only the local store, the S3 store and `objectStoreFor` promise.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { NotSupportedError } from '../../engine/errors.js';
import { LocalObjectStore } from '../../engine/io/object-store/local.js';
import { objectStoreFor } from '../../engine/io/object-store/object-store-for.js';
import { S3ObjectStore, s3ReadStats } from '../../engine/io/object-store/s3.js';
import { MemoryObjectStore } from '../helpers/memory-object-store.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { runObjectStoreSuite } from './object-store-suite.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'floe-object-store-'));
const removing = (dir: string) => () => rm(dir, { recursive: true, force: true });

runObjectStoreSuite('local, by path', async () => {
  const dir = await tempDir();
  return { store: new LocalObjectStore(), root: `${dir}/`, cleanup: removing(dir) };
});

runObjectStoreSuite('local, by file:// URL', async () => {
  const dir = await tempDir();
  return { store: new LocalObjectStore(), root: `${pathToFileURL(dir).href}/`, cleanup: removing(dir) };
});

runObjectStoreSuite('in memory', async () => ({
  store: new MemoryObjectStore(),
  root: 'mem://bucket/',
  cleanup: async () => {},
}));

let s3: Promise<S3TestServer> | null = null;
let s3Runs = 0;
const s3Server = () => {
  s3 ??= startS3Server(['conformance']);
  return s3;
};
after(async () => (await s3)?.dispose());

runObjectStoreSuite(
  'S3 (s3rver)',
  async () => {
    const server = await s3Server();
    return {
      store: new S3ObjectStore(server.config),
      root: `s3://conformance/run${s3Runs++}/`,
      cleanup: async () => {},
    };
  },
  { enforcesConditionalPut: false },
);

describe('S3ObjectStore', () => {
  it('sends conditional puts as If-None-Match: * and If-Match: <etag> (s3rver does not enforce them)', async () => {
    const server = await s3Server();
    const store = new S3ObjectStore(server.config);
    const first = await store.put('s3://conformance/cond/a', Uint8Array.of(1), { ifAbsent: true });
    await store.put('s3://conformance/cond/a', Uint8Array.of(2), { ifMatch: first.etag });
    const puts = server.requests.filter((r) => r.method === 'PUT' && r.url.startsWith('/conformance/cond/a'));
    assert.equal(puts.length, 2);
    assert.equal(puts[0]!.headers['if-none-match'], '*');
    assert.equal(puts[1]!.headers['if-match'], first.etag);
    store.close();
  });

  it('reads by ranged GETs and counts the bytes it fetched', async () => {
    const server = await s3Server();
    const store = new S3ObjectStore(server.config);
    await store.put('s3://conformance/count/a', new Uint8Array(1000));
    const before = { ...s3ReadStats };
    await store.read('s3://conformance/count/a', { offset: 100, length: 250 });
    assert.equal(s3ReadStats.bytes - before.bytes, 250);
    assert.equal(s3ReadStats.requests - before.requests, 1);
    const get = server.requests.findLast((r) => r.method === 'GET' && r.url.startsWith('/conformance/count/a'));
    assert.equal(get?.headers.range, 'bytes=100-349');
    store.close();
  });
});

describe('LocalObjectStore', () => {
  it('leaves no temporary file behind a put, a refused put included', async () => {
    const dir = await tempDir();
    const store = new LocalObjectStore();
    await store.put(join(dir, 'a'), Uint8Array.of(1));
    await assert.rejects(store.put(join(dir, 'a'), Uint8Array.of(2), { ifAbsent: true }));
    await assert.rejects(store.put(join(dir, 'a'), Uint8Array.of(2), { ifMatch: 'stale' }));
    assert.deepEqual(await readdir(dir), ['a']);
    await rm(dir, { recursive: true });
  });

  it('lists through a link to a folder, once even when the links form a cycle', async () => {
    const dir = await tempDir();
    const store = new LocalObjectStore();
    await store.put(join(dir, 'real/x.parquet'), Uint8Array.of(1));
    await symlink(join(dir, 'real'), join(dir, 'linked'));
    await symlink(dir, join(dir, 'real/up'));
    const names = (await store.list(`${dir}/`)).map((m) => m.location.slice(dir.length + 1));
    assert.deepEqual(names, ['linked/x.parquet']);
    await rm(dir, { recursive: true });
  });
});

describe('objectStoreFor', () => {
  it('serves paths and file:// URLs locally, s3:// by S3, and refuses other schemes as not supported yet', () => {
    assert.ok(objectStoreFor('/data/t.parquet') instanceof LocalObjectStore);
    assert.ok(objectStoreFor('relative/t.parquet') instanceof LocalObjectStore);
    assert.ok(objectStoreFor('file:///data/t.parquet') instanceof LocalObjectStore);
    assert.throws(
      () => objectStoreFor('gs://bucket/t.parquet'),
      (e) => {
        return e instanceof NotSupportedError && /gs:\/\/ locations are not supported yet/.test(e.message);
      },
    );
  });

  it('keeps one S3 store per config on a thread: same settings share it, other credentials get their own', () => {
    const config = {
      endpoint: 'http://127.0.0.1:1',
      region: 'us-east-1',
      auth: 'key',
      key: 'k',
      secret: 's',
      timeoutMs: 1000,
    } as const;
    const a = objectStoreFor('s3://bucket/t.parquet', config);
    assert.ok(a instanceof S3ObjectStore);
    assert.equal(objectStoreFor('s3://other/x.parquet', { ...config }), a);
    assert.notEqual(objectStoreFor('s3://bucket/t.parquet', { ...config, secret: 'other' }), a);
    assert.ok(objectStoreFor('s3://bucket/t.parquet') instanceof S3ObjectStore);
  });
});
