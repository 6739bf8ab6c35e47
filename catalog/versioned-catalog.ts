// `VersionedCatalog`: a worker's engines by catalog version, kept while queries on them run, built from published versions.
import { BroadcastChannel } from 'node:worker_threads';
import { type Catalog, collectGarbage, type Engine, retainSharedTables, type TableProvider } from '../engine/index.js';
import { buildProvider } from './providers/registry.js';
import { catalogOf } from './snapshot.js';
import type { CatalogMessage, PublishedTable } from './version-messages.js';

/** An engine on one version, held until `release`. */
export interface CatalogLease {
  readonly engine: Engine;
  readonly version: number;
  release(): void;
}

interface Held {
  readonly engine: Promise<Engine>;
  readonly serials: readonly number[];
  users: number;
  /** The main thread no longer uses it: dropped here once `users` is 0. */
  retired: boolean;
}

/**
 * Listens on the catalog channel (`CatalogVersions` on the main thread) and builds one engine per version it
 * receives, each table's provider built once per published entry and shared by the versions that hold it (an
 * unchanged table keeps its provider, its zone maps and its id in the parallel helpers). A version retired by the
 * main thread is dropped once no query here runs on it; the providers only it held go with it, and this thread's
 * parallel helpers are told to release their tables, so the shared memory of a replaced table can be freed.
 */
export class VersionedCatalog {
  readonly #port: BroadcastChannel;
  readonly #makeEngine: (catalog: Catalog) => Engine;
  readonly #versions = new Map<number, Held>();
  readonly #providers = new Map<number, { built: Promise<TableProvider>; provider?: TableProvider }>();
  readonly #waiting = new Set<() => void>();
  #latest = 0;
  /** The oldest version the main thread still holds: an older one never comes. */
  #oldest = 0;
  #asked = false;
  /** Resolves once the first version is built. */
  readonly ready: Promise<void>;

  constructor(channel: string, makeEngine: (catalog: Catalog) => Engine) {
    this.#makeEngine = makeEngine;
    this.#port = new BroadcastChannel(channel);
    this.#port.onmessage = (e) => this.#receive((e as { data: CatalogMessage }).data);
    this.#port.unref();
    this.ready = this.acquire().then((lease) => lease.release());
  }

  /**
   * The engine of `version` (default: the latest received), waiting until it arrives. A version the main thread
   * has retired and this thread never had (only a cancelled query asks for it) gives the latest instead.
   */
  async acquire(version?: number): Promise<CatalogLease> {
    let held = this.#pick(version);
    while (held === undefined) {
      this.#ask();
      await new Promise<void>((resolve) => this.#waiting.add(resolve));
      held = this.#pick(version);
    }
    const [v, h] = held;
    h.users++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      h.users--;
      this.#dropIfDone(v);
    };
    try {
      return { engine: await h.engine, version: v, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  close(): void {
    this.#port.close();
  }

  #pick(version: number | undefined): [number, Held] | undefined {
    const v =
      version === undefined || (version < this.#oldest && !this.#versions.has(version)) ? this.#latest : version;
    const held = this.#versions.get(v);
    return held === undefined ? undefined : [v, held];
  }

  /** Asks the main thread for the live versions, once until one arrives. */
  #ask(): void {
    if (this.#asked) return;
    this.#asked = true;
    this.#port.postMessage({ type: 'hello' } satisfies CatalogMessage);
  }

  #receive(m: CatalogMessage): void {
    if (m.type === 'hello') return;
    this.#oldest = Math.max(this.#oldest, m.oldest);
    if (m.type === 'version') this.#add(m.version, m.tables);
    else {
      const held = this.#versions.get(m.version);
      if (held !== undefined) held.retired = true;
    }
    for (const v of [...this.#versions.keys()]) this.#dropIfDone(v);
    // The answer to a `hello` is version messages; a retire alone does not answer it.
    if (m.type === 'version') this.#asked = false;
    for (const wake of [...this.#waiting]) wake();
    this.#waiting.clear();
  }

  #add(version: number, tables: readonly PublishedTable[]): void {
    if (this.#versions.has(version) || version < this.#oldest) return;
    const engine = catalogOf(
      tables.map((t) => t.entry),
      (entry) => this.#provider(tables.find((t) => t.entry === entry)!),
    ).then((catalog) => this.#makeEngine(catalog));
    this.#versions.set(version, { engine, serials: tables.map((t) => t.serial), users: 0, retired: false });
    this.#latest = Math.max(this.#latest, version);
  }

  #provider({ serial, entry }: PublishedTable): Promise<TableProvider> {
    let known = this.#providers.get(serial);
    if (known === undefined) {
      const slot: { built: Promise<TableProvider>; provider?: TableProvider } = { built: buildProvider(entry) };
      slot.built.then((p) => (slot.provider = p)).catch(() => {});
      this.#providers.set(serial, slot);
      known = slot;
    }
    return known.built;
  }

  #dropIfDone(version: number): void {
    const held = this.#versions.get(version);
    const retired = held?.retired === true || version < this.#oldest;
    if (held === undefined || !retired || held.users > 0 || version === this.#latest) return;
    this.#versions.delete(version);
    const kept = new Set([...this.#versions.values()].flatMap((h) => h.serials));
    const gone = held.serials.filter((s) => !kept.has(s));
    if (gone.length === 0) return;
    for (const s of gone) this.#providers.delete(s);
    const ids = [...this.#providers.values()].flatMap((p) => p.provider?.shared?.()?.id ?? []);
    retainSharedTables(ids);
    collectGarbage();
  }
}
