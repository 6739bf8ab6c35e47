// `runArrowQuery`: one query through the query service in the `arrow` format, handed on as IPC messages with credit.
import type { ParamValues } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { WireError } from '../pool/messages.js';
import type { AnswerSink, QueryService } from '../runtime/query-service.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { type IpcMessage, IpcMessageSplitter } from './ipc-messages.js';

/** The Arrow IPC stream format of the query service (server/serialize). */
export const ARROW_FORMAT: ResultFormat = 'arrow';

/** Where a query's messages go; `write` false means "full": the next chunk waits for `onDrain`. */
export interface MessageWriter {
  write(message: IpcMessage): boolean;
  onDrain(resume: () => void): void;
  end(): void;
  fail(error: WireError): void;
}

export interface ArrowQuery {
  readonly sql: string;
  readonly params?: ParamValues;
  readonly principal: Principal;
  readonly signal?: AbortSignal;
  readonly queryId?: string;
}

/**
 * Runs `query` and writes its IPC messages (schema first) to `writer`. A streamed chunk is acked only once the
 * writer has taken its messages without filling up, or has drained since: a slow client slows the query, and
 * at most the pool's credit (about 1 MiB) plus one chunk sits in memory. Returns the cancel function.
 */
export function runArrowQuery(service: QueryService, query: ArrowQuery, writer: MessageWriter): () => void {
  const splitter = new IpcMessageSplitter();
  const writeAll = (bytes: Uint8Array): boolean => {
    let room = true;
    for (const m of splitter.push(bytes)) room = writer.write(m) && room;
    return room;
  };
  const truncated = (): WireError => ({ kind: 'internal', message: 'truncated Arrow stream', ref: 'flight-ipc' });
  const sink: AnswerSink = {
    whole(_head, body) {
      writeAll(body);
      if (splitter.pending > 0) writer.fail(truncated());
      else writer.end();
    },
    head() {},
    chunk(body, ack) {
      if (writeAll(body)) ack();
      else writer.onDrain(ack);
    },
    end() {
      if (splitter.pending > 0) writer.fail(truncated());
      else writer.end();
    },
    error: (error) => writer.fail(error),
  };
  return service.run(
    {
      sql: query.sql,
      params: query.params,
      format: ARROW_FORMAT,
      principal: query.principal,
      signal: query.signal,
      queryId: query.queryId,
    },
    sink,
  );
}

/** Runs `query` and collects every message (small answers only: schemas, LIMIT 0, metadata). */
export function collectArrowQuery(service: QueryService, query: ArrowQuery): Promise<IpcMessage[]> {
  return new Promise((resolve, reject) => {
    const messages: IpcMessage[] = [];
    runArrowQuery(service, query, {
      write: (m) => messages.push(m) > 0,
      onDrain: (resume) => resume(),
      end: () => resolve(messages),
      fail: (error) => reject(new QueryFailure(error)),
    });
  });
}

/** A query that failed, carrying its `WireError` (mapped to a gRPC status by `statusOf`). */
export class QueryFailure extends Error {
  constructor(readonly error: WireError) {
    super(error.message);
  }
}
