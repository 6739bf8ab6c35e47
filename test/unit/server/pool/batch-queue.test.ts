// `BatchQueue`: first in, first out; a batch is the head plus the run of queries behind it that were cheap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchQueue, CHEAP_MS, costKey } from '../../../../server/pool/batch-queue.js';

interface Q {
  readonly name: string;
  readonly key: string | null;
  cancelled: boolean;
  seq: number;
  light: boolean;
}
const q = (name: string, key: string | null = name): Q => ({ name, key, cancelled: false, seq: 0, light: false });
const names = (qs: readonly Q[]) => qs.map((x) => x.name).join(' ');

test('costKey: literals become ?, identifiers with digits stay, long statements get no key', () => {
  assert.equal(
    costKey("SELECT * FROM t1 WHERE a = 42 AND b = 'it''s' AND c >= 1.5e3 AND d = -7 AND e = $1"),
    'SELECT * FROM t1 WHERE a = ? AND b = ? AND c >= ? AND d = -? AND e = $?',
  );
  assert.equal(costKey('SELECT 1'), costKey('SELECT 2'));
  assert.notEqual(costKey('SELECT a FROM t'), costKey('SELECT b FROM t'));
  assert.equal(costKey(`SELECT ${'1,'.repeat(3000)}1`), null);
});

test('unknown and costly queries are taken one at a time, in order', () => {
  const queue = new BatchQueue<Q>();
  for (const n of ['a', 'b', 'c']) queue.push(q(n));
  queue.recordCost('b', CHEAP_MS);
  assert.equal(queue.size, 3);
  assert.equal(names(queue.take(32)), 'a');
  assert.equal(names(queue.take(32)), 'b');
  assert.equal(names(queue.take(32)), 'c');
  assert.deepEqual(queue.take(32), []);
  assert.equal(queue.size, 0);
});

test('a cheap head takes the cheap queries behind it, up to max, and stops at the first that is not', () => {
  const queue = new BatchQueue<Q>();
  queue.recordCost('cheap', 0.05);
  queue.recordCost('slow', 40);
  for (let i = 0; i < 5; i++) queue.push(q(`c${i}`, 'cheap'));
  queue.push(q('s', 'slow'));
  queue.push(q('c5', 'cheap'));
  queue.push(q('u', null));
  assert.equal(names(queue.take(3)), 'c0 c1 c2');
  // The heavy query waits in its own lane: the cheap one behind it stays in the light lane's run.
  assert.equal(names(queue.take(32)), 'c3 c4 c5');
  assert.equal(names(queue.take(32)), 's');
  assert.equal(names(queue.take(32)), 'u');
});

test('lanes: the oldest head of both lanes goes first; lightOnly skips the heavy lane', () => {
  const queue = new BatchQueue<Q>();
  queue.recordCost('light', 5);
  queue.push(q('h1', 'heavy'));
  queue.push(q('l1', 'light'));
  queue.push(q('h2', 'heavy'));
  queue.push(q('l2', 'light'));
  assert.equal(queue.lightSize, 2);
  assert.equal(names(queue.take(32, true)), 'l1');
  assert.equal(names(queue.take(32)), 'h1');
  assert.equal(names(queue.take(32)), 'h2');
  assert.deepEqual(
    queue.take(32, true).map((x) => x.name),
    ['l2'],
  );
  assert.deepEqual(queue.take(32, true), []);
});

test('cancelled queries are dropped, and putBack returns queries to the front in their order', () => {
  const queue = new BatchQueue<Q>();
  queue.recordCost('k', 0.1);
  const all = Array.from({ length: 6 }, (_, i) => q(`q${i}`, 'k'));
  for (const x of all) queue.push(x);
  all[0].cancelled = true;
  all[2].cancelled = true;
  const first = queue.take(3);
  assert.equal(names(first), 'q1 q3 q4');
  queue.putBack(first.slice(1));
  queue.push(q('q6', 'k'));
  assert.equal(names(queue.take(32)), 'q3 q4 q5 q6');
  queue.recordCost('k', 5);
  queue.push(q('q7', 'k'));
  queue.push(q('q8', 'k'));
  assert.equal(names(queue.take(32)), 'q7');
});

test('a long queue is compacted as it is taken, without losing or reordering queries', () => {
  const queue = new BatchQueue<Q>();
  queue.recordCost('k', 0.1);
  const taken: string[] = [];
  for (let i = 0; i < 5000; i++) {
    queue.push(q(String(i), 'k'));
    if (i % 3 === 0) for (const x of queue.take(2)) taken.push(x.name);
  }
  while (queue.size > 0) for (const x of queue.take(7)) taken.push(x.name);
  assert.deepEqual(
    taken,
    Array.from({ length: 5000 }, (_, i) => String(i)),
  );
});
