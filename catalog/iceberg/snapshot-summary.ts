// A snapshot's `summary`: the operation and Appendix F's metrics, all strings, computed from what the commit changed.
import { partitionKey } from './partition-values.js';
import type { DataFile } from './spec.js';

/** What one commit did: the files it added and removed, and the live files after it. */
export interface SnapshotChanges {
  readonly operation: 'append' | 'overwrite';
  readonly added: readonly DataFile[];
  readonly deleted: readonly DataFile[];
  readonly live: readonly DataFile[];
}

export const ENGINE_NAME = 'floe';

const sum = (files: readonly DataFile[], f: (d: DataFile) => number) => files.reduce((n, d) => n + f(d), 0);

/** The summary map Java's SnapshotSummary writes for these changes (totals are of the live files). */
export function snapshotSummary(c: SnapshotChanges): Record<string, string> {
  const out: Record<string, string> = { operation: c.operation };
  if (c.added.length > 0) {
    out['added-data-files'] = String(c.added.length);
    out['added-records'] = String(sum(c.added, (d) => d.recordCount));
    out['added-files-size'] = String(sum(c.added, (d) => d.fileSizeBytes));
  }
  if (c.deleted.length > 0) {
    out['deleted-data-files'] = String(c.deleted.length);
    out['deleted-records'] = String(sum(c.deleted, (d) => d.recordCount));
    out['removed-files-size'] = String(sum(c.deleted, (d) => d.fileSizeBytes));
  }
  const partitions = new Set([...c.added, ...c.deleted].map((d) => `${d.specId}:${partitionKey(d.partition)}`));
  out['changed-partition-count'] = String(partitions.size);
  out['total-records'] = String(sum(c.live, (d) => d.recordCount));
  out['total-files-size'] = String(sum(c.live, (d) => d.fileSizeBytes));
  out['total-data-files'] = String(c.live.length);
  out['total-delete-files'] = '0';
  out['total-position-deletes'] = '0';
  out['total-equality-deletes'] = '0';
  out['engine-name'] = ENGINE_NAME;
  return out;
}
