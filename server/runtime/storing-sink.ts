// `storingSink`: passes a pool answer on and keeps a successful, cacheable body in the results cache.
import type { ResultsCache } from '../cache/results-cache.js';
import type { Head } from '../pool/messages.js';
import type { QuerySink } from '../pool/pool.js';
import { CONTENT_TYPES } from '../serialize/serializer.js';
import type { AnswerSink, CacheInfo } from './query-service.js';

/**
 * Passes the stream on (with `info` on a cacheable answer's head) and stores a successful body in the cache when
 * it fits the per-entry cap; `done` hears once whether it was stored, when the answer ends.
 */
export function storingSink(
  sink: AnswerSink,
  info: CacheInfo,
  cache: ResultsCache,
  miss: { key: string; epoch: number },
  done: (stored: boolean) => void,
): QuerySink {
  let head: Head | null = null;
  let parts: Uint8Array[] | null = [];
  let size = 0;
  const store = (h: Head, body: Uint8Array) =>
    h.cacheable && cache.set(miss.key, { contentType: CONTENT_TYPES[h.format], body, tables: h.tables }, miss.epoch);
  return {
    whole(h, body) {
      const stored = store(h, body);
      sink.whole(h, body, h.cacheable ? info : undefined);
      done(stored);
    },
    head(h) {
      head = h;
      sink.head(h, h.cacheable ? info : undefined);
    },
    chunk(body, ack) {
      size += body.byteLength;
      if (size > cache.maxEntryBytes) parts = null;
      parts?.push(body);
      sink.chunk(body, ack);
    },
    end() {
      const stored = head !== null && parts !== null && store(head, Buffer.concat(parts, size));
      sink.end();
      done(stored);
    },
    error(error) {
      sink.error(error);
      done(false);
    },
  };
}
