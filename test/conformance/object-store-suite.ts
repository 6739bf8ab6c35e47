// The object-store conformance suite: what every `ObjectStore` must do, run against each implementation
// (`object-store.test.ts` runs it over local paths, `file://` URLs, an in-memory store and S3 on s3rver).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ObjectNotFoundError,
  type ObjectStore,
  PreconditionFailedError,
} from '../../engine/io/object-store/object-store.js';

/** A store and a root location (ending in `/`) that no other run uses; `cleanup` removes what the run left. */
export interface StoreUnderTest {
  readonly store: ObjectStore;
  readonly root: string;
  cleanup(): Promise<void>;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** What a store under test can be held to beyond the interface's plain operations. */
export interface SuiteOptions {
  /**
   * Whether the server behind the store enforces conditional puts (`ifAbsent`, `ifMatch`). s3rver ignores S3's
   * If-None-Match / If-Match on PUT, so the S3 run checks instead that the store sends them (object-store.test.ts).
   */
  readonly enforcesConditionalPut: boolean;
}

/** Registers the suite's tests under `name`; `setup` makes a fresh store and root for each test. */
export function runObjectStoreSuite(
  name: string,
  setup: () => Promise<StoreUnderTest>,
  options: SuiteOptions = { enforcesConditionalPut: true },
): void {
  const conditional = options.enforcesConditionalPut ? it : null;
  const withStore = (fn: (s: ObjectStore, root: string) => Promise<void>) => async () => {
    const t = await setup();
    try {
      await fn(t.store, t.root);
    } finally {
      await t.cleanup();
    }
  };

  describe(`ObjectStore conformance: ${name}`, () => {
    it(
      'heads and reads what was put: whole, by range, in a buffer of its own',
      withStore(async (s, root) => {
        const at = `${root}a/b/object.bin`;
        const put = await s.put(at, bytes('hello, object store'));
        const head = await s.head(at);
        assert.equal(head.size, 19);
        assert.equal(head.etag, put.etag);
        assert.equal(head.location, at);
        assert.ok(head.etag.length > 0 && Number.isFinite(head.mtimeMs));
        assert.equal(text(await s.read(at)), 'hello, object store');
        const part = await s.read(at, { offset: 7, length: 6 });
        assert.equal(text(part), 'object');
        assert.equal(part.byteOffset, 0);
        assert.equal(part.buffer.byteLength, 6);
        assert.equal((await s.read(at, { offset: 19, length: 0 })).length, 0);
        await assert.rejects(s.read(at, { offset: 10, length: 10 }));
      }),
    );

    it(
      'keeps an empty object',
      withStore(async (s, root) => {
        await s.put(`${root}empty`, new Uint8Array(0));
        assert.equal((await s.head(`${root}empty`)).size, 0);
        assert.equal((await s.read(`${root}empty`)).length, 0);
      }),
    );

    it(
      'reports a missing object as ObjectNotFoundError',
      withStore(async (s, root) => {
        await assert.rejects(s.head(`${root}missing`), ObjectNotFoundError);
        await assert.rejects(s.read(`${root}missing`), ObjectNotFoundError);
        await assert.rejects(s.read(`${root}missing`, { offset: 0, length: 1 }), ObjectNotFoundError);
        // A "folder" (a prefix of other objects) is not an object.
        await s.put(`${root}dir/x`, bytes('x'));
        await assert.rejects(s.head(`${root}dir`), ObjectNotFoundError);
      }),
    );

    it(
      'replaces an object whole, with a new etag; reads with ifMatch see one version',
      withStore(async (s, root) => {
        const at = `${root}v`;
        const first = await s.put(at, bytes('version one'));
        const second = await s.put(at, bytes('two'));
        assert.notEqual(second.etag, first.etag);
        assert.equal(text(await s.read(at)), 'two');
        assert.equal(text(await s.read(at, { offset: 0, length: 3 }, { ifMatch: second.etag })), 'two');
        await assert.rejects(s.read(at, { offset: 0, length: 3 }, { ifMatch: first.etag }), PreconditionFailedError);
      }),
    );

    conditional?.(
      'creates only when absent (ifAbsent), once among concurrent writers',
      withStore(async (s, root) => {
        const at = `${root}metadata/v1.json`;
        await s.put(at, bytes('first'), { ifAbsent: true });
        await assert.rejects(s.put(at, bytes('second'), { ifAbsent: true }), PreconditionFailedError);
        assert.equal(text(await s.read(at)), 'first');
        const race = `${root}metadata/v2.json`;
        const tries = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) => s.put(race, bytes(`writer ${i}`), { ifAbsent: true })),
        );
        const won = tries.flatMap((t, i) => (t.status === 'fulfilled' ? [i] : []));
        assert.equal(won.length, 1);
        for (const t of tries) if (t.status === 'rejected') assert.ok(t.reason instanceof PreconditionFailedError);
        assert.equal(text(await s.read(race)), `writer ${won[0]}`);
      }),
    );

    conditional?.(
      'replaces only while the etag matches (ifMatch)',
      withStore(async (s, root) => {
        const at = `${root}pointer`;
        const v1 = await s.put(at, bytes('one'));
        const v2 = await s.put(at, bytes('two'), { ifMatch: v1.etag });
        await assert.rejects(s.put(at, bytes('stale'), { ifMatch: v1.etag }), PreconditionFailedError);
        assert.equal(text(await s.read(at)), 'two');
        await assert.rejects(s.put(`${root}nothing`, bytes('x'), { ifMatch: v2.etag }), PreconditionFailedError);
        await assert.rejects(s.head(`${root}nothing`), ObjectNotFoundError);
      }),
    );

    it(
      'lists by prefix, at any depth, sorted by location',
      withStore(async (s, root) => {
        for (const k of ['t/b.parquet', 't/a.parquet', 't/sub/c.parquet', 't2/d.parquet', 'u/e.parquet', 't/.hidden'])
          await s.put(`${root}${k}`, bytes(k));
        const names = async (prefix: string) =>
          (await s.list(`${root}${prefix}`)).map((m) => m.location.slice(root.length));
        assert.deepEqual(await names('t/'), ['t/.hidden', 't/a.parquet', 't/b.parquet', 't/sub/c.parquet']);
        assert.deepEqual(await names('t'), [
          't/.hidden',
          't/a.parquet',
          't/b.parquet',
          't/sub/c.parquet',
          't2/d.parquet',
        ]);
        assert.deepEqual(await names('t/a'), ['t/a.parquet']);
        assert.deepEqual(await names('none/'), []);
        const [meta] = await s.list(`${root}u/`);
        assert.equal(meta!.size, 'u/e.parquet'.length);
        assert.equal(meta!.etag, (await s.head(`${root}u/e.parquet`)).etag);
      }),
    );

    it(
      'deletes, and deleting what is not there is no error',
      withStore(async (s, root) => {
        await s.put(`${root}gone`, bytes('x'));
        await s.delete(`${root}gone`);
        await assert.rejects(s.head(`${root}gone`), ObjectNotFoundError);
        await s.delete(`${root}gone`);
        assert.deepEqual(await s.list(`${root}gone`), []);
      }),
    );
  });
}
