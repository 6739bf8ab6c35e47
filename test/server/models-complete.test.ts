// ModelRuntime.complete() over real HTTP to the scripted LLM: the request as sent, the concurrency bound and its FIFO
// queue, the time-out, 429 with retry-after then success, 429 forever, cancellation, error kinds without the key,
// and close() stopping the probes.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type ModelConfig, modelConfig } from '../../server/config/model-config.js';
import { ModelRuntime, RATE_LIMITED_ATTEMPTS } from '../../server/models/model-runtime.js';
import { type ChatMessage, ModelCallError } from '../../server/models/models.js';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm.js';

const KEY = 'sk-complete-Secret-0123456789';
let fake: FakeLlm;
const runtimes: ModelRuntime[] = [];

function config(params: Record<string, unknown> = {}): ModelConfig {
  const c = modelConfig(
    { name: 'nql', from: 'openai:fake-sql', params: { endpoint: fake.endpoint, openai_api_key: KEY, ...params } },
    0,
  );
  assert.ok(!Array.isArray(c), String(c));
  return c.config;
}

function runtime(params: Record<string, unknown> = {}): ModelRuntime {
  const r = new ModelRuntime([config(params)]);
  runtimes.push(r);
  return r;
}

const ask = (text: string): ChatMessage[] => [
  { role: 'system', content: 'You write SQL.' },
  { role: 'user', content: text },
];

/** The ModelCallError `p` rejects with. */
async function failure(p: Promise<unknown>): Promise<ModelCallError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelCallError, `expected a ModelCallError, got ${e}`);
    assert.ok(!e.message.includes(KEY), `the key leaked: ${e.message}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

before(async () => {
  fake = await startFakeLlm();
});
beforeEach(() => {
  fake.chats.length = 0;
  fake.script = () => 'SELECT 1';
});
after(async () => {
  for (const r of runtimes) r.close();
  await fake.close();
});

describe('ModelRuntime.complete', () => {
  it("sends the model, messages, temperature, max_tokens and key; returns the first choice's text", async () => {
    const r = runtime({ temperature: 0.1, max_tokens: 300 });
    fake.script = (chat) => `SELECT '${chat.messages[1]?.content}'`;
    const text = await r.complete('NQL', ask('hello'), new AbortController().signal);
    assert.equal(text, "SELECT 'hello'");
    const [chat] = fake.chats;
    assert.equal(chat?.model, 'fake-sql');
    assert.deepEqual(chat?.messages, ask('hello'));
    assert.equal(chat?.temperature, 0.1);
    assert.equal(chat?.max_tokens, 300);
    assert.equal(chat?.authorization, `Bearer ${KEY}`);
    assert.equal(r.get('nql')?.status, 'ready', 'a successful call proves the model ready');
  });

  it('an unknown model fails; an empty answer is the empty string', async () => {
    const r = runtime();
    const e = await failure(r.complete('other', ask('x'), new AbortController().signal));
    assert.deepEqual([e.kind, e.message], ['failed', 'Model other not found']);
    fake.script = () => ({ content: '' });
    assert.equal(await r.complete('nql', ask('x'), new AbortController().signal), '');
  });

  it('at most max_concurrent calls at once; the rest wait in order', async () => {
    const r = runtime({ max_concurrent: 2 });
    fake.script = () => ({ content: 'SELECT 1', delayMs: 150 });
    const started = Date.now();
    const calls = [0, 1, 2, 3, 4].map((i) => r.complete('nql', ask(`q${i}`), new AbortController().signal));
    await new Promise((res) => setTimeout(res, 60));
    assert.deepEqual(r.load('nql'), { active: 2, queued: 3 });
    assert.equal(fake.chats.length, 2, 'only two requests reached the provider');
    await Promise.all(calls);
    assert.ok(Date.now() - started >= 3 * 150 - 20, 'three rounds of two');
    assert.deepEqual(
      fake.chats.map((c) => c.messages[1]?.content),
      ['q0', 'q1', 'q2', 'q3', 'q4'],
    );
    assert.deepEqual(r.load('nql'), { active: 0, queued: 0 });
  });

  it("a queued call's signal takes it out of the queue; it never reaches the provider", async () => {
    const r = runtime({ max_concurrent: 1 });
    fake.script = () => ({ content: 'SELECT 1', delayMs: 200 });
    const first = r.complete('nql', ask('first'), new AbortController().signal);
    const cancel = new AbortController();
    const queued = r.complete('nql', ask('queued'), cancel.signal);
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(r.load('nql'), { active: 1, queued: 1 });
    cancel.abort();
    const e = await failure(queued);
    assert.equal(e.kind, 'cancelled');
    assert.equal(r.load('nql')?.queued, 0);
    await first;
    assert.deepEqual(
      fake.chats.map((c) => c.messages[1]?.content),
      ['first'],
    );
  });

  it("the model's time-out: a model that never answers, and one too slow", async () => {
    const r = runtime({ timeout: '300ms' });
    fake.script = () => ({ hang: true });
    let started = Date.now();
    const e = await failure(r.complete('nql', ask('x'), new AbortController().signal));
    assert.deepEqual([e.kind, e.message], ['timeout', 'Model nql did not answer within 300ms']);
    assert.ok(Date.now() - started >= 280 && Date.now() - started < 2000, `${Date.now() - started} ms`);
    fake.script = () => ({ content: 'SELECT 1', delayMs: 1000 });
    started = Date.now();
    assert.equal((await failure(r.complete('nql', ask('x'), new AbortController().signal))).kind, 'timeout');
    assert.ok(Date.now() - started < 900);
    assert.deepEqual(r.load('nql'), { active: 0, queued: 0 }, 'the slot is given back');
  });

  it("the caller's signal cancels the HTTP call", async () => {
    const r = runtime();
    fake.script = () => ({ hang: true });
    const cancel = new AbortController();
    const started = Date.now();
    setTimeout(() => cancel.abort(), 100);
    const e = await failure(r.complete('nql', ask('x'), cancel.signal));
    assert.deepEqual([e.kind, e.message], ['cancelled', 'Model nql: the request was cancelled']);
    assert.ok(Date.now() - started < 1000);
    assert.equal(fake.chats.length, 1);
  });

  it('429 with retry-after: waits as asked, then succeeds', async () => {
    const r = runtime({ timeout: '10s' });
    fake.script = (_, i) => (i === 0 ? { status: 429, retryAfterS: 1, body: 'Rate limit reached' } : 'SELECT 2');
    const started = Date.now();
    assert.equal(await r.complete('nql', ask('x'), new AbortController().signal), 'SELECT 2');
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    assert.equal(fake.chats.length, 2);
  });

  it('429 every time: a few attempts, then rate_limited saying the provider rate-limited', async () => {
    const r = runtime({ timeout: '10s' });
    fake.script = () => ({ status: 429, retryAfterS: 0, body: 'Rate limit reached for requests' });
    const e = await failure(r.complete('nql', ask('x'), new AbortController().signal));
    assert.equal(e.kind, 'rate_limited');
    assert.equal(e.retryAfterS, 0);
    assert.match(e.message, /^Model nql: the provider rate-limited the request \(429\) 4 time\(s\); it asked to retry/);
    assert.match(e.message, /Rate limit reached for requests/);
    assert.equal(fake.chats.length, RATE_LIMITED_ATTEMPTS);
  });

  it('429 asking for longer than the time-out leaves: rate_limited at once, with its retry-after', async () => {
    const r = runtime({ timeout: '2s' });
    fake.script = () => ({ status: 429, retryAfterS: 30 });
    const started = Date.now();
    const e = await failure(r.complete('nql', ask('x'), new AbortController().signal));
    assert.deepEqual([e.kind, e.retryAfterS], ['rate_limited', 30]);
    assert.ok(Date.now() - started < 1000);
    assert.equal(fake.chats.length, 1);
  });

  it('a 401 is auth (the echoed key redacted), a 500 failed, no server connection', async () => {
    const r = runtime();
    fake.script = () => ({ status: 401, body: `Incorrect API key provided: ${KEY}` });
    const auth = await failure(r.complete('nql', ask('x'), new AbortController().signal));
    assert.deepEqual([auth.kind, auth.message], ['auth', 'Model nql: 401 Incorrect API key provided: [redacted]']);
    fake.script = () => ({ status: 500, body: 'model crashed' });
    const failed = await failure(r.complete('nql', ask('x'), new AbortController().signal));
    assert.deepEqual([failed.kind, failed.message], ['failed', 'Model nql: 500 model crashed']);
    const closed = await startFakeLlm();
    await closed.close();
    const gone = new ModelRuntime([{ ...config(), endpoint: closed.endpoint }]);
    const conn = await failure(gone.complete('nql', ask('x'), new AbortController().signal));
    assert.equal(conn.kind, 'connection');
    assert.match(conn.message, /^Model nql: Connection error\..*ECONNREFUSED/);
  });
});

describe('ModelRuntime probes', () => {
  it('loading until the probe answers; an endpoint that never answers is a connection error within the time-out', async () => {
    // A port that accepts connections and never answers (no HTTP at all).
    const sockets = new Set<Socket>();
    const hole = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => hole.listen(0, '127.0.0.1', () => r()));
    const endpoint = `http://127.0.0.1:${(hole.address() as { port: number }).port}/v1`;
    const r = new ModelRuntime([{ ...config({ timeout: '300ms' }), endpoint }], {
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    const started = Date.now();
    const probed = r.start();
    assert.equal(r.get('nql')?.status, 'loading');
    await probed;
    assert.ok(Date.now() - started < 2000, `the start waited ${Date.now() - started} ms`);
    const state = r.get('nql');
    assert.equal(state?.status, 'error');
    assert.equal(state?.error?.code, 'model.connection');
    assert.match(
      state?.errorMessage ?? '',
      /^Model nql \(openai:fake-sql\) at http:\/\/127\.0\.0\.1:\d+\/v1: .*timed out/i,
    );
    r.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((res) => hole.close(() => res()));
  });

  it('close() stops the probes of a model in error', async () => {
    const down = await startFakeLlm();
    down.modelsStatus = 503;
    const r = new ModelRuntime([{ ...config(), endpoint: down.endpoint }], { backoff: { initialMs: 30, maxMs: 60 } });
    await r.start();
    assert.equal(r.get('nql')?.error?.code, 'model.loading');
    for (let i = 0; i < 100 && down.modelListCalls < 3; i++) await new Promise((res) => setTimeout(res, 20));
    assert.ok(down.modelListCalls >= 3, 'probed again while in error');
    r.close();
    const calls = down.modelListCalls;
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(down.modelListCalls, calls);
    await down.close();
  });
});
