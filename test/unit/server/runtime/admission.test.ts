// `Admission`: max_concurrent admitted, max_queued waiting first in first out, then refused; withdrawn waiters skipped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Admission } from '../../../../server/runtime/admission.js';

test('admits up to max, queues up to max_queued in order, refuses beyond, skips withdrawn ones', () => {
  const admission = new Admission(2, 2);
  const started: string[] = [];
  const enter = (name: string) => admission.enter(() => started.push(name));
  assert.notEqual(enter('a'), null);
  assert.notEqual(enter('b'), null);
  const withdrawC = enter('c');
  assert.notEqual(enter('d'), null);
  assert.equal(enter('e'), null, 'queue full');
  assert.deepEqual([admission.active, admission.queued], [2, 2]);
  withdrawC?.();
  admission.leave();
  assert.deepEqual(started, ['a', 'b', 'd']);
  admission.leave();
  admission.leave();
  assert.deepEqual([admission.active, admission.queued], [0, 0]);
});
