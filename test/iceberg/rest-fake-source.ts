// A `RestCatalogSource` with one real-looking Iceberg table (two snapshots, a tag on the first) for the REST tests.
import type { TableMetadata } from '../../catalog/iceberg/spec.js';
import type { RestCatalogSource } from '../../server/iceberg/rest-source.js';

export const FAKE_CATALOG = 'lake';
export const FAKE_LOCATION = 'file:///warehouse/sales/orders';
export const FAKE_METADATA_LOCATION = `${FAKE_LOCATION}/metadata/v3.metadata.json`;

/** Snapshot ids: 1 (tagged `first`), 2 (not referenced), 3 (`main`). */
export const FAKE_METADATA: TableMetadata = {
  'format-version': 2,
  'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',
  location: FAKE_LOCATION,
  'last-sequence-number': 3,
  'last-updated-ms': 1_700_000_300_000,
  'last-column-id': 3,
  schemas: [
    {
      type: 'struct',
      'schema-id': 0,
      fields: [
        { id: 1, name: 'id', required: true, type: 'long' },
        { id: 2, name: 'amount', required: false, type: 'decimal(9, 2)' },
        { id: 3, name: 'placed', required: false, type: 'timestamptz' },
      ],
    },
  ],
  'current-schema-id': 0,
  'partition-specs': [
    { 'spec-id': 0, fields: [{ 'source-id': 3, 'field-id': 1000, name: 'placed_day', transform: 'day' }] },
  ],
  'default-spec-id': 0,
  'last-partition-id': 1000,
  properties: { 'write.format.default': 'parquet' },
  'current-snapshot-id': 3,
  snapshots: [1, 2, 3].map((n) => ({
    'snapshot-id': n,
    ...(n > 1 ? { 'parent-snapshot-id': n - 1 } : {}),
    'sequence-number': n,
    'timestamp-ms': 1_700_000_000_000 + n * 100_000,
    'manifest-list': `${FAKE_LOCATION}/metadata/snap-${n}-1-abc.avro`,
    summary: { operation: 'append', 'added-records': '10', 'total-records': String(10 * n) },
    'schema-id': 0,
  })),
  'snapshot-log': [1, 2, 3].map((n) => ({ 'snapshot-id': n, 'timestamp-ms': 1_700_000_000_000 + n * 100_000 })),
  'metadata-log': [],
  'sort-orders': [{ 'order-id': 0, fields: [] }],
  'default-sort-order-id': 0,
  refs: { main: { 'snapshot-id': 3, type: 'branch' }, first: { 'snapshot-id': 1, type: 'tag' } },
};

/**
 * Catalog `lake` with schemas `empty` and `sales`; `sales` holds `orders` (FAKE_METADATA) and `broken` (its load
 * throws an error whose message must never reach a client).
 */
export function fakeSource(): RestCatalogSource {
  const tables: Record<string, readonly string[]> = { empty: [], sales: ['broken', 'orders'] };
  return {
    name: FAKE_CATALOG,
    schemas: async () => Object.keys(tables).sort(),
    tables: async (schema) => tables[schema],
    async loadTable(schema, table) {
      if (schema !== 'sales') return undefined;
      if (table === 'broken') throw new Error('secret detail: /srv/keys/warehouse.pem unreadable');
      if (table !== 'orders') return undefined;
      return { metadataLocation: FAKE_METADATA_LOCATION, metadata: FAKE_METADATA };
    },
  };
}

/** A catalog with `count` schemas `s000`, `s001`, ... (pagination). */
export function wideSource(name: string, count: number): RestCatalogSource {
  const schemas = Array.from({ length: count }, (_, i) => `s${String(i).padStart(3, '0')}`);
  return {
    name,
    schemas: async () => schemas,
    tables: async (schema) => (schemas.includes(schema) ? [] : undefined),
    loadTable: async () => undefined,
  };
}
