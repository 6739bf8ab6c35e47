// `versionedPool`: stamps each query with the catalog version it starts on, and releases the version when it ends.
import type { QueryPool, QuerySink } from '../pool/pool.js';
import type { CatalogVersions } from './catalog-versions.js';

/**
 * The pool, each query run on the catalog version that was latest when it was submitted (its task carries
 * `catalogVersion`; a worker that lacks that version waits for it). The version is released when the answer
 * ends (whole, end or error) or the query is cancelled, whichever comes first.
 */
export function versionedPool(pool: QueryPool, versions: CatalogVersions): QueryPool {
  return {
    ready: pool.ready,
    close: (boundMs) => pool.close(boundMs),
    get queueLength() {
      return pool.queueLength;
    },
    get workerRestarts() {
      return pool.workerRestarts;
    },
    query(request, sink) {
      const catalogVersion = versions.acquire();
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        versions.release(catalogVersion);
      };
      const cancel = pool.query({ ...request, catalogVersion }, releasing(sink, release));
      return () => {
        release();
        cancel();
      };
    },
  };
}

function releasing(sink: QuerySink, release: () => void): QuerySink {
  return {
    whole(head, body) {
      release();
      sink.whole(head, body);
    },
    head: (head) => sink.head(head),
    chunk: (body, ack) => sink.chunk(body, ack),
    end() {
      release();
      sink.end();
    },
    error(error) {
      release();
      sink.error(error);
    },
  };
}
