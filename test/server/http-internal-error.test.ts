// A fault inside a worker is a 500 with a reference id over real HTTP; the stack stays in the server's log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAuthenticator } from '../../server/auth/authenticator.js';
import { ResultsCache } from '../../server/cache/results-cache.js';
import { DEFAULT_CORS } from '../../server/config/cors-config.js';
import { createRequestGate } from '../../server/http/request-gate.js';
import { registerRoutes } from '../../server/http/routes.js';
import { listenUws, type UwsServer } from '../../server/http/uws-app.js';
import { createQueryPool, type QueryPool } from '../../server/pool/pool.js';
import { createQueryService } from '../../server/runtime/query-service.js';
import { post } from '../helpers/http.js';

let pool: QueryPool;
let server: UwsServer;
const resultsCache = new ResultsCache({ maxBytes: 1 << 20, ttlMs: 60_000 });

// A snapshot whose memory table is corrupt (a chunk without its column) makes the worker fail with a
// TypeError while serializing: a fault of floe, not a user error. (An unreadable dataset is a 400.)
before(async () => {
  const field = { name: 'x', qualifier: null, type: { id: 'int32' as const }, nullable: true };
  const data = { schema: { fields: [field] }, chunks: [{ length: 1, columns: [] }] };
  pool = createQueryPool({ snapshot: { tables: [{ name: 'bad', kind: 'memory', data }] }, workers: 1 });
  server = await listenUws(
    (app) =>
      registerRoutes(app, {
        phase: () => 'ready',
        service: createQueryService({
          pool: () => pool,
          unavailable: () => ({ kind: 'unavailable', message: 'not ready' }),
          resultsCache,
          maxConcurrent: 16,
          maxQueued: 16,
        }),
        cacheEnabled: true,
        datasets: () => null,
        maxBodyBytes: 1024,
        gate: createRequestGate({ auth: createAuthenticator(null), limiter: null, cors: DEFAULT_CORS }),
        track: () => {},
      }),
    '127.0.0.1',
    0,
  );
});
after(async () => {
  server.closeAll();
  await pool.close();
});

describe('internal errors', () => {
  it('answer 500 with a short reference id and no stack', async () => {
    const logged: string[] = [];
    const write = process.stderr.write;
    // Workers log through the parent's stderr stream, so capture it for the duration of the request.
    process.stderr.write = ((s: string) => logged.push(String(s)) > 0) as typeof process.stderr.write;
    let res: Awaited<ReturnType<typeof post>>;
    let ref: string | undefined;
    try {
      res = await post(`http://127.0.0.1:${server.port}/v1/sql`, 'SELECT x FROM bad');
      ref = /^Internal server error \(ref ([0-9a-f]{8})\)$/.exec(res.text)?.[1];
      // The worker's stderr reaches this thread asynchronously: wait (bounded) for the line to arrive.
      for (let i = 0; i < 100 && ref && !logged.some((l) => l.includes(`[ref ${ref}]`)); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      process.stderr.write = write;
    }
    assert.equal(res.status, 500);
    assert.equal(resultsCache.size, 0, 'a 500 is not cached');
    assert.equal(res.contentType, 'text/plain; charset=utf-8');
    assert.ok(ref, res.text);
    assert.doesNotMatch(res.text, /\bat\b|TypeError/);
    const line = logged.find((l) => l.includes(`[ref ${ref}]`));
    assert.match(line ?? '', /TypeError[\s\S]*\n\s+at /, 'the stack is logged under the same ref');
  });
});
