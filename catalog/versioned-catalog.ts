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
}

/**
 * Listens on the catalog channel (`CatalogVersions` on the main thread) and builds one engine per version it
 * receives, each table's provider built once per published entry and shared by the versions that hold it (an
 * unchanged table keeps its provider, its zone maps and its id in the parallel helpers). A version the main thread
 * has retired is dropped once no query here runs on it; the providers only it held go with it, and this thread's
 * parallel helpers are told to release their tables, so the shared memory of a replaced table can be freed.
 */
export class VersionedCatalog {
  readonly #port: BroadcastChannel;
  readonly #makeEngine: (catalog: Catalog) => Engine;
  readonly #versions = new Map<number, Held>();
  readonly #providers = new Map<number, { built: Promise<TableProvider>; provider?: TableProvider }>();
  readonly #waiting = new Set<() => void>();
  #latest = 0;
  /** The versions live on the main thread as of its last message; null before the first. */
  #live: ReadonlySet<number> | null = null;
  /** The newest version the main thread has announced. */
  #announced = 0;
  /** Resolves once the first version is built. */
  readonly ready: Promise<void>;

  constructor(channel: string, makeEngine: (catalog: Catalog) => Engine) {
    this.#makeEngine = makeEngine;
    this.#port = new BroadcastChannel(channel);
    this.#port.onmessage = (e) => this.#receive((e as { data: CatalogMessage }).data);
    this.#port.unref();
    // Versions published before this thread listened: the main thread sends every live one again.
    this.#port.postMessage({ type: 'hello' } satisfies CatalogMessage);
    this.ready = this.acquire().then((lease) => lease.release());
  }

  /**
   * The engine of `version` (default: the latest received), waiting until it arrives: the main thread published
   * it before it stamped a query with it. A version retired before it got here (only a cancelled query can still
   * ask for it) gives the latest instead.
   */
  async acquire(version?: number): Promise<CatalogLease> {
    let held = this.#pick(version);
    while (held === undefined) {
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

  /** The versions this thread holds an engine for, ascending. */
  get versions(): number[] {
    return [...this.#versions.keys()].sort((a, b) => a - b);
  }

  close(): void {
    this.#port.close();
  }

  #pick(version: number | undefined): [number, Held] | undefined {
    const v = version === undefined || this.#isRetired(version) ? this.#latest : version;
    const held = this.#versions.get(v);
    return held === undefined ? undefined : [v, held];
  }

  /**
   * Whether the main thread has retired `version` (as of its last message): it announced it or a later one, and
   * lists it live no more. A version newer than any announced is on its way.
   */
  #isRetired(version: number): boolean {
    return this.#live !== null && version <= this.#announced && !this.#live.has(version);
  }

  #receive(m: CatalogMessage): void {
    if (m.type === 'hello') return;
    this.#live = new Set(m.live);
    this.#announced = Math.max(this.#announced, ...m.live);
    if (m.type === 'version') this.#add(m.version, m.tables);
    for (const v of [...this.#versions.keys()]) this.#dropIfDone(v);
    for (const wake of [...this.#waiting]) wake();
    this.#waiting.clear();
  }

  #add(version: number, tables: readonly PublishedTable[]): void {
    if (this.#versions.has(version) || this.#isRetired(version)) return;
    const engine = catalogOf(
      tables.map((t) => t.entry),
      (entry) => this.#provider(tables.find((t) => t.entry === entry)!),
    ).then((catalog) => this.#makeEngine(catalog));
    this.#versions.set(version, { engine, serials: tables.map((t) => t.serial), users: 0 });
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
    if (held === undefined || !this.#isRetired(version) || held.users > 0 || version === this.#latest) return;
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
