// `collectAnswer`: one query through the query service, its whole answer gathered (NSQL needs it before replying).
import type { Principal } from '../auth/principal.js';
import type { Head, WireError } from '../pool/messages.js';
import type { AnswerSink, QueryService } from '../runtime/query-service.js';
import type { CacheDirectives } from '../runtime/results-cache-lookup.js';
import type { ResultFormat } from '../serialize/serializer.js';

/** A finished answer: its head (format, tables read) and body. */
export interface CollectedAnswer {
  readonly head: Head;
  readonly body: Buffer;
}

/** A query that failed, carrying the service's `WireError` (kind, message, retry hint). */
export class QueryFailedError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

/**
 * Runs `sql` as `principal` through the service (limits, admission, pool: never around them) and resolves with
 * the whole body; rejects with `QueryFailedError`. `signal` cancels the query. The results cache is bypassed
 * when `noCache` (validation wants the head's table list, which a cache hit does not carry); directives given
 * instead steer it as they say. A body growing past `maxBytes` cancels the query and rejects (kind `memory`).
 */
export function collectAnswer(
  service: QueryService,
  sql: string,
  format: ResultFormat,
  principal: Principal,
  signal: AbortSignal,
  noCache: boolean | CacheDirectives = false,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<CollectedAnswer> {
  return new Promise((resolveAnswer, rejectAnswer) => {
    // The service listens on a signal of this query's own (it never removes its listener: one request makes many
    // queries); a cancelled query's sink may never hear of it, so the caller's abort also ends the wait.
    const own = new AbortController();
    const cancelled = () => {
      own.abort();
      reject(new QueryFailedError({ kind: 'cancelled', message: 'the request was cancelled' }));
    };
    const resolve = (answer: CollectedAnswer) => {
      signal.removeEventListener('abort', cancelled);
      resolveAnswer(answer);
    };
    const reject = (e: QueryFailedError) => {
      signal.removeEventListener('abort', cancelled);
      rejectAnswer(e);
    };
    let head: Head | null = null;
    const chunks: Buffer[] = [];
    let bytes = 0;
    const tooLarge = () => {
      own.abort();
      reject(
        new QueryFailedError({
          kind: 'memory',
          message: `the result is over ${maxBytes} bytes: add a LIMIT, select fewer columns or aggregate`,
        }),
      );
    };
    const sink: AnswerSink = {
      whole: (h, body) => (body.byteLength > maxBytes ? tooLarge() : resolve({ head: h, body: Buffer.from(body) })),
      head: (h) => {
        head = h;
      },
      chunk: (body, ack) => {
        bytes += body.byteLength;
        if (bytes > maxBytes) return tooLarge();
        chunks.push(Buffer.from(body));
        ack();
      },
      end: () => resolve({ head: head as Head, body: Buffer.concat(chunks) }),
      error: (error) => reject(new QueryFailedError(error)),
    };
    if (signal.aborted) return cancelled();
    signal.addEventListener('abort', cancelled, { once: true });
    const cache = typeof noCache === 'object' ? noCache : noCache ? { noCache: true } : undefined;
    service.run({ sql, format, principal, signal: own.signal, cache }, sink);
  });
}

/** `sql`'s rows as JSON objects (small queries: schemas, samples). */
export async function queryRows(
  service: QueryService,
  sql: string,
  principal: Principal,
  signal: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const { body } = await collectAnswer(service, sql, 'json', principal, signal);
  return JSON.parse(body.toString('utf8')) as Record<string, unknown>[];
}

/** `"name"` with embedded quotes doubled. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
