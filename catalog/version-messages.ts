// The messages that publish catalog versions to every query worker (types only; one BroadcastChannel carries them).
import type { TableEntry } from './providers/registry.js';

/** A table of a version: `serial` names this exact entry, so a worker builds its provider once across versions. */
export interface PublishedTable {
  readonly serial: number;
  readonly entry: TableEntry;
}

/**
 * Main thread -> workers: `version` publishes the whole table list of a catalog version; `retire` says no query
 * on the main thread uses that version any more. Both carry `live`, the versions still live there when sent: a
 * version a worker lacks and `live` omits was retired and will not come (only a cancelled query asks for one).
 * Worker -> main thread: `hello` (a worker that just started) asks for every live version.
 */
export type CatalogMessage =
  | {
      readonly type: 'version';
      readonly version: number;
      readonly live: readonly number[];
      readonly tables: readonly PublishedTable[];
    }
  | { readonly type: 'retire'; readonly version: number; readonly live: readonly number[] }
  | { readonly type: 'hello' };
