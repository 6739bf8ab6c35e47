// `CatalogVersions`: the main thread's numbered catalog versions, published to every query worker over a BroadcastChannel.
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { CatalogSnapshot, TableEntry } from '../../catalog/snapshot.js';
import type { CatalogMessage, PublishedTable } from '../../catalog/version-messages.js';
import { collectGarbage } from '../../engine/index.js';

/** One change of a publication: add or replace the table `entry.name`, or drop `name`. */
export type CatalogChange =
  | { readonly op: 'put'; readonly entry: TableEntry }
  | { readonly op: 'drop'; readonly name: string };

interface LiveVersion {
  readonly tables: readonly PublishedTable[];
  /** Queries stamped with this version whose answers are still outstanding. */
  users: number;
}

/**
 * Version 1 is `initial`; each `publish` makes the next one from the latest and sends it to every worker. A query
 * takes the latest version when it is submitted (`acquire`) and gives it back when its answer is done (`release`);
 * an older version is retired (workers drop its engine, and the tables only it held) once no query uses it. The
 * main thread keeps only live versions, so a replaced table's memory is referenced nowhere once its version retires.
 */
export class CatalogVersions {
  /** The BroadcastChannel's name, for the workers (`VersionedCatalog`). */
  readonly channel = `floe-catalog-${randomUUID()}`;
  readonly #port = new BroadcastChannel(this.channel);
  readonly #live = new Map<number, LiveVersion>();
  #latest = 1;
  #serial = 0;

  constructor(initial: CatalogSnapshot) {
    this.#live.set(1, { tables: initial.tables.map((entry) => this.#stamp(entry)), users: 0 });
    this.#port.onmessage = (e) => {
      if ((e as { data: CatalogMessage }).data.type === 'hello') this.#sendLive();
    };
  }

  /** The version new queries run on. */
  get version(): number {
    return this.#latest;
  }

  /** The latest version's tables. */
  get snapshot(): CatalogSnapshot {
    return { tables: this.#live.get(this.#latest)!.tables.map((t) => t.entry) };
  }

  /**
   * Makes and sends the next version: the latest with `changes` applied in order (names match case-insensitively).
   * Queries submitted from now on run on it; running ones finish on theirs. Returns the new version and the
   * lower-case names of the tables changed. Throws, publishing nothing, when a drop names no table.
   */
  publish(changes: readonly CatalogChange[]): { version: number; changed: string[] } {
    const tables = [...this.#live.get(this.#latest)!.tables];
    const changed = new Set<string>();
    for (const change of changes) {
      const name = change.op === 'put' ? change.entry.name : change.name;
      const at = tables.findIndex((t) => t.entry.name.toLowerCase() === name.toLowerCase());
      if (change.op === 'drop' && at < 0) throw new Error(`no table named "${name}"`);
      if (at >= 0) tables.splice(at, 1);
      if (change.op === 'put') tables.push(this.#stamp(change.entry));
      changed.add(name.toLowerCase());
    }
    const previous = this.#latest;
    this.#latest++;
    this.#live.set(this.#latest, { tables, users: 0 });
    this.#send(this.#versionMessage(this.#latest));
    this.#retireIfUnused(previous);
    return { version: this.#latest, changed: [...changed] };
  }

  /** Stamps a query with the latest version; call `release` with it once the query's answer is done. */
  acquire(): number {
    this.#live.get(this.#latest)!.users++;
    return this.#latest;
  }

  release(version: number): void {
    const live = this.#live.get(version);
    if (live === undefined) return;
    live.users--;
    this.#retireIfUnused(version);
  }

  /** Closes the channel (which keeps the process alive until then: workers starting up ask on it). */
  close(): void {
    this.#port.close();
  }

  #retireIfUnused(version: number): void {
    const live = this.#live.get(version);
    if (live === undefined || live.users > 0 || version === this.#latest) return;
    this.#live.delete(version);
    this.#send({ type: 'retire', version, live: [...this.#live.keys()] });
    const kept = new Set([...this.#live.values()].flatMap((v) => v.tables.map((t) => t.serial)));
    // A table no live version holds: this thread's handles on its shared memory go now, not at some later GC.
    if (live.tables.some((t) => !kept.has(t.serial))) setImmediate(collectGarbage);
  }

  #sendLive(): void {
    for (const version of [...this.#live.keys()].sort((a, b) => a - b)) this.#send(this.#versionMessage(version));
  }

  #versionMessage(version: number): CatalogMessage {
    return { type: 'version', version, live: [...this.#live.keys()], tables: this.#live.get(version)!.tables };
  }

  #send(message: CatalogMessage): void {
    this.#port.postMessage(message);
  }

  #stamp(entry: TableEntry): PublishedTable {
    return { serial: ++this.#serial, entry };
  }
}
