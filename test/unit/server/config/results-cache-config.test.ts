// runtime.caching.sql_results and the deprecated runtime.results_cache: defaults, mapping, and errors by key path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../../../server/config/manifest.js';
import { parseByteSize, parseDuration } from '../../../../server/config/results-cache-config.js';
import { loadRuntime, runtimeProblem } from '../../../helpers/manifest-runtime.js';

const base = { version: 'v1', kind: 'Spicepod', name: 'm' };
const load = (runtime: object) => loadRuntime(runtime);

describe('results cache config', () => {
  it("defaults to Spice's: on, 128 MiB, 1 s, keyed by plan", () => {
    const m = parseManifest(base, '/b', {});
    assert.deepEqual(m.resultsCache, { enabled: true, maxBytes: 128 * 1024 * 1024, ttlMs: 1000, keyType: 'plan' });
    assert.deepEqual(m.warnings, []);
  });

  it('reads caching.sql_results, unset fields keeping their defaults', () => {
    const m = load({ caching: { sql_results: { max_size: '1GiB', item_ttl: '30s', cache_key_type: 'sql' } } });
    assert.deepEqual(m.resultsCache, { enabled: true, maxBytes: 1024 ** 3, ttlMs: 30_000, keyType: 'sql' });
    assert.equal(load({ caching: { sql_results: { enabled: false } } }).resultsCache.enabled, false);
  });

  it('maps the deprecated results_cache onto sql_results, with a warning', () => {
    const m = load({
      results_cache: { enabled: true, cache_max_size: '64MB', item_ttl: '500ms', eviction_policy: 'lru' },
    });
    assert.deepEqual(m.resultsCache, { enabled: true, maxBytes: 64e6, ttlMs: 500, keyType: 'plan' });
    assert.deepEqual(m.warnings, ['runtime.results_cache: deprecated; read as runtime.caching.sql_results']);
  });

  it('prefers caching.sql_results over results_cache when both are set', () => {
    const m = load({ results_cache: { enabled: false }, caching: { sql_results: { item_ttl: '2s' } } });
    assert.equal(m.resultsCache.enabled, true);
    assert.equal(m.resultsCache.ttlMs, 2000);
    assert.deepEqual(m.warnings, ['runtime.results_cache: ignored: runtime.caching.sql_results is set']);
  });

  it('accepts search_results and embeddings with a warning', () => {
    const m = load({ caching: { search_results: { enabled: true }, embeddings: { enabled: true } } });
    assert.deepEqual(m.warnings, [
      'runtime.caching.search_results: not supported yet; ignored',
      'runtime.caching.embeddings: not supported yet; ignored',
    ]);
  });

  it('names the key path of bad values', () => {
    const cases: [object, RegExp][] = [
      [
        { caching: { sql_results: { max_size: 'lots' } } },
        /^runtime\.caching\.sql_results\.max_size: invalid size 'lots'/,
      ],
      [
        { caching: { sql_results: { item_ttl: '1 fortnight' } } },
        /^runtime\.caching\.sql_results\.item_ttl: invalid duration/,
      ],
      [{ caching: { sql_results: { enabled: 'yes' } } }, /^runtime\.caching\.sql_results\.enabled: expected boolean/],
      [{ caching: { sql_results: { eviction_policy: 'tiny_lfu' } } }, /'tiny_lfu' is not supported yet; use lru/],
      [{ caching: { sql_results: { eviction_policy: 'fifo' } } }, /unknown eviction policy 'fifo'/],
      [{ caching: { sql_results: { cache_key_type: 'hash' } } }, /^runtime\.caching\.sql_results\.cache_key_type: /],
      [{ caching: { sql_results: { size: 1 } } }, /^runtime\.caching\.sql_results\.size: unknown key$/],
      [{ results_cache: { max_size: '1MB' } }, /^runtime\.results_cache\.max_size: unknown key$/],
      [{ results_cache: { cache_max_size: -1 } }, /^runtime\.results_cache\.cache_max_size: invalid size '-1'/],
    ];
    for (const [runtime, expected] of cases) assert.match(runtimeProblem(runtime), expected, JSON.stringify(runtime));
  });

  it('parses sizes and durations in their usual spellings', () => {
    const sizes: [string | number, number | null][] = [
      ['128MiB', 128 * 1024 ** 2],
      ['1 GB', 1e9],
      ['512kb', 512e3],
      ['100', 100],
      [4096, 4096],
      ['1.5KiB', 1536],
      ['12 parsecs', null],
      [1.5, null],
    ];
    for (const [text, bytes] of sizes) assert.equal(parseByteSize(text), bytes, String(text));
    const durations: [string | number, number | null][] = [
      ['1s', 1000],
      ['250ms', 250],
      ['10m', 600_000],
      ['1h 30m', 5_400_000],
      [2, 2000],
      ['soon', null],
      ['5', null],
      [1e308, null],
      [`${'9'.repeat(400)}h`, null],
    ];
    for (const [text, ms] of durations) assert.equal(parseDuration(text), ms, String(text));
  });
});
