// Runs the object-store conformance suite against every store: local files (by path and by `file://` URL) and the
// in-memory store; then what only the local store and `objectStoreFor` promise.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { NotSupportedError } from '../../engine/errors.js';
import { LocalObjectStore } from '../../engine/io/object-store/local.js';
import { objectStoreFor } from '../../engine/io/object-store/object-store-for.js';
import { MemoryObjectStore } from '../helpers/memory-object-store.js';
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
  it('serves paths and file:// URLs locally and refuses other schemes as not supported yet', () => {
    assert.ok(objectStoreFor('/data/t.parquet') instanceof LocalObjectStore);
    assert.ok(objectStoreFor('relative/t.parquet') instanceof LocalObjectStore);
    assert.ok(objectStoreFor('file:///data/t.parquet') instanceof LocalObjectStore);
    assert.throws(
      () => objectStoreFor('s3://bucket/t.parquet'),
      (e) => {
        return e instanceof NotSupportedError && /s3:\/\/ locations are not supported yet/.test(e.message);
      },
    );
  });
});
