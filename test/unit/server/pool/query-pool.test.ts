// `createQueryPool` with real workers: queued queries are answered in the order they came, a query that turns out
// slow holds up no query queued behind it while another worker is free, and close() answers what is queued.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Head, WireError } from '../../../../server/pool/messages.js';
import { createQueryPool, type QueryPool } from '../../../../server/pool/pool.js';

let single: QueryPool;
let pair: QueryPool;

before(async () => {
  single = createQueryPool({ snapshot: { tables: [] }, workers: 1 });
  pair = createQueryPool({ snapshot: { tables: [] }, workers: 2 });
  await Promise.all([single.ready, pair.ready]);
});
after(() => Promise.all([single.close(), pair.close()]));

/** Runs `sql` on `pool`; resolves with the body's text (or the error) and calls `onEnd` as it ends. */
function run(pool: QueryPool, sql: string, onEnd: () => void = () => {}): Promise<string> {
  return new Promise((resolve, reject) => {
    pool.query(
      { sql, format: 'json' },
      {
        whole: (_head: Head, body: Uint8Array) => {
          onEnd();
          resolve(Buffer.from(body).toString());
        },
        head: () => {},
        chunk: (_body, ack) => ack(),
        end: () => reject(new Error('a one-row answer streamed')),
        error: (e: WireError) => reject(new Error(`${e.kind}: ${e.message}`)),
      },
    );
  });
}

test('queries queued on a busy worker are answered first in, first out', async () => {
  const finished: number[] = [];
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => run(single, `SELECT ${i} AS i`, () => finished.push(i))),
  );
  assert.deepEqual(
    answers.map((a) => JSON.parse(a)[0].i),
    answers.map((_, i) => i),
  );
  assert.deepEqual(
    finished,
    finished.map((_, i) => i),
  );
});

test('a query that was cheap last time and is slow now does not hold the queries batched behind it', async () => {
  // Same statement but for its literal: the pool learns it is cheap, and may batch the slow one with the others.
  const lengthOf = (n: number) => `SELECT length(repeat('x', ${n})) AS n`;
  for (let i = 0; i < 5; i++) await run(pair, lengthOf(3));
  const ended: string[] = [];
  const slow = run(pair, lengthOf(20_000_000), () => ended.push('slow'));
  const cheap = Array.from({ length: 20 }, (_, i) => run(pair, lengthOf(i), () => ended.push(`cheap ${i}`)));
  assert.deepEqual(JSON.parse(await slow), [{ n: 20_000_000 }]);
  assert.deepEqual(
    (await Promise.all(cheap)).map((a) => JSON.parse(a)[0].n),
    cheap.map((_, i) => i),
  );
  assert.equal(ended.at(-1), 'slow', `the slow query ended before: ${ended.join(', ')}`);
});

test('close() answers the queries still queued, then stops the workers', async () => {
  const pool = createQueryPool({ snapshot: { tables: [] }, workers: 1 });
  await pool.ready;
  const answers = Array.from({ length: 40 }, (_, i) => run(pool, `SELECT ${i} AS i`));
  await pool.close();
  assert.deepEqual(
    (await Promise.all(answers)).map((a) => JSON.parse(a)[0].i),
    answers.map((_, i) => i),
  );
});

test('light queries never wait behind heavy ones: one worker stays free for them while they keep coming', async () => {
  // ~2^23 backtracking steps: about 0.1 s of one worker (over a VALUES row, so the plan cache cannot fold it).
  const heavy = "SELECT s ~ '^(a+)+$' AS m FROM (VALUES ('aaaaaaaaaaaaaaaaaaaaaaa!')) AS t(s)";
  await run(pair, heavy);
  for (let i = 0; i < 3; i++) await run(pair, `SELECT ${i} AS i`);
  let heavyDone = 0;
  const heavies = Array.from({ length: 4 }, () => run(pair, heavy, () => heavyDone++));
  await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 5; i++) assert.equal(await run(pair, `SELECT ${i} AS i`), `[{"i":${i}}]`);
  // On two workers taking work first in, first out, two heavies would run at once and the lookups wait for one.
  assert.ok(heavyDone < 2, `${heavyDone} heavy queries ended before the light ones`);
  await Promise.all(heavies);
});

test('a cancelled query that never stops has its worker replaced; the queries batched behind it run again', async () => {
  const pool = createQueryPool({ snapshot: { tables: [] }, workers: 1, killGraceMs: 200 });
  await pool.ready;
  try {
    const match = (s: string) => `SELECT s ~ '^(a+)+$' AS m FROM (VALUES ('${s}')) AS t(s)`;
    // The statement is cheap for short strings: the stuck one and those behind it travel in one batch.
    for (let i = 0; i < 8; i++) await run(pool, match('aa!'));
    const errors: string[] = [];
    const cancel = pool.query(
      { sql: match(`${'a'.repeat(40)}!`), format: 'json' },
      {
        whole: () => errors.push('answered'),
        head: () => {},
        chunk: (_b, ack) => ack(),
        end: () => errors.push('answered'),
        error: (e) => errors.push(e.kind),
      },
    );
    const behind = Array.from({ length: 5 }, (_, i) => run(pool, match(i % 2 === 0 ? 'aaa' : 'b')));
    await new Promise((r) => setTimeout(r, 100));
    cancel();
    assert.deepEqual(
      (await Promise.all(behind)).map((a) => JSON.parse(a)[0].m),
      [true, false, true, false, true],
    );
    assert.equal(pool.workerRestarts, 1);
    assert.deepEqual(errors, [], 'a cancelled query gets no answer');
    assert.equal(await run(pool, 'SELECT 1 AS x'), '[{"x":1}]');
  } finally {
    await pool.close(2000);
  }
});
