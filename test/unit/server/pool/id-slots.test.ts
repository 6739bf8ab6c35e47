// `IdSlots`: a Map from positive int32 ids, checked against a Map under random adds, replaces and deletes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdSlots } from '../../../../server/pool/id-slots.js';
import { makeRng } from '../../../helpers/gen-data.js';

function assertSame(slots: IdSlots<string>, oracle: Map<number, string>, probes: readonly number[]): void {
  assert.equal(slots.size, oracle.size);
  for (const id of probes) {
    assert.equal(slots.get(id), oracle.get(id), `get(${id})`);
    assert.equal(slots.has(id), oracle.has(id), `has(${id})`);
  }
}

test('random adds, replaces and deletes agree with a Map, through growth and long probe runs', () => {
  for (const seed of [1, 2, 3]) {
    const next = makeRng(seed);
    const slots = new IdSlots<string>();
    const oracle = new Map<number, string>();
    // Ids from a narrow range collide in the table (same low bits) and make long probe runs, whose deletes must
    // shift the later entries back; a few ids near 2^31 - 1 and sequential ones as the pool hands them out.
    const pick = (): number => {
      const r = next();
      if (r < 0.4) return 1 + Math.floor(next() * 300);
      if (r < 0.5) return 0x7fffffff - Math.floor(next() * 8);
      return 1 + 64 * Math.floor(next() * 40);
    };
    const seen: number[] = [];
    for (let step = 0; step < 20_000; step++) {
      const id = pick();
      seen.push(id);
      const r = next();
      if (r < 0.55) {
        const value = `v${step}`;
        slots.set(id, value);
        oracle.set(id, value);
      } else {
        assert.equal(slots.delete(id), oracle.delete(id), `delete(${id}) at step ${step}`);
      }
      if (step % 500 === 0) assertSame(slots, oracle, seen.slice(-200));
    }
    assertSame(slots, oracle, [...new Set(seen)]);
    // Empty it: every id deletes once, then nothing is left.
    for (const id of [...oracle.keys()]) assert.equal(slots.delete(id), true);
    assert.equal(slots.size, 0);
    for (const id of new Set(seen)) assert.equal(slots.has(id), false);
  }
});

test('a long-lived id stays findable while sequential ids wrap the table many times', () => {
  const slots = new IdSlots<string>();
  slots.set(5, 'long');
  for (let id = 6; id < 100_000; id++) {
    slots.set(id, 'x');
    if (id >= 36) slots.delete(id - 30);
  }
  assert.equal(slots.get(5), 'long');
  assert.equal(slots.size, 1 + 30);
});

test('ids must be positive int32s', () => {
  const slots = new IdSlots<number>();
  for (const bad of [0, -1, 1.5, 2 ** 31, Number.NaN]) assert.throws(() => slots.set(bad, 1), RangeError);
  assert.equal(slots.get(0), undefined);
  assert.equal(slots.delete(0), false);
});
