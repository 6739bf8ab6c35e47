// Retry delays: exponential and Fibonacci from the initial delay, capped, scaled into [0.5, 1); refresh jitter is ±.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exponentialDelay, fibonacciDelay, jittered } from '../../../../server/datasets/backoff.js';

const B = { initialMs: 1000, maxMs: 60_000 };
const top = () => 0.999_999;
const bottom = () => 0;

describe('backoff', () => {
  it('doubles from the initial delay up to the cap', () => {
    const delays = [1, 2, 3, 4, 7, 8, 50].map((n) => exponentialDelay(n, B, top));
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
    assert.equal(exponentialDelay(3, B, bottom), 2000, 'jitter scales down to half');
  });

  it('follows Fibonacci for refresh retries, capped', () => {
    const delays = [1, 2, 3, 4, 5, 6, 10, 11, 40].map((n) => fibonacciDelay(n, B, top));
    assert.deepEqual(delays, [1000, 1000, 2000, 3000, 5000, 8000, 55_000, 60_000, 60_000]);
    assert.equal(fibonacciDelay(5, B, bottom), 2500);
  });

  it('shifts a scheduled refresh by up to the jitter either way, never below 0', () => {
    assert.deepEqual(
      [jittered(10_000, 1000, bottom), jittered(10_000, 1000, () => 0.5), jittered(10_000, 0, top)],
      [9000, 10_000, 10_000],
    );
    assert.equal(jittered(100, 1000, bottom), 0);
  });
});
