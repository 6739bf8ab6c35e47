// `SessionTable`: open MCP sessions by id, each bound to who opened it and closed after a time without requests.
import type { Principal } from '../auth/principal.js';

export interface SessionTableOptions {
  /** A session no request has named for this long is closed (ms; contract §8: 1 hour). */
  readonly idleMs: number;
  /**
   * Auth on: a session is found only with the principal that opened it. Auth off: the principal is the caller's
   * address (or `anonymous`), which may change under a client (a new network, a proxy), so any caller holding the
   * id (an unguessable UUID) finds it.
   */
  readonly bindToPrincipal: boolean;
  /**
   * At most this many sessions; opening one more closes the one named least recently (not one with a call
   * running), so clients that never end their sessions cannot grow the table without bound. Default 1000.
   */
  readonly maxSessions?: number;
}

export const DEFAULT_MAX_SESSIONS = 1000;

interface Entry<T> {
  readonly value: T;
  readonly principalId: string;
  readonly timer: NodeJS.Timeout;
}

/** Node's timers take at most 2^31 - 1 ms (about 24.8 days); a longer wait would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The sessions of one transport. `close` ends a session's transport (its SSE stream) when it expires; `isBusy`
 * (optional) tells whether it still has calls running, which count as activity: a long query does not expire it.
 */
export class SessionTable<T> {
  readonly #entries = new Map<string, Entry<T>>();
  /** After `closeAll`: a session opened late (its open was under way) is closed at once. */
  #closedAll = false;

  constructor(
    private readonly options: SessionTableOptions,
    private readonly close: (value: T) => Promise<void>,
    private readonly isBusy: (value: T) => boolean = () => false,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** Adds a session and starts its idle timer (which does not keep the process alive). */
  add(id: string, value: T, principal: Principal): void {
    if (this.#closedAll) {
      this.close(value).catch(() => {});
      return;
    }
    const timer = setTimeout(() => this.#expire(id), Math.min(this.options.idleMs, MAX_TIMER_MS));
    timer.unref();
    this.delete(id);
    this.#evictOver((this.options.maxSessions ?? DEFAULT_MAX_SESSIONS) - 1);
    this.#entries.set(id, { value, principalId: principal.id, timer });
  }

  /** The session `id` names, its idle timer restarted; undefined when unknown, expired or another principal's. */
  find(id: string, principal: Principal): T | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (this.options.bindToPrincipal && entry.principalId !== principal.id) return undefined;
    entry.timer.refresh();
    // Map order is use order: the first entry is the one named least recently.
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry.value;
  }

  /** Forgets a session (its transport closed); does not close it. */
  delete(id: string): void {
    this.#entries.get(id)?.timer.close();
    this.#entries.delete(id);
  }

  /** Closes every session (shutdown). */
  async closeAll(): Promise<void> {
    this.#closedAll = true;
    const open = [...this.#entries.values()];
    for (const e of open) e.timer.close();
    this.#entries.clear();
    await Promise.all(open.map((e) => this.close(e.value).catch(() => {})));
  }

  /** Closes the least recently named idle sessions until at most `keep` remain (busy ones are skipped). */
  #evictOver(keep: number): void {
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= keep) return;
      if (this.isBusy(entry.value)) continue;
      this.delete(id);
      this.close(entry.value).catch(() => {});
    }
  }

  #expire(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    if (this.isBusy(entry.value)) {
      entry.timer.refresh();
      return;
    }
    this.#entries.delete(id);
    this.close(entry.value).catch(() => {});
  }
}
