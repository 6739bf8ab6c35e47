// POST /v1/nsql with stream: true: the SSE events as the work goes, rows in chunks, keep-alives, and disconnects.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Models } from '../../server/models/models.js';
import type { QueryService, ServiceRequest } from '../../server/runtime/query-service.js';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm.js';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let llm: FakeLlm;
let t: TestServer;
/** The signals of the model calls and of the queries, to see a disconnect reach both. */
let modelSignals: AbortSignal[] = [];
let queries: { sql: string; signal: AbortSignal | undefined }[] = [];

before(async () => {
  const dir = await makeTempDir();
  const people = await writePeople(join(dir, 'people.parquet'));
  const big = await writeBig(join(dir, 'big.parquet'), 1200);
  llm = await startFakeLlm();
  t = await startTestServer(
    [
      { name: 'people', from: `file:${people}` },
      { name: 'big', from: `file:${big}` },
    ],
    {
      models: [{ name: 'nql', from: 'openai:fake-sql', params: { endpoint: llm.endpoint } }],
      runtime: { query: { timeout: '20s' } },
      nsqlKeepAliveMs: 50,
    },
  );
  const models = t.server.models as { complete: Models['complete'] };
  const complete = models.complete.bind(models);
  models.complete = (name, messages, signal) => {
    modelSignals.push(signal);
    return complete(name, messages, signal);
  };
  const service = t.server.service as { run: QueryService['run'] };
  const run = service.run.bind(service);
  service.run = (request: ServiceRequest, sink) => {
    queries.push({ sql: request.sql, signal: request.signal });
    return run(request, sink);
  };
});
after(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.chats.length = 0;
  modelSignals = [];
  queries = [];
});

/** The `data:` events of a whole stream, parsed, and the comment lines seen. */
function parseStream(text: string): { events: Record<string, unknown>[]; comments: string[] } {
  const blocks = text.split('\n\n').filter((b) => b !== '');
  const events = blocks.filter((b) => b.startsWith('data: ')).map((b) => JSON.parse(b.slice(6)));
  return { events, comments: blocks.filter((b) => b.startsWith(':')) };
}

const stream = (body: Record<string, unknown>) =>
  post(`${t.base}/v1/nsql`, JSON.stringify({ ...body, stream: true }), { accept: 'text/event-stream' });

describe('POST /v1/nsql: server-sent events', () => {
  it('a retry case: context, then sql and error per failed attempt, then rows and done, as they happen', async () => {
    const answers = [
      'SELECT nme FROM people',
      'SELECT CAST(name AS INTEGER) AS n FROM people',
      'SELECT name FROM people WHERE id = 1',
    ];
    llm.script = (_c, i) => answers[i] ?? '';
    const a = await stream({ query: 'the first name', sample_data_enabled: false });
    assert.equal(a.status, 200);
    assert.equal(a.contentType, 'text/event-stream');
    assert.equal(a.headers.get('cache-control'), 'no-cache');
    if (process.env.NSQL_TRANSCRIPT) process.stdout.write(a.text);
    const { events } = parseStream(a.text);
    assert.deepEqual(
      events.map((e) => e.type),
      ['context', 'sql', 'error', 'sql', 'error', 'sql', 'rows', 'done'],
    );
    const [context, sql1, bindError, , execError, sql3, rows, done] = events;
    assert.deepEqual(context?.tables, ['people', 'big']);
    assert.ok(typeof context?.prompt_tokens === 'number' && context.prompt_tokens > 50);
    assert.deepEqual(sql1, { type: 'sql', attempt: 1, sql: answers[0] });
    assert.deepEqual([bindError?.attempt, bindError?.stage], [1, 'validation']);
    assert.match(String(bindError?.message), /column "nme" does not exist/);
    assert.deepEqual([execError?.attempt, execError?.stage], [2, 'execution']);
    assert.match(String(execError?.message), /invalid input syntax for type integer/);
    assert.equal(sql3?.attempt, 3);
    assert.deepEqual(rows?.rows, [{ name: 'Alice' }]);
    assert.equal(done?.sql, answers[2]);
    assert.equal(done?.attempts, 3);
    assert.equal(done?.row_count, 1);
    assert.ok(typeof done?.elapsed_ms === 'number');
  });

  it('large results come in chunks of 500 rows', async () => {
    llm.script = () => 'SELECT id FROM big ORDER BY id';
    const { events } = parseStream((await stream({ query: 'all ids', sample_data_enabled: false })).text);
    const chunks = events.filter((e) => e.type === 'rows').map((e) => (e.rows as unknown[]).length);
    assert.deepEqual(chunks, [500, 500, 200]);
    assert.equal(events.at(-1)?.row_count, 1200);
  });

  it('a failure ends the stream with a failed event (after each attempt error)', async () => {
    llm.script = () => '';
    const { events } = parseStream((await stream({ query: 'q', sample_data_enabled: false })).text);
    assert.equal(events.filter((e) => e.type === 'error' && e.stage === 'generation').length, 10);
    assert.deepEqual(events.at(-1), { type: 'failed', status: 500, message: 'No query produced from NSQL model' });
  });

  it('keep-alive comments while the model works', async () => {
    llm.script = () => ({ content: 'SELECT 1 AS x', delayMs: 300 });
    const { comments, events } = parseStream((await stream({ query: 'q', sample_data_enabled: false })).text);
    assert.ok(comments.length >= 2, `${comments.length} keep-alives`);
    assert.equal(events.at(-1)?.type, 'done');
  });

  it('stream and Accept must agree', async () => {
    const json = await post(`${t.base}/v1/nsql`, '{"query":"q","stream":true}', { accept: 'text/csv' });
    assert.equal(json.status, 400);
    assert.match(json.text, /send Accept: text\/event-stream/);
    const sse = await post(`${t.base}/v1/nsql`, '{"query":"q"}', { accept: 'text/event-stream' });
    assert.equal(sse.status, 400);
    assert.match(sse.text, /needs "stream": true/);
  });
});

describe('POST /v1/nsql: a client that disconnects', () => {
  it('cancels the model call', async () => {
    llm.script = () => ({ hang: true });
    const abort = new AbortController();
    const res = await fetch(`${t.base}/v1/nsql`, {
      method: 'POST',
      body: JSON.stringify({ query: 'q', stream: true, sample_data_enabled: false }),
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    await readUntil(res, '"type":"context"');
    await waitFor(() => llm.chats.length === 1);
    abort.abort();
    await waitFor(() => modelSignals[0]?.aborted === true);
    assert.equal(llm.chats.length, 1);
  });

  it('cancels the query', async () => {
    const slow = 'SELECT count(*) AS n FROM big a, big b, big c WHERE a.id + b.id + c.id = -1';
    llm.script = () => slow;
    const abort = new AbortController();
    const res = await fetch(`${t.base}/v1/nsql`, {
      method: 'POST',
      body: JSON.stringify({ query: 'q', stream: true, sample_data_enabled: false }),
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    await readUntil(res, '"type":"sql"');
    await waitFor(() => queries.some((q) => q.sql === slow));
    abort.abort();
    const running = queries.find((q) => q.sql === slow);
    await waitFor(() => running?.signal?.aborted === true);
    // The worker is free again: a plain query answers at once.
    const started = Date.now();
    const after = await post(t.sql, 'SELECT 1 AS one');
    assert.equal(after.status, 200);
    assert.ok(Date.now() - started < 5000);
  });
});

async function readUntil(res: Response, marker: string): Promise<void> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${marker}: ${text}`);
    text += Buffer.from(value).toString('utf8');
  }
}

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
