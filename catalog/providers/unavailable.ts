// The `unavailable` table kind: a dataset with no data to serve (its load failed); its queries raise the reason.
import { registerTableKind, type TableEntry } from './registry.js';

/** A dataset whose load failed: `message` names the dataset, its connector and the error. */
export interface UnavailableTableEntry extends TableEntry {
  readonly kind: 'unavailable';
  readonly message: string;
}

// A provider that cannot be built makes the table broken (`catalogOf`): each query on it fails with `message`.
registerTableKind<UnavailableTableEntry>('unavailable', {
  build(entry) {
    throw new Error(entry.message);
  },
});
