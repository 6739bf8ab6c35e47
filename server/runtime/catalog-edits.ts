// `catalogEdits`: the running server's API to add, replace, drop and reload tables while it serves.
import type { TableEntry } from '../../catalog/snapshot.js';
import type { CatalogChange, CatalogVersions } from './catalog-versions.js';

/**
 * Changes to the catalog of a running server. Each call publishes one new catalog version and returns its number:
 * queries submitted after it returns run on the new version, queries already running finish on theirs; cached
 * results of the changed tables are dropped. Table names match case-insensitively. Used by tests now, by dataset
 * refresh and Iceberg writes later.
 */
export interface CatalogEdits {
  /** The catalog version new queries run on: 1 at start, one more per publication. */
  readonly catalogVersion: number;
  /** Applies `changes` in order as one version (all or nothing: a drop of an unknown table publishes nothing). */
  publish(changes: readonly CatalogChange[]): number;
  /** Adds a table; throws if one of that name exists. */
  addTable(entry: TableEntry): number;
  /** Replaces table `name` by `entry` (served under `name`); throws if there is none. */
  replaceTable(name: string, entry: TableEntry): number;
  /** Drops table `name`; its queries then fail with "table not found". Throws if there is none. */
  dropTable(name: string): number;
  /**
   * Reads the manifest's dataset `name` again from its source (an accelerated one into new shared memory, on a
   * helper thread) and replaces the table with it; resolves to the version published.
   */
  reloadDataset(name: string): Promise<number>;
}

/**
 * `CatalogEdits` over `versions` (null until the datasets are loaded: every edit then throws); `reload` is the
 * dataset runtime's (it loads and publishes through these edits, keeping the dataset's state).
 */
export function catalogEdits(
  versions: CatalogVersions | null,
  changed: (names: readonly string[]) => void,
  reload: (name: string) => Promise<number>,
): CatalogEdits {
  const live = (): CatalogVersions => {
    if (versions === null) throw new Error('the catalog is not loaded yet');
    return versions;
  };
  const has = (name: string) => live().snapshot.tables.some((t) => t.name.toLowerCase() === name.toLowerCase());
  const publish = (changes: readonly CatalogChange[]) => {
    const { version, changed: names } = live().publish(changes);
    changed(names);
    return version;
  };
  const replaceTable = (name: string, entry: TableEntry) => {
    if (!has(name)) throw new Error(`no table named "${name}"`);
    return publish([{ op: 'put', entry: { ...entry, name } }]);
  };
  return {
    get catalogVersion() {
      return live().version;
    },
    publish,
    addTable(entry) {
      if (has(entry.name)) throw new Error(`table "${entry.name}" already exists`);
      return publish([{ op: 'put', entry }]);
    },
    replaceTable,
    dropTable: (name) => publish([{ op: 'drop', name }]),
    reloadDataset: reload,
  };
}
