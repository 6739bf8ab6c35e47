// Prometheus metrics over real HTTP: scrape /metrics, parse it, and check the families move with traffic.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../server/main.js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { get, post } from '../helpers/http.js';
import { parseExposition, type Scrape } from '../helpers/prometheus-text.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let dir: string;
let people: { name: string; from: string }[];
let srv: TestServer;
let metricsUrl: string;

before(async () => {
  dir = await makeTempDir();
  people = [{ name: 'people', from: `file:${await writePeople(join(dir, 'people.parquet'))}` }];
  srv = await startTestServer(people, {
    metrics: { host: '127.0.0.1', port: 0 },
    runtime: { caching: { sql_results: { item_ttl: '1h' } } },
  });
  metricsUrl = `http://127.0.0.1:${srv.server.metrics?.port}/metrics`;
});
after(() => srv.close());

async function scrape(url = metricsUrl): Promise<Scrape> {
  const res = await get(url);
  assert.equal(res.status, 200);
  assert.equal(res.contentType, 'text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(res.text);
}

/** The change of each `name` (summed over samples matching `labels`) across `traffic`. */
async function delta(traffic: () => Promise<void>, names: [string, Record<string, string>?][]): Promise<number[]> {
  const before = await scrape();
  await traffic();
  const after = await scrape();
  return names.map(([name, labels]) => after.sum(name, labels) - before.sum(name, labels));
}

describe('GET /metrics', () => {
  it('publishes every family with its type, gauges at their current values', async () => {
    const m = await scrape();
    const types = Object.fromEntries(
      [
        'http_requests',
        'http_requests_duration_ms',
        'query_executions',
        'query_duration_ms',
        'query_failures',
        'query_active_count',
        'query_returned_rows',
        'results_cache_requests',
        'results_cache_hits',
        'results_cache_misses',
        'results_cache_items_count',
        'results_cache_size_bytes',
        'dataset_load_state',
        'process_resident_memory_bytes',
        'pool_queue_length',
        'pool_worker_restarts',
      ].map((name) => [name, m.types.get(name)]),
    );
    assert.deepEqual(types, {
      http_requests: 'counter',
      http_requests_duration_ms: 'histogram',
      query_executions: 'counter',
      query_duration_ms: 'histogram',
      query_failures: 'counter',
      query_active_count: 'gauge',
      query_returned_rows: 'counter',
      results_cache_requests: 'counter',
      results_cache_hits: 'counter',
      results_cache_misses: 'counter',
      results_cache_items_count: 'gauge',
      results_cache_size_bytes: 'gauge',
      dataset_load_state: 'gauge',
      process_resident_memory_bytes: 'gauge',
      pool_queue_length: 'gauge',
      pool_worker_restarts: 'counter',
    });
    assert.equal(m.value('dataset_load_state', { dataset: 'people' }), 1);
    assert.equal(m.value('query_active_count'), 0);
    assert.equal(m.value('pool_queue_length'), 0);
    assert.equal(m.value('query_failures', { err_code: 'internal' }), 0);
    assert.ok((m.value('process_resident_memory_bytes') ?? 0) > 10_000_000);
    assert.equal(m.value('query_duration_ms_bucket', { le: '+Inf' }), m.value('query_duration_ms_count'));
  });

  it('counts queries run on the workers: executions, rows, durations', async () => {
    const [executions, rows, durations, failures] = await delta(async () => {
      for (let i = 0; i < 6; i++) {
        const res = await post(srv.sql, `SELECT id FROM people WHERE id > ${i % 3}`, { 'cache-control': 'no-cache' });
        assert.equal(res.status, 200);
      }
    }, [['query_executions'], ['query_returned_rows'], ['query_duration_ms_count'], ['query_failures']]);
    // id > 0, > 1, > 2 twice each: 5 + 4 + 3 rows, twice.
    assert.deepEqual([executions, rows, durations, failures], [6, 24, 6, 0]);
  });

  it('counts a failed query under its error kind, and its 400 by route and status', async () => {
    const [plan, parse, executions, http400, http200] = await delta(async () => {
      const res = await post(srv.sql, 'SELECT no_such_column FROM people');
      assert.equal(res.status, 400);
    }, [
      ['query_failures', { err_code: 'plan' }],
      ['query_failures', { err_code: 'parse' }],
      ['query_executions'],
      ['http_requests_duration_ms_count', { method: 'POST', path: '/v1/sql', status: '400' }],
      ['http_requests', { method: 'POST', path: '/v1/sql', status: '200' }],
    ]);
    assert.deepEqual([plan, parse, executions, http400, http200], [1, 0, 1, 1, 0]);
  });

  it('counts results cache lookups: a miss, then hits served without the pool', async () => {
    const sql = 'SELECT name FROM people ORDER BY id';
    const [requests, misses, hits, executions, items] = await delta(async () => {
      for (let i = 0; i < 3; i++) assert.equal((await post(srv.sql, sql)).status, 200);
    }, [
      ['results_cache_requests'],
      ['results_cache_misses'],
      ['results_cache_hits'],
      ['query_executions'],
      ['results_cache_items_count'],
    ]);
    assert.deepEqual([requests, misses, hits, executions, items], [3, 1, 2, 1, 1]);
    assert.ok(((await scrape()).value('results_cache_size_bytes') ?? 0) > 0);
  });

  it('labels HTTP requests by route pattern, never by the raw URL', async () => {
    const [health, notFound, wrongMethod, otherMethod] = await delta(async () => {
      assert.equal((await get(`${srv.base}/health`)).status, 200);
      assert.equal((await get(`${srv.base}/secret/path?token=abc`)).status, 404);
      assert.equal((await get(`${srv.base}/v1/sql`)).status, 405);
      assert.equal((await get(`${srv.base}/health`, 'DELETE')).status, 405);
    }, [
      ['http_requests', { method: 'GET', path: '/health', status: '200' }],
      ['http_requests', { method: 'GET', path: '/*', status: '404' }],
      ['http_requests_duration_ms_count', { method: 'GET', path: '/v1/sql', status: '405' }],
      ['http_requests', { method: 'DELETE', path: '/health', status: '405' }],
    ]);
    assert.deepEqual([health, notFound, wrongMethod, otherMethod], [1, 1, 1, 1]);
    const text = (await get(metricsUrl)).text;
    assert.doesNotMatch(text, /secret|token/);
  });

  it('answers only GET /metrics: 404 on other paths, 405 on other methods', async () => {
    const base = metricsUrl.replace('/metrics', '');
    assert.equal((await get(`${base}/`)).status, 404);
    assert.equal((await get(`${base}/v1/sql`)).status, 404);
    assert.equal((await get(`${base}/metrics/x`)).status, 404);
    const postMetrics = await post(metricsUrl, '');
    assert.deepEqual([postMetrics.status, postMetrics.headers.get('allow')], [405, 'GET']);
    assert.equal((await get(`${metricsUrl}?name[]=x`)).status, 200);
  });

  it('shows a query running on a worker in query_active_count', async () => {
    // A cross join long enough to be caught running (the client leaves, which cancels it).
    const controller = new AbortController();
    const running = fetch(srv.sql, {
      method: 'POST',
      body: 'SELECT count(*) FROM people a, people b, people c, people d, people e, people f, people g, people h, people i',
      headers: { 'cache-control': 'no-cache' },
      signal: controller.signal,
    }).catch(() => null);
    let active = 0;
    // Up to 10 s: on a loaded machine the query may wait a while for a worker before it runs.
    for (let i = 0; i < 1000 && active === 0; i++) {
      active = (await scrape()).value('query_active_count') ?? 0;
      if (active === 0) await new Promise((r) => setTimeout(r, 10));
    }
    controller.abort();
    await running;
    assert.equal(active, 1);
  });
});

describe('metrics settings', () => {
  it('is off by default in-process (tests, embedders): no listener', async () => {
    const off = await startTestServer(people, { workers: 1 });
    try {
      assert.equal(off.server.metrics, null);
    } finally {
      await off.close();
    }
  });

  it('runtime.metrics in the manifest turns it on or off; the explicit option wins', async () => {
    const on = await startTestServer(people, { workers: 1, runtime: { metrics: { endpoint: '127.0.0.1:0' } } });
    const disabled = await startTestServer(people, {
      workers: 1,
      metricsDefault: { host: '127.0.0.1', port: 0 },
      runtime: { metrics: { enabled: false } },
    });
    const overridden = await startTestServer(people, {
      workers: 1,
      metrics: 'off',
      runtime: { metrics: { endpoint: '127.0.0.1:0' } },
    });
    try {
      assert.equal(typeof on.server.metrics?.port, 'number');
      const m = await scrape(`http://127.0.0.1:${on.server.metrics?.port}/metrics`);
      assert.equal(m.value('query_executions'), 0);
      assert.equal(disabled.server.metrics, null);
      assert.equal(overridden.server.metrics, null);
    } finally {
      await Promise.all([on.close(), disabled.close(), overridden.close()]);
    }
  });

  it('refuses to start when the metrics address is taken, naming it', async () => {
    const port = srv.server.metrics?.port as number;
    await assert.rejects(
      startServer({
        manifest: { version: 'v1', kind: 'Spicepod', name: 't' },
        port: 0,
        metrics: { host: '127.0.0.1', port },
        log: () => {},
      }),
      new RegExp(`cannot listen for metrics on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`),
    );
  });

  it('rejects a malformed runtime.metrics.endpoint with its key path', async () => {
    await assert.rejects(
      startServer({
        manifest: { version: 'v1', kind: 'Spicepod', name: 't', runtime: { metrics: { endpoint: 'nine' } } },
        port: 0,
        log: () => {},
      }),
      /runtime\.metrics\.endpoint: expects HOST:PORT, got 'nine'/,
    );
  });
});
