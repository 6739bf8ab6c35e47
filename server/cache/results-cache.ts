// `ResultsCache`: finished /v1/sql bodies by request key: byte-bounded LRU, per-entry TTL, invalidated by table.

/** One cached response body and what it depends on. */
export interface CachedResult {
  readonly contentType: string;
  readonly body: Uint8Array;
  /** Lower-case names of the tables the query read; a refresh of any of them drops the entry. */
  readonly tables: readonly string[];
}

interface Entry extends CachedResult {
  readonly expiresAt: number;
  readonly bytes: number;
}

/** Map and entry bookkeeping per entry, on top of the key and the body (a rough count, for the byte bound). */
const ENTRY_OVERHEAD_BYTES = 200;

export interface ResultsCacheOptions {
  readonly maxBytes: number;
  readonly ttlMs: number;
  /** Largest body stored; default an eighth of `maxBytes` (one result never flushes the whole cache). */
  readonly maxEntryBytes?: number;
  /** Clock in ms; tests pass their own. */
  readonly now?: () => number;
}

/**
 * A Map in recency order (a hit moves its entry to the end; eviction takes from the front). Entries cost
 * their body, their key (2 bytes per UTF-16 unit) and a fixed overhead against `maxBytes`. Expired entries
 * are dropped when met. Does not copy bodies: callers must not mutate a body after `set` or a `get`.
 */
export class ResultsCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly maxEntryBytes: number;
  #bytes = 0;
  #epoch = 0;
  #hits = 0;
  #misses = 0;
  /** The key last moved to (or set at) the end of `#entries`, when still there. */
  #newest: string | null = null;

  constructor(options: ResultsCacheOptions) {
    this.#maxBytes = options.maxBytes;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.maxEntryBytes = Math.min(options.maxEntryBytes ?? Math.floor(options.maxBytes / 8), options.maxBytes);
  }

  /** Bytes held (bodies, keys and overhead). */
  get bytes(): number {
    return this.#bytes;
  }

  /** `get` calls that found a live entry, and those that did not (results_cache_hits / _misses). */
  get hits(): number {
    return this.#hits;
  }

  get misses(): number {
    return this.#misses;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Bumped by every `invalidate`. A query notes it when it starts and passes it to `set`, so a result computed
   * from data that was refreshed meanwhile is never stored.
   */
  get epoch(): number {
    return this.#epoch;
  }

  /** The live entry for `key` (made most recently used), or undefined. */
  get(key: string): CachedResult | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expiresAt <= this.#now()) {
      if (entry !== undefined) this.#delete(key);
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Already the most recently used (a hot key hit again): no need to move it to the end.
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    return entry;
  }

  /**
   * Stores `result` under `key` unless its body is over `maxEntryBytes` or the cache was invalidated since
   * `epoch`; evicts least recently used entries until it fits. Returns whether it was stored. A body that is a
   * view into a larger buffer (a batch's packed answers) is copied, so an entry holds only its own bytes.
   */
  set(key: string, result: CachedResult, epoch: number): boolean {
    if (epoch !== this.#epoch || this.#ttlMs <= 0) return false;
    const bytes = result.body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (result.body.byteLength > this.maxEntryBytes || bytes > this.#maxBytes) return false;
    this.#delete(key);
    while (this.#bytes + bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next().value as string;
      this.#delete(oldest);
    }
    const { body } = result;
    const own = body.byteLength === body.buffer.byteLength ? body : body.slice();
    this.#entries.set(key, { ...result, body: own, expiresAt: this.#now() + this.#ttlMs, bytes });
    this.#newest = key;
    this.#bytes += bytes;
    return true;
  }

  /** Drops every entry that read one of `tables` (case-insensitive) and refuses results begun before now. */
  invalidate(tables: readonly string[]): void {
    this.#epoch++;
    const names = new Set(tables.map((t) => t.toLowerCase()));
    for (const [key, entry] of this.#entries) {
      if (entry.tables.some((t) => names.has(t))) this.#delete(key);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    if (key === this.#newest) this.#newest = null;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
