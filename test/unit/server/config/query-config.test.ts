// runtime.query (timeout, memory_limit, max_concurrent, max_queued, kill_grace) and runtime.shutdown_timeout.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../../../server/config/manifest.js';
import { DEFAULT_QUERY_CONFIG, formatDuration } from '../../../../server/config/query-config.js';
import { loadRuntime, runtimeProblem } from '../../../helpers/manifest-runtime.js';

const base = { version: 'v1', kind: 'Spicepod', name: 'm' };
const load = (runtime: object) => loadRuntime(runtime);

describe('query config', () => {
  it("defaults to Spice's 5 minute time-out, admission 256 + 1024, no warning", () => {
    const m = parseManifest(base, '/b', {});
    assert.deepEqual(m.query, DEFAULT_QUERY_CONFIG);
    assert.equal(m.query.timeoutMs, 300_000);
    assert.equal(m.shutdownTimeoutMs, 10_000);
    assert.deepEqual(load({ query: { timeout: '30s' } }).warnings, []);
  });

  it('reads every key in its usual spelling', () => {
    const m = load({
      query: { timeout: '1m 30s', memory_limit: '2GiB', max_concurrent: 8, max_queued: 0, kill_grace: '250ms' },
      shutdown_timeout: '3s',
    });
    assert.deepEqual(m.query, {
      timeoutMs: 90_000,
      memoryLimitBytes: 2 * 1024 ** 3,
      maxConcurrent: 8,
      maxQueued: 0,
      killGraceMs: 250,
    });
    assert.equal(m.shutdownTimeoutMs, 3000);
    assert.equal(load({ query: { memory_limit: 536870912 } }).query.memoryLimitBytes, 512 * 1024 ** 2);
  });

  it('names the key path of bad values', () => {
    const cases: [object, RegExp][] = [
      [{ query: { timeout: 'soon' } }, /^runtime\.query\.timeout: invalid duration 'soon'/],
      [{ query: { timeout: '0s' } }, /^runtime\.query\.timeout: invalid duration '0s'/],
      [{ query: { memory_limit: 'lots' } }, /^runtime\.query\.memory_limit: invalid memory limit 'lots'/],
      [{ query: { memory_limit: '1MiB' } }, /^runtime\.query\.memory_limit: .*at least 64MiB/],
      [{ query: { max_concurrent: 0 } }, /^runtime\.query\.max_concurrent: /],
      [{ query: { max_concurrent: 1.5 } }, /^runtime\.query\.max_concurrent: /],
      [{ query: { max_queued: -1 } }, /^runtime\.query\.max_queued: /],
      [{ query: { kill_grace: 'x' } }, /^runtime\.query\.kill_grace: invalid duration/],
      [{ query: { timeout_ms: 5 } }, /^runtime\.query\.timeout_ms: unknown key$/],
      [{ shutdown_timeout: 'later' }, /^runtime\.shutdown_timeout: invalid duration 'later'/],
    ];
    for (const [runtime, expected] of cases) assert.match(runtimeProblem(runtime), expected, JSON.stringify(runtime));
  });

  it('names a duration the way the manifest would', () => {
    assert.deepEqual([300_000, 30_000, 1500, 90_000].map(formatDuration), ['5m', '30s', '1500ms', '90s']);
  });
});
