// `BatchQueue`: the main thread's first-in, first-out queue of queries, taken off in batches of cheap ones.

/** A query that has taken less than this (run and serialized, in ms) last time may share a task with others. */
export const CHEAP_MS = 1;
/**
 * A batch running longer than this (ms) while a worker is free has its queries not yet started taken back (one
 * of its queries turned out slow: the others should not wait for it).
 */
export const BATCH_BUDGET_MS = 2;
/** Most queries in one task. */
export const MAX_BATCH = 32;
/** Statements longer than this (UTF-16 units) get no cost key: they always run as a task of their own. */
const MAX_KEYED_CHARS = 1024;
/**
 * Cost keys remembered; past this the map starts again (costs are relearned after one run each). With the key
 * length cap, the map holds at most ~8 MiB of key text however many distinct statements arrive.
 */
const MAX_COSTS = 4096;

/** What the queue needs of a queued query. */
export interface QueuedQuery {
  /** See `costKey`; null: never batched. */
  readonly key: string | null;
  /** Set when the client has gone: the query is dropped when it reaches the head. */
  readonly cancelled: boolean;
}

/**
 * The statement with its numeric and quoted literals replaced by `?`, so a point lookup costs the same whatever
 * key it asks for; null for a long statement (the replacement would cost more than batching saves).
 */
export function costKey(sql: string): string | null {
  if (sql.length > MAX_KEYED_CHARS) return null;
  return sql.replace(/'(?:[^']|'')*'|\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '?');
}

/**
 * Queries wait here until a worker is free. `take` hands out the oldest query, plus the queries right behind it
 * while each of them (and the first) cost under `CHEAP_MS` on their last run: a task (and its two messages
 * between threads, ~0.1 ms of the two threads' time) then carries up to `max` point lookups instead of one.
 * A query whose cost is unknown or higher travels alone. Queries handed back (`putBack`, those the pool took back
 * from a worker before it started them) go to the front again, in order.
 */
export class BatchQueue<Q extends QueuedQuery> {
  /**
   * Slots before `#head` are taken and cleared, so a taken query (its request, its reply's closures) is not kept
   * reachable from here until the array is compacted (up to ~2k of them under load).
   */
  #items: (Q | undefined)[] = [];
  #head = 0;
  readonly #costs = new Map<string, number>();

  /** Queries waiting, including cancelled ones not yet dropped. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  push(query: Q): void {
    this.#items.push(query);
  }

  /** The oldest live query and the cheap ones behind it, at most `max` in all; empty when none is waiting. */
  take(max: number): Q[] {
    const batch: Q[] = [];
    let cheap = false;
    for (let next = this.#peek(); next !== null && batch.length < max; next = this.#peek()) {
      // The oldest goes whatever it costs; the ones behind it only while it and they are cheap.
      if (batch.length === 0) cheap = this.#isCheap(next);
      else if (!cheap || !this.#isCheap(next)) break;
      this.#items[this.#head++] = undefined;
      batch.push(next);
    }
    this.#compact();
    return batch;
  }

  /** Returns queries to the front of the queue, keeping their order. */
  putBack(queries: readonly Q[]): void {
    if (queries.length === 0) return;
    this.#items = [...queries, ...this.#items.slice(this.#head)];
    this.#head = 0;
  }

  /** Remembers what a query with this cost key took (ms). */
  recordCost(key: string | null, ms: number): void {
    if (key === null) return;
    if (this.#costs.size >= MAX_COSTS && !this.#costs.has(key)) this.#costs.clear();
    this.#costs.set(key, ms);
  }

  #isCheap(query: Q): boolean {
    return query.key !== null && (this.#costs.get(query.key) ?? Number.POSITIVE_INFINITY) < CHEAP_MS;
  }

  /** The head after dropping cancelled queries, left in place; null when the queue is empty. */
  #peek(): Q | null {
    while (this.#head < this.#items.length) {
      const q = this.#items[this.#head]!;
      if (!q.cancelled) return q;
      this.#items[this.#head++] = undefined;
    }
    return null;
  }

  /** Drops the taken slots once they are most of the array. */
  #compact(): void {
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
