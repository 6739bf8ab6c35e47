// GET /v1/models over real HTTP with the scripted LLM: the openai SDK's models.list() against floe, status ready /
// auth / connection / loading and recovery after the backoff, CSV, metadata_fields, bad parameters, and the API key
// in no answer and no log line.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secrets:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm.js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { parseExposition } from '../helpers/prometheus-text.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY = 'sk-test-Secret-K3y-9f8e7d6c5b4a';
let srv: TestServer;
let good: FakeLlm;
let badKey: FakeLlm;
let loading: FakeLlm;
let late: FakeLlm | undefined;
let latePort: number;
let closedPort: number;
const logLines: string[] = [];

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

before(async () => {
  good = await startFakeLlm();
  badKey = await startFakeLlm();
  badKey.modelsStatus = 401;
  loading = await startFakeLlm();
  loading.modelsStatus = 503;
  closedPort = await freePort();
  latePort = await freePort();
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], {
    workers: 1,
    metrics: { host: '127.0.0.1', port: 0 },
    models: [
      { name: 'nql', from: 'openai:fake-sql', params: { endpoint: good.endpoint }, datasets: ['people'] },
      {
        name: 'keyed',
        from: 'openai:gpt-4o-mini',
        params: { endpoint: badKey.endpoint, openai_api_key: '${secrets:model_key}' },
      },
      { name: 'down', from: 'openai:m', params: { endpoint: `http://127.0.0.1:${closedPort}/v1` } },
      { name: 'warming', from: 'openai:m', params: { endpoint: loading.endpoint } },
      { name: 'late', from: 'openai:m', params: { endpoint: `http://127.0.0.1:${latePort}/v1` } },
    ],
    env: { MODEL_KEY: KEY },
    modelRetry: { initialMs: 40, maxMs: 200 },
    log: (line) => logLines.push(line),
  });
});

after(async () => {
  await srv.close();
  await Promise.all([good, badKey, loading, late].map((f) => f?.close()));
});

async function get(query = '', headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.base}/v1/models${query}`, { headers });
  const text = await res.text();
  assert.ok(!text.includes(KEY), `the key leaked: ${text}`);
  return { status: res.status, type: res.headers.get('content-type'), text };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), what);
}

describe('GET /v1/models', () => {
  it("the openai SDK's models.list() returns floe's models", async () => {
    const client = new OpenAI({ baseURL: `${srv.base}/v1`, apiKey: 'dummy' });
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((m) => [m.id, m.object, m.owned_by]),
      ['nql', 'keyed', 'down', 'warming', 'late'].map((id) => [id, 'model', 'openai']),
    );
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.equal(ids.length, 5);
  });

  it('JSON: the list envelope; datasets null when none; no status fields unless asked', async () => {
    const res = await get();
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json');
    const body = JSON.parse(res.text);
    assert.equal(body.object, 'list');
    assert.deepEqual(body.data[0], { id: 'nql', object: 'model', owned_by: 'openai', datasets: ['people'] });
    assert.deepEqual(body.data[1], { id: 'keyed', object: 'model', owned_by: 'openai', datasets: null });
  });

  it('status=true: ready, and error with auth / connection / loading, the reason and never the key', async () => {
    const body = JSON.parse((await get('?status=true')).text);
    const byId = new Map(body.data.map((m: { id: string }) => [m.id, m]));
    assert.deepEqual(byId.get('nql'), {
      id: 'nql',
      object: 'model',
      owned_by: 'openai',
      datasets: ['people'],
      status: 'ready',
      error: null,
      error_message: null,
    });
    const keyed = byId.get('keyed') as Record<string, unknown>;
    assert.equal(keyed.status, 'error');
    assert.deepEqual(keyed.error, { category: 'model', type: 'auth', code: 'model.auth' });
    assert.match(String(keyed.error_message), /^Model keyed \(openai:gpt-4o-mini\) at http:\/\/127\.0\.0\.1:\d+\/v1: /);
    assert.match(String(keyed.error_message), /401 Incorrect API key provided: \[redacted\]/);
    const down = byId.get('down') as Record<string, unknown>;
    assert.deepEqual(down.error, { category: 'model', type: 'connection', code: 'model.connection' });
    assert.match(String(down.error_message), /Connection error.*ECONNREFUSED/);
    const warming = byId.get('warming') as Record<string, unknown>;
    assert.deepEqual(warming.error, { category: 'model', type: 'loading', code: 'model.loading' });
    assert.match(String(warming.error_message), /503 scripted 503/);
    // The fake got floe's key (it echoed it back); floe redacted it from every message and log line.
    assert.ok(badKey.modelListCalls >= 1);
    for (const line of logLines) assert.ok(!line.includes(KEY), line);
    assert.ok(logLines.some((l) => l.includes('model keyed not ready')));
  });

  it('an unreachable model is probed again with backoff and becomes ready once it answers', async () => {
    const before = loading.modelListCalls;
    await until(() => loading.modelListCalls >= before + 2, 'probed again');
    loading.modelsStatus = 200;
    late = await startFakeLlm(undefined, latePort);
    await until(() => srv.server.models.get('warming')?.status === 'ready', 'warming became ready');
    await until(() => srv.server.models.get('late')?.status === 'ready', 'late became ready');
    const body = JSON.parse((await get('?status=true')).text);
    const late_ = body.data.find((m: { id: string }) => m.id === 'late');
    assert.deepEqual([late_.status, late_.error, late_.error_message], ['ready', null, null]);
    // Ready models are not probed again.
    const calls = loading.modelListCalls;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(loading.modelListCalls, calls);
    assert.ok(logLines.some((l) => l === 'floe: model warming ready'));
  });

  it('metrics: model_load_state (1 ready, 3 error), calls active and queued', async () => {
    const text = await (await fetch(`http://127.0.0.1:${srv.server.metrics?.port}/metrics`)).text();
    const m = parseExposition(text);
    assert.equal(m.types.get('model_load_state'), 'gauge');
    assert.equal(m.value('model_load_state', { model: 'nql' }), 1);
    assert.equal(m.value('model_load_state', { model: 'keyed' }), 3);
    assert.equal(m.value('model_load_state', { model: 'down' }), 3);
    assert.equal(m.value('model_active_count', { model: 'nql' }), 0);
    assert.equal(m.value('model_queue_length', { model: 'nql' }), 0);
  });

  it('format=csv: the seven columns, datasets in one quoted cell, error as its code', async () => {
    const plain = await get('?format=csv');
    assert.equal(plain.type, 'text/csv; charset=utf-8');
    const lines = plain.text.trimEnd().split('\n');
    assert.equal(lines[0], 'id,object,owned_by,datasets,status,error,error_message');
    assert.equal(lines[1], 'nql,model,openai,people,,,');
    assert.equal(lines[2], 'keyed,model,openai,,,,');
    const withStatus = (await get('?format=CSV&status=true')).text.split('\n');
    assert.equal(withStatus[1], 'nql,model,openai,people,ready,,');
    assert.match(withStatus[2] ?? '', /^keyed,model,openai,,error,model\.auth,"?Model keyed .*401/);
  });

  it('a model with several datasets: one quoted cell', async () => {
    const file = await writePeople(join(await makeTempDir(), 'p.parquet'));
    const two = await startTestServer(
      [
        { name: 'a', from: `file:${file}` },
        { name: 'b', from: `file:${file}` },
      ],
      {
        workers: 1,
        models: [{ name: 'nql', from: 'openai:x', params: { endpoint: good.endpoint }, datasets: ['a', 'b'] }],
      },
    );
    try {
      const text = await (await fetch(`${two.base}/v1/models?format=csv`)).text();
      assert.equal(text, 'id,object,owned_by,datasets,status,error,error_message\nnql,model,openai,"a,b",,,\n');
    } finally {
      await two.close();
    }
  });

  it('metadata_fields=supports_responses_api: false for a local OpenAI-compatible endpoint', async () => {
    const body = JSON.parse((await get('?metadata_fields=supports_responses_api&status=true')).text);
    assert.deepEqual(body.data[0].metadata, { supports_responses_api: false });
    assert.equal(body.data[0].status, 'ready');
    assert.ok(body.data.every((m: { metadata?: unknown }) => m.metadata !== undefined));
  });

  it('bad status, format or metadata_fields: 400 with a message', async () => {
    for (const [query, message] of [
      ['?status=yes', "invalid status 'yes': expected true or false"],
      ['?format=xml', "invalid format 'xml': expected json or csv"],
      [
        '?metadata_fields=supports_responses_api,colour',
        "invalid metadata_fields 'supports_responses_api,colour': unknown field 'colour' (expected supports_responses_api)",
      ],
      ['?metadata_fields=', "invalid metadata_fields '': unknown field '' (expected supports_responses_api)"],
    ] as const) {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.type, 'application/json');
      assert.deepEqual(JSON.parse(res.text), { message });
    }
  });

  it('POST /v1/models: 405 with Allow: GET', async () => {
    const res = await fetch(`${srv.base}/v1/models`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET');
  });
});

describe('GET /v1/models with API keys on', () => {
  const FLOE_KEY = 'floe-k3y-Models-0001';
  let keyed: TestServer;
  before(async () => {
    keyed = await startTestServer([], {
      workers: 1,
      runtime: { auth: { 'api-key': { enabled: true, keys: [`${FLOE_KEY}:ro`] } } },
      models: [{ name: 'nql', from: 'openai:fake-sql', params: { endpoint: good.endpoint } }],
    });
  });
  after(() => keyed.close());

  it("401 without floe's key; the SDK's Bearer key is floe's key", async () => {
    assert.equal((await fetch(`${keyed.base}/v1/models`)).status, 401);
    const wrong = new OpenAI({ baseURL: `${keyed.base}/v1`, apiKey: 'wrong', maxRetries: 0 });
    await assert.rejects(wrong.models.list(), (e) => e instanceof OpenAI.AuthenticationError);
    const client = new OpenAI({ baseURL: `${keyed.base}/v1`, apiKey: FLOE_KEY });
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((m) => m.id),
      ['nql'],
    );
    const csv = await fetch(`${keyed.base}/v1/models?format=csv`, { headers: { 'X-API-Key': FLOE_KEY } });
    assert.equal(csv.status, 200);
  });
});
