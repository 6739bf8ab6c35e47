// `streamNsql`: an NSQL job as server-sent events: each step as it happens, the rows in chunks, then `done`/`failed`.

import { type NsqlEvent, type NsqlJob, type NsqlOutcome, runNsql } from '../nsql/run-nsql.js';
import { logInternalError } from '../pool/error-ref.js';
import type { Reply } from './respond.js';

/** Rows per `rows` event. */
export const SSE_ROWS_PER_EVENT = 500;

const SSE_HEADERS = { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' } as const;
const KEEP_ALIVE = Buffer.from(': nsql still working\n\n');

/**
 * Writes `data: <json>\n\n` events (see server/nsql/README.md for their shapes): `context`, then per attempt `sql`
 * and `error`, then `rows` chunks and `done`, or `failed`. A `: …` comment every `keepAliveMs` keeps proxies from
 * closing an idle stream while the model works. Rows wait for the client to drain the previous chunk.
 */
export function streamNsql(reply: Reply, job: NsqlJob, keepAliveMs: number): void {
  const started = performance.now();
  reply.head(200, 'text/event-stream', SSE_HEADERS);
  // A write after the client left never drains: resolve at once then.
  const send = (event: unknown) =>
    new Promise<void>((drained) => {
      if (reply.aborted) return drained();
      reply.write(Buffer.from(`data: ${JSON.stringify(event)}\n\n`), drained);
    });
  const timer = setInterval(() => reply.write(KEEP_ALIVE, () => {}), keepAliveMs);
  reply.onDone(() => clearInterval(timer));
  const onEvent = (event: NsqlEvent) => void send(event);
  runNsql({ ...job, onEvent })
    .then(async (outcome) => {
      clearInterval(timer);
      await finish(outcome, send, performance.now() - started);
    })
    .catch((e) => {
      clearInterval(timer);
      const ref = logInternalError('/v1/nsql stream failed', e);
      return send({ type: 'failed', status: 500, message: `Internal server error (ref ${ref})` });
    })
    .finally(() => reply.end());
}

async function finish(outcome: NsqlOutcome, send: (event: unknown) => Promise<void>, elapsedMs: number) {
  if (!outcome.ok) return send({ type: 'failed', status: outcome.status, message: outcome.message });
  const rows = JSON.parse(outcome.answer?.body.toString('utf8') ?? '[]') as unknown[];
  for (let i = 0; i < rows.length; i += SSE_ROWS_PER_EVENT)
    await send({ type: 'rows', rows: rows.slice(i, i + SSE_ROWS_PER_EVENT) });
  const done = {
    sql: outcome.sql,
    attempts: outcome.attempts,
    elapsed_ms: Math.round(elapsedMs),
    row_count: rows.length,
  };
  await send({ type: 'done', ...done });
}
