// ResultsCache: LRU by bytes, TTL, the per-entry cap, invalidation by table and the epoch guard.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResultsCache } from '../../../../server/cache/results-cache.js';

const body = (n: number) => new Uint8Array(n).fill(7);
const result = (n: number, tables: string[] = ['t']) => ({ contentType: 'application/json', body: body(n), tables });

describe('ResultsCache', () => {
  it('keeps its own copy of a body that is a view into a larger buffer', () => {
    const cache = new ResultsCache({ maxBytes: 3000, ttlMs: 1000, maxEntryBytes: 1000 });
    const batch = new Uint8Array(2000).fill(1);
    const view = batch.subarray(100, 110);
    assert.ok(cache.set('v', { contentType: 'text/csv', body: view, tables: ['t'] }, cache.epoch));
    const stored = cache.get('v')!.body;
    assert.equal(stored.buffer.byteLength, 10);
    assert.deepEqual([...stored], [...view]);
    const whole = body(10);
    assert.ok(cache.set('w', { contentType: 'text/csv', body: whole, tables: ['t'] }, cache.epoch));
    assert.equal(cache.get('w')!.body, whole, 'a body that owns its buffer is kept as it is');
  });

  it('evicts least recently used entries to stay under its byte bound', () => {
    const cache = new ResultsCache({ maxBytes: 3000, ttlMs: 1000, maxEntryBytes: 1000 });
    for (const k of ['a', 'b']) assert.ok(cache.set(k, result(800), cache.epoch));
    assert.ok(cache.get('a'), 'a is now the most recently used');
    assert.ok(cache.set('c', result(800), cache.epoch));
    assert.ok(cache.bytes <= 3000, `${cache.bytes} bytes`);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.ok(cache.get('a'));
    assert.ok(cache.get('c'));
  });

  it('keeps recency right when the newest entry is hit again, deleted or replaced', () => {
    const cache = new ResultsCache({ maxBytes: 3000, ttlMs: 1000, maxEntryBytes: 1000 });
    for (const k of ['a', 'b']) assert.ok(cache.set(k, result(800), cache.epoch));
    for (let i = 0; i < 3; i++) assert.ok(cache.get('b'), 'b, the newest, hit again');
    assert.ok(cache.get('a'), 'a becomes the newest');
    assert.ok(cache.get('b'), 'b becomes the newest again');
    assert.ok(cache.set('c', result(800), cache.epoch));
    assert.equal(cache.get('a'), undefined, 'a was the least recently used');
    cache.invalidate(['t']);
    assert.equal(cache.size, 0);
    for (const k of ['x', 'y']) assert.ok(cache.set(k, result(800), cache.epoch));
    assert.ok(cache.get('x'), 'x, no longer the newest after y was set, moves to the end');
    assert.ok(cache.set('z', result(800), cache.epoch));
    assert.equal(cache.get('y'), undefined, 'y was the least recently used');
    assert.ok(cache.get('x') && cache.get('z'));
  });

  it('refuses bodies over the per-entry cap (default an eighth of the bound)', () => {
    const cache = new ResultsCache({ maxBytes: 8000, ttlMs: 1000 });
    assert.equal(cache.maxEntryBytes, 1000);
    assert.equal(cache.set('big', result(1001), cache.epoch), false);
    assert.ok(cache.set('fits', result(1000), cache.epoch));
  });

  it('expires entries after the TTL', () => {
    let now = 0;
    const cache = new ResultsCache({ maxBytes: 10_000, ttlMs: 100, now: () => now });
    cache.set('k', result(10), cache.epoch);
    now = 99;
    assert.ok(cache.get('k'));
    now = 100;
    assert.equal(cache.get('k'), undefined);
    assert.equal(cache.bytes, 0, 'an expired entry gives its bytes back');
  });

  it('counts hits and misses (an expired entry is a miss) for the metrics', () => {
    let now = 0;
    const cache = new ResultsCache({ maxBytes: 10_000, ttlMs: 100, now: () => now });
    cache.get('k');
    cache.set('k', result(10), cache.epoch);
    cache.get('k');
    cache.get('k');
    now = 100;
    cache.get('k');
    assert.deepEqual([cache.hits, cache.misses, cache.maxBytes], [2, 2, 10_000]);
  });

  it('drops the entries that read an invalidated table, case-insensitively', () => {
    const cache = new ResultsCache({ maxBytes: 10_000, ttlMs: 1000 });
    cache.set('orders', result(10, ['orders']), cache.epoch);
    cache.set('join', result(10, ['lineitem', 'orders']), cache.epoch);
    cache.set('nation', result(10, ['nation']), cache.epoch);
    cache.invalidate(['ORDERS']);
    assert.equal(cache.get('orders'), undefined);
    assert.equal(cache.get('join'), undefined);
    assert.ok(cache.get('nation'));
  });

  it('does not store a result begun before an invalidation', () => {
    const cache = new ResultsCache({ maxBytes: 10_000, ttlMs: 1000 });
    const started = cache.epoch;
    cache.invalidate(['t']);
    assert.equal(cache.set('k', result(10), started), false);
    assert.ok(cache.set('k', result(10), cache.epoch));
  });

  it('replaces an entry stored again under the same key', () => {
    const cache = new ResultsCache({ maxBytes: 10_000, ttlMs: 1000 });
    cache.set('k', result(100), cache.epoch);
    cache.set('k', result(50), cache.epoch);
    assert.equal(cache.size, 1);
    assert.equal(cache.get('k')?.body.byteLength, 50);
    const fresh = new ResultsCache({ maxBytes: 10_000, ttlMs: 1000 });
    fresh.set('k', result(50), fresh.epoch);
    assert.equal(cache.bytes, fresh.bytes, 'the replaced entry gave its bytes back');
  });
});
