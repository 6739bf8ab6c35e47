// The workers' query counters in shared memory: several threads write, the main thread's sum is exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { histogramSamples } from '../../../../server/metrics/collected.js';
import {
  bucketOf,
  claimSlot,
  createCounterBuffer,
  DURATION_BUCKETS_MS,
  FAILURE_KINDS,
  readTotals,
  SLOT_DOUBLES,
  SLOTS,
} from '../../../../server/metrics/shared-counters.js';
import { openQueryCounters } from '../../../../server/metrics/worker-counters.js';

const WORKER_COUNTERS = new URL('../../../../server/metrics/worker-counters.js', import.meta.url).href;

// Each thread records `n` queries of 2 rows; every tenth fails as a plan error, every 25th with an unknown kind.
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.module).then(({ openQueryCounters }) => {
  const counters = openQueryCounters(workerData.buffer);
  for (let i = 0; i < workerData.n; i++) {
    const begin = counters.start();
    counters.end(begin, 2, i % 10 === 0 ? 'plan' : i % 25 === 1 ? 'brand_new_kind' : null);
  }
  parentPort.postMessage('done');
});
`;

function runThread(buffer: SharedArrayBuffer, n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD, { eval: true, workerData: { buffer, n, module: WORKER_COUNTERS } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
}

test('counts from several worker threads add up exactly, with no message per query', async () => {
  const buffer = createCounterBuffer();
  await Promise.all([runThread(buffer, 10_000), runThread(buffer, 10_000), runThread(buffer, 10_000)]);
  const totals = readTotals(buffer);
  assert.equal(totals.started, 30_000);
  assert.equal(totals.ended, 30_000);
  assert.equal(totals.rows, 60_000);
  assert.equal(totals.failures[FAILURE_KINDS.indexOf('plan')], 3_000);
  assert.equal(totals.failures[FAILURE_KINDS.indexOf('other')], 1_200);
  assert.equal(
    totals.buckets.reduce((a, b) => a + b, 0),
    30_000,
  );
  assert.ok(totals.durationSumMs > 0);
});

test('a query in flight is started but not ended (query_active_count)', () => {
  const buffer = createCounterBuffer();
  const counters = openQueryCounters(buffer);
  const begin = counters.start();
  assert.deepEqual([readTotals(buffer).started, readTotals(buffer).ended], [1, 0]);
  counters.end(begin, 0, 'cancelled');
  const totals = readTotals(buffer);
  assert.deepEqual([totals.started, totals.ended, totals.failures[FAILURE_KINDS.indexOf('cancelled')]], [1, 1, 1]);
});

test('without a buffer (metrics off) the counters do nothing', () => {
  const counters = openQueryCounters(undefined);
  counters.end(counters.start(), 5, 'plan');
});

test('slots are claimed one per thread, on separate cache lines, and reused past SLOTS', () => {
  const buffer = createCounterBuffer();
  const first = claimSlot(buffer);
  assert.deepEqual([first, claimSlot(buffer)], [0, SLOT_DOUBLES]);
  assert.equal((SLOT_DOUBLES * 8) % 64, 0);
  for (let i = 2; i < SLOTS; i++) claimSlot(buffer);
  assert.equal(claimSlot(buffer), 0);
});

test('bucketOf: a duration goes to the first bound it does not exceed', () => {
  assert.equal(bucketOf(0), 0);
  assert.equal(bucketOf(0.25), 0);
  assert.equal(bucketOf(0.3), 1);
  assert.equal(bucketOf(1000), DURATION_BUCKETS_MS.indexOf(1000));
  assert.equal(bucketOf(1e9), DURATION_BUCKETS_MS.length);
});

test('histogramSamples: cumulative buckets, +Inf, _sum and _count', () => {
  assert.deepEqual(histogramSamples('h', [1, 5], [2, 0, 3], 12.5), [
    { metricName: 'h_bucket', labels: { le: 1 }, value: 2 },
    { metricName: 'h_bucket', labels: { le: 5 }, value: 2 },
    { metricName: 'h_bucket', labels: { le: '+Inf' }, value: 5 },
    { metricName: 'h_sum', labels: {}, value: 12.5 },
    { metricName: 'h_count', labels: {}, value: 5 },
  ]);
});
