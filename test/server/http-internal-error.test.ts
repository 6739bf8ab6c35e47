// A fault inside a worker is a 500 with a reference id over real HTTP; the stack stays in the server's log.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { registerRoutes } from '../../server/http/routes.js';
import { listenUws, type UwsServer } from '../../server/http/uws-app.js';
import { createQueryPool, type QueryPool } from '../../server/pool/pool.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';

let pool: QueryPool;
let server: UwsServer;

// startServer checks every file before serving, so this wires routes and pool by hand around a snapshot
// whose file is not Parquet: each worker then fails to build its catalog, a fault rather than a user error.
before(async () => {
  const bad = join(await makeTempDir(), 'bad.parquet');
  await writeFile(bad, 'not a parquet file, just text long enough to have no PAR1 footer');
  pool = createQueryPool({ snapshot: { tables: [{ name: 'bad', kind: 'parquet', files: [bad] }] }, workers: 1 });
  server = await listenUws(
    (app) =>
      registerRoutes(app, {
        phase: () => 'ready',
        pool: () => pool,
        unavailableText: () => 'not ready',
        maxBodyBytes: 1024,
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
      res = await post(`http://127.0.0.1:${server.port}/v1/sql`, 'SELECT 1');
      ref = /^Internal server error \(ref ([0-9a-f]{8})\)$/.exec(res.text)?.[1];
      // The worker's stderr reaches this thread asynchronously: wait (bounded) for the line to arrive.
      for (let i = 0; i < 100 && ref && !logged.some((l) => l.includes(`[ref ${ref}]`)); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      process.stderr.write = write;
    }
    assert.equal(res.status, 500);
    assert.equal(res.contentType, 'text/plain; charset=utf-8');
    assert.ok(ref, res.text);
    assert.doesNotMatch(res.text, /\bat\b|PAR1/);
    const line = logged.find((l) => l.includes(`[ref ${ref}]`));
    assert.match(line ?? '', /PAR1[\s\S]*\n\s+at /, 'the stack is logged under the same ref');
  });
});
