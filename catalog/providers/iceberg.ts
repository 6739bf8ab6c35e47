// The `iceberg` table kind: an Iceberg table at one snapshot, files pruned by manifest facts, written through the main thread.
import { createIcebergTable } from '../iceberg/iceberg-table.js';
import type { IcebergTableEntry } from '../iceberg/table-entry.js';
import { registerTableKind } from './registry.js';

registerTableKind<IcebergTableEntry>('iceberg', { build: (entry) => createIcebergTable(entry) });
