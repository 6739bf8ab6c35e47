// `createQueryService` over a fake pool: the rate-limit hook refuses first, admission refuses when full,
// 'unavailable' while there is no pool, and the principal's write permission reaches the pool.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import type { WireError } from '../../../../server/pool/messages.js';
import type { QueryPool, QueryRequest, QuerySink } from '../../../../server/pool/pool.js';
import { type AnswerSink, createQueryService } from '../../../../server/runtime/query-service.js';

const reader = { id: 'key:0', canWrite: false };

function fakePool(): QueryPool & { readonly sent: { request: QueryRequest; sink: QuerySink }[] } {
  const sent: { request: QueryRequest; sink: QuerySink }[] = [];
  return {
    sent,
    ready: Promise.resolve(),
    queueLength: 0,
    workerRestarts: 0,
    query(request, sink) {
      sent.push({ request, sink });
      return () => {};
    },
    close: async () => {},
  };
}

function collect(): AnswerSink & { readonly errors: WireError[]; readonly bodies: string[] } {
  const errors: WireError[] = [];
  const bodies: string[] = [];
  return {
    errors,
    bodies,
    whole: (_h, body) => bodies.push(Buffer.from(body).toString()),
    head: () => {},
    chunk: (_b, ack) => ack(),
    end: () => {},
    error: (e) => errors.push(e),
  };
}

test('hook, admission, availability and allowWrites, in that order', () => {
  const pool = fakePool();
  let serving = true;
  const limited = new Set<string>();
  const service = createQueryService({
    pool: () => (serving ? pool : null),
    unavailable: () => ({ kind: 'unavailable', message: 'Runtime is shutting down', retryAfterS: 1 }),
    resultsCache: null,
    maxConcurrent: 1,
    maxQueued: 1,
    beforeQuery: (p) =>
      limited.has(p.id) ? { kind: 'rate_limited', message: 'Too Many Requests', retryAfterS: 2 } : null,
  });
  const first = collect();
  service.run({ sql: 'SELECT 1', format: 'json', principal: reader }, first);
  assert.equal(pool.sent.length, 1);
  assert.equal(pool.sent[0]?.request.allowWrites, false);
  const second = collect();
  service.run({ sql: 'SELECT 2', format: 'json', principal: { id: 'addr:x', canWrite: true } }, second);
  const third = collect();
  service.run({ sql: 'SELECT 3', format: 'json', principal: reader }, third);
  assert.deepEqual(
    third.errors.map((e) => [e.kind, e.retryAfterS]),
    [['overloaded', 1]],
  );
  assert.equal(service.waiting, 1);
  // The first ends: the second enters the pool.
  pool.sent[0]?.sink.whole({ format: 'json', tables: [], cacheable: true }, new TextEncoder().encode('[]'));
  assert.deepEqual(first.bodies, ['[]']);
  assert.equal(pool.sent.length, 2);
  assert.equal(pool.sent[1]?.request.allowWrites, true);
  limited.add('key:0');
  const refused = collect();
  service.run({ sql: 'SELECT 4', format: 'json', principal: reader }, refused);
  assert.deepEqual(
    refused.errors.map((e) => e.kind),
    ['rate_limited'],
  );
  pool.sent[1]?.sink.error({ kind: 'exec', message: 'division by zero' });
  serving = false;
  const late = collect();
  service.run({ sql: 'SELECT 5', format: 'json', principal: { id: 'addr:y', canWrite: true } }, late);
  assert.deepEqual(
    late.errors.map((e) => e.kind),
    ['unavailable'],
  );
  assert.equal(service.admitted, 0);
});

test('cancelling through the signal withdraws a query waiting for admission', () => {
  const pool = fakePool();
  const service = createQueryService({
    pool: () => pool,
    unavailable: () => ({ kind: 'unavailable', message: 'x' }),
    resultsCache: null,
    maxConcurrent: 1,
    maxQueued: 4,
  });
  service.run({ sql: 'SELECT 1', format: 'json', principal: reader }, collect());
  const controller = new AbortController();
  service.run({ sql: 'SELECT 2', format: 'json', principal: reader, signal: controller.signal }, collect());
  service.run({ sql: 'SELECT 3', format: 'json', principal: reader }, collect());
  controller.abort();
  pool.sent[0]?.sink.end();
  assert.deepEqual(
    pool.sent.map((s) => s.request.sql),
    ['SELECT 1', 'SELECT 3'],
  );
});

test('a signal shared by many queries holds no listener once their answers end, and aborting cancels a running one', () => {
  const cancelled: number[] = [];
  const pool = fakePool();
  const query = pool.query.bind(pool);
  pool.query = (request, sink) => {
    query(request, sink);
    const n = pool.sent.length;
    return () => cancelled.push(n);
  };
  const service = createQueryService({
    pool: () => pool,
    unavailable: () => ({ kind: 'unavailable', message: 'x', retryAfterS: 1 }),
    resultsCache: null,
    maxConcurrent: 100,
    maxQueued: 100,
  });
  const controller = new AbortController();
  const listeners = () => getEventListeners(controller.signal, 'abort').length;
  for (let i = 0; i < 50; i++) {
    service.run({ sql: `SELECT ${i}`, format: 'json', principal: reader, signal: controller.signal }, collect());
    const { sink } = pool.sent.at(-1)!;
    if (i % 2 === 0) sink.whole({ format: 'json', tables: [], cacheable: false }, new Uint8Array());
    else sink.error({ kind: 'exec', message: 'no' });
  }
  assert.equal(listeners(), 0, 'every ended answer removed its listener');
  service.run({ sql: 'SELECT running', format: 'json', principal: reader, signal: controller.signal }, collect());
  assert.equal(listeners(), 1);
  controller.abort();
  assert.deepEqual(cancelled, [51], 'only the running query was cancelled');
  // A signal aborted before the query starts cancels it at once.
  service.run({ sql: 'SELECT late', format: 'json', principal: reader, signal: controller.signal }, collect());
  assert.deepEqual(cancelled, [51, 52]);
});
