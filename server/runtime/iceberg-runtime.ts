// `startIcebergCatalogs`: the manifest's Iceberg catalogs in a running server: loaded at start, writes served.
import { IcebergCatalogs } from '../../catalog/iceberg/iceberg-catalogs.js';
import { serveWrites } from '../../catalog/iceberg/write-channel.js';
import { writesChannelName } from '../../catalog/iceberg/write-protocol.js';
import type { TableEntry } from '../../catalog/snapshot.js';
import type { Manifest } from '../config/manifest.js';
import type { DatasetRuntime } from '../datasets/dataset-runtime.js';
import type { CatalogEdits } from './catalog-edits.js';

export interface IcebergRuntime {
  readonly catalogs: IcebergCatalogs;
  /** The catalogs' tables, for the first catalog version. */
  readonly entries: readonly TableEntry[];
  /**
   * Starts answering the workers' DDL and commits on the writes channel of catalog channel `channel`, publishing
   * through `edits`; after a commit, datasets reading that table (`from: iceberg:<its location>`) are refreshed
   * (accelerated) or re-read (files mode), so they see floe's own writes.
   */
  serve(channel: string, edits: CatalogEdits, datasets: DatasetRuntime): void;
  close(): void;
}

export async function startIcebergCatalogs(manifest: Manifest, log: (line: string) => void): Promise<IcebergRuntime> {
  const catalogs = new IcebergCatalogs(manifest.catalogs, log);
  const entries = await catalogs.load();
  let closeChannel = () => {};
  return {
    catalogs,
    entries,
    serve(channel, edits, datasets) {
      catalogs.serve((change) =>
        edits.publish(['put' in change ? { op: 'put', entry: change.put } : { op: 'drop', name: change.drop }]),
      );
      catalogs.onCommitted = (location) => {
        for (const d of manifest.datasets) {
          if (!sameTable(d.from, location)) continue;
          const again = d.accelerated ? datasets.refresh(d.name) : edits.reloadDataset(d.name);
          again.catch((e) =>
            log(`floe: dataset ${d.name}: reading it again after a write failed: ${(e as Error).message}`),
          );
        }
      };
      closeChannel = serveWrites(writesChannelName(channel), (call) => catalogs.handle(call));
    },
    close: () => closeChannel(),
  };
}

/** Whether dataset source `from` (`iceberg:<table uri>`) names the table at `location`. */
function sameTable(from: string, location: string): boolean {
  const m = /^iceberg:(.+)$/i.exec(from);
  if (m === null) return false;
  const strip = (u: string) => u.replace(/\/+$/, '').replace(/^file:\/\/(?!\/)/i, 'file:///');
  return strip(m[1]!) === strip(location);
}
