// `FlagSignal`: aborted once the shared flag says so or `abort` is called; 'abort' listeners run once either way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlagSignal } from '../../../../server/pool/flag-signal.js';

test('FlagSignal: the flag aborts it at the next check, and its listeners run once', () => {
  let flag = false;
  const signal = new FlagSignal(() => flag);
  let calls = 0;
  signal.addEventListener('abort', () => calls++, { once: true });
  assert.equal(signal.aborted, false);
  signal.throwIfAborted();
  flag = true;
  assert.equal(signal.aborted, true);
  assert.equal(signal.aborted, true);
  assert.equal(calls, 1);
  assert.throws(() => signal.throwIfAborted(), { name: 'AbortError' });
  signal.abort();
  assert.equal(calls, 1);
});

test('FlagSignal: abort() without the flag; a removed listener does not run', () => {
  const signal = new FlagSignal(() => false);
  let kept = 0;
  let removed = 0;
  const drop = () => removed++;
  signal.addEventListener('abort', () => kept++);
  signal.addEventListener('abort', drop);
  signal.removeEventListener('abort', drop);
  signal.abort();
  assert.equal(signal.aborted, true);
  assert.deepEqual([kept, removed], [1, 0]);
  assert.ok(signal.reason instanceof Error);
});

test('FlagSignal: read only through `aborted`, it never needs a listener list', () => {
  let flag = false;
  const signal = new FlagSignal(() => flag);
  assert.equal(signal.reason, undefined);
  flag = true;
  assert.equal(signal.aborted, true);
  assert.equal((signal.reason as Error | undefined)?.name, 'AbortError');
});
