// The REST read operations without a server: snapshots=refs on tables with and without `refs`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableMetadata } from '../../catalog/iceberg/spec.js';
import { loadTable } from '../../server/iceberg/rest-operations.js';
import type { RestCatalogSource } from '../../server/iceberg/rest-source.js';
import { FAKE_METADATA, fakeSource } from './rest-fake-source.js';

/** `lake.sales.orders` answering `metadata`. */
function sourceWith(metadata: TableMetadata): RestCatalogSource {
  return { ...fakeSource(), loadTable: async () => ({ metadataLocation: 'file:///m.json', metadata }) };
}

const snapshotIds = async (metadata: TableMetadata, mode: 'all' | 'refs') => {
  const result = (await loadTable([sourceWith(metadata)], ['lake', 'sales'], 'orders', mode)) as {
    metadata: TableMetadata;
  };
  return result.metadata.snapshots?.map((s) => s['snapshot-id']);
};

describe('loadTable snapshots=refs', () => {
  it('keeps the snapshots branches and tags point at', async () => {
    assert.deepEqual(await snapshotIds(FAKE_METADATA, 'all'), [1, 2, 3]);
    assert.deepEqual(await snapshotIds(FAKE_METADATA, 'refs'), [1, 3]);
  });

  it('without refs (a v1 table), keeps the current snapshot: the implied main branch', async () => {
    const { refs: _refs, ...v1 } = FAKE_METADATA;
    assert.deepEqual(await snapshotIds(v1, 'refs'), [3]);
    assert.deepEqual(await snapshotIds({ ...v1, 'current-snapshot-id': -1 }, 'refs'), []);
  });
});
