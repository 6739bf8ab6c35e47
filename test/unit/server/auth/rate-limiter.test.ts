// `RateLimiter`: burst then refill per id, whole-second Retry-After, and bounded memory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter } from '../../../../server/auth/rate-limiter.js';

function limiter(requestsPerSecond: number, burst: number, maxBuckets?: number) {
  let now = 0;
  const l = new RateLimiter({ requestsPerSecond, burst }, { maxBuckets, now: () => now });
  return { l, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('allows a burst, then one request per refilled token, per id', () => {
    const { l, advance } = limiter(2, 3);
    assert.deepEqual([l.take('a'), l.take('a'), l.take('a'), l.take('a')], [0, 0, 0, 1]);
    assert.equal(l.take('b'), 0);
    advance(499);
    assert.equal(l.take('a'), 1);
    advance(1);
    assert.deepEqual([l.take('a'), l.take('a')], [0, 1]);
    advance(10_000);
    assert.deepEqual([l.take('a'), l.take('a'), l.take('a'), l.take('a')], [0, 0, 0, 1]);
  });

  it('says how many whole seconds until the next token (rounded up)', () => {
    const { l, advance } = limiter(0.25, 1);
    assert.equal(l.take('a'), 0);
    assert.equal(l.take('a'), 4);
    advance(1500);
    assert.equal(l.take('a'), 3);
    advance(2400);
    assert.equal(l.take('a'), 1);
  });

  it('keeps at most maxBuckets ids: refilled ones go first, else the oldest', () => {
    const { l, advance } = limiter(1, 2, 100);
    for (let i = 0; i < 100; i++) l.take(`id${i}`);
    assert.equal(l.size, 100);
    advance(5_000);
    l.take('late');
    assert.equal(l.size, 1);
    for (let i = 0; i < 1000; i++) l.take(`flood${i}`);
    assert.ok(l.size <= 100, `${l.size} buckets`);
  });
});
