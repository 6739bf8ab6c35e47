// Memory of replaced tables is freed: RSS after 20 reloads of an accelerated table stays within 10% of RSS after one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureReplacements } from '../../bench/catalog-replace.js';

// Just over 1 Mi rows (about 28 MiB loaded), so aggregates run on the workers' parallel helpers too: each of them,
// each worker's engines and plan caches, and the main thread must let every replaced copy go. A leak would add the
// table per reload (about 560 MiB over 20); the bench runs the same with 3 M rows.
test('RSS after 20 replacements of an accelerated table is within 10% of RSS after one', {
  timeout: 600_000,
}, async () => {
  const r = await measureReplacements(1_100_000, 20, 2);
  assert.ok(
    r.lastMiB <= r.firstMiB * 1.1,
    `RSS ${r.firstMiB.toFixed(0)} MiB after 1 replacement, ${r.lastMiB.toFixed(0)} MiB after ${r.times}`,
  );
});
