// The messages that publish catalog versions to every query worker (types only; one BroadcastChannel carries them).
import type { TableEntry } from './providers/registry.js';

/** A table of a version: `serial` names this exact entry, so a worker builds its provider once across versions. */
export interface PublishedTable {
  readonly serial: number;
  readonly entry: TableEntry;
}

/**
 * Main thread -> workers: `version` publishes the whole table list of a catalog version; `retire` says no query
 * on the main thread uses that version any more. Both carry `oldest`, the oldest version still live there: a
 * worker that waits for an older one it never received knows it will not come. Worker -> main thread: `hello`
 * asks for every live version again (a worker that just started, or one waiting for a version it lacks).
 */
export type CatalogMessage =
  | {
      readonly type: 'version';
      readonly version: number;
      readonly oldest: number;
      readonly tables: readonly PublishedTable[];
    }
  | { readonly type: 'retire'; readonly version: number; readonly oldest: number }
  | { readonly type: 'hello' };
