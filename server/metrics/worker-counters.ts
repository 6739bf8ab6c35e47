// `openQueryCounters`: a worker thread's half of the query metrics: plain stores into its own shared-memory slot.
import {
  BUCKETS,
  bucketOf,
  claimSlot,
  DURATION_SUM,
  ENDED,
  FAILURE_KINDS,
  FAILURES,
  ROWS,
  STARTED,
  slotsOf,
} from './shared-counters.js';

/** What a worker records per query; the main thread reads the sums at scrape time (`readTotals`). */
export interface QueryCounters {
  /** A query starts (counts an execution; active until `end`); returns the start time for `end`. */
  start(): number;
  /** The query ended after `start()` returned `begin`, with `rows` rows sent, failed with `failure` if not null. */
  end(begin: number, rows: number, failure: string | null): void;
}

const NONE: QueryCounters = { start: () => performance.now(), end() {} };
const OTHER = FAILURE_KINDS.indexOf('other');

/**
 * Counters in `buffer` (from `createCounterBuffer`), or no-ops when it is undefined (metrics off). No message per
 * query: the worker owns its slot, so its stores need no atomics and never contend with another worker's.
 */
export function openQueryCounters(buffer: SharedArrayBuffer | undefined): QueryCounters {
  if (buffer === undefined) return NONE;
  const slots = slotsOf(buffer);
  const base = claimSlot(buffer);
  const add = (at: number, n: number) => {
    slots[base + at] = (slots[base + at] as number) + n;
  };
  return {
    start() {
      add(STARTED, 1);
      return performance.now();
    },
    end(begin, rows, failure) {
      const ms = performance.now() - begin;
      add(ROWS, rows);
      add(DURATION_SUM, ms);
      add(BUCKETS + bucketOf(ms), 1);
      if (failure !== null) {
        const kind = FAILURE_KINDS.indexOf(failure as never);
        add(FAILURES + (kind < 0 ? OTHER : kind), 1);
      }
      // query_active_count is started - ended. Plain stores have no ordering across threads: a scrape during an
      // end may see part of it (counts are exact between scrapes, not within one).
      add(ENDED, 1);
    },
  };
}
