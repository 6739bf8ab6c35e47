// The datasets' catalog without a server: stable UUIDs, Arrow type names read back, columns Iceberg cannot hold,
// and how a failed schema query is answered (503 while not serving, 500 with a reason code otherwise).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrowTypeName, type DataType } from '../../engine/index.js';
import type { DatasetState, Datasets } from '../../server/datasets/datasets.js';
import { readDatasetSchema, typeFromArrowName } from '../../server/iceberg/dataset-schema.js';
import { datasetCatalogSource, datasetMetadata, stableTableUuid } from '../../server/iceberg/dataset-source.js';
import { RestCatalogError } from '../../server/iceberg/rest-answer.js';
import type { WireError } from '../../server/pool/messages.js';
import type { QueryService } from '../../server/runtime/query-service.js';

const TYPES: DataType[] = [
  { id: 'null' },
  { id: 'bool' },
  { id: 'int32' },
  { id: 'int64' },
  { id: 'float64' },
  { id: 'decimal', precision: 38, scale: 10 },
  { id: 'utf8' },
  { id: 'date' },
  { id: 'timestamp', tz: null },
  { id: 'timestamp', tz: 'UTC' },
  { id: 'interval' },
];

/** A query service whose every query fails with `error`. */
function failingService(error: WireError): QueryService {
  const run: QueryService['run'] = (_request, sink) => {
    sink.error(error);
    return () => {};
  };
  return { run, admitted: 0, waiting: 0 };
}

async function rejectsWith(p: Promise<unknown>, status: number, type: string, message: string | RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof RestCatalogError);
    assert.equal(e.status, status);
    assert.equal(e.type, type);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

describe('datasets catalog', () => {
  it('table-uuid: a version-8 UUID of catalog, name and from; same inputs give the same UUID', () => {
    const a = stableTableUuid('floe', 'trips', 'file:/data/trips.parquet');
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(stableTableUuid('floe', 'trips', 'file:/data/trips.parquet'), a);
    assert.notEqual(stableTableUuid('floe', 'trips', 'file:/data/other.parquet'), a);
    assert.notEqual(stableTableUuid('floe', 'trips2', 'file:/data/trips.parquet'), a);
    assert.notEqual(stableTableUuid('spice', 'trips', 'file:/data/trips.parquet'), a);
  });

  it('reads back every Arrow type name vnd-json writes', () => {
    for (const t of TYPES) assert.deepEqual(typeFromArrowName(arrowTypeName(t)), t);
    assert.throws(() => typeFromArrowName('LargeList(Int32)'), RestCatalogError);
  });

  it('a column Iceberg has no type for: 500 unsupported_column_type, not a wrong type', () => {
    const fields = [{ name: 'gap', qualifier: null, type: { id: 'interval' } as DataType, nullable: true }];
    assert.throws(
      () => datasetMetadata('floe', { name: 'd', from: 'file:/d' }, fields, 0),
      (e: unknown) => e instanceof RestCatalogError && e.message === 'Internal Server Error: unsupported_column_type',
    );
  });

  it('a failed schema query: 503 with Retry-After while not serving, else 500 with the error kind only', async () => {
    const unavailable = failingService({
      kind: 'unavailable',
      message: 'not ready: datasets are loading',
      retryAfterS: 1,
    });
    await rejectsWith(readDatasetSchema(unavailable, 'd'), 503, 'ServiceUnavailableException', /not ready/);
    const exec = failingService({ kind: 'exec', message: 'dataset "d" cannot be read: /secret/path' });
    await rejectsWith(readDatasetSchema(exec, 'd'), 500, 'InternalServerError', 'Internal Server Error: query.exec');
  });

  it('lists datasets sorted under its one schema; unknown schema or table is undefined', async () => {
    const state = (name: string): DatasetState => ({
      name,
      from: `file:/${name}`,
      accelerated: false,
      status: 'Ready',
      error: null,
      errorMessage: null,
      properties: {},
    });
    const datasets = { list: () => [state('zeta'), state('alpha')] } as unknown as Datasets;
    const source = datasetCatalogSource({
      name: 'cat',
      datasets: () => datasets,
      service: failingService({ kind: 'internal', message: 'unused' }),
      updatedMs: 42,
      readSchema: async () => [{ name: 'x', qualifier: null, type: { id: 'int64' }, nullable: false }],
    });
    assert.deepEqual(await source.schemas(), ['public']);
    assert.deepEqual(await source.tables('public'), ['alpha', 'zeta']);
    assert.equal(await source.tables('other'), undefined);
    assert.equal(await source.loadTable('public', 'nope'), undefined);
    assert.equal(await source.loadTable('other', 'alpha'), undefined);
    const loaded = await source.loadTable('public', 'alpha');
    assert.equal(loaded?.metadataLocation, null);
    assert.deepEqual(loaded?.metadata.schemas, [
      { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'x', required: true, type: 'long' }] },
    ]);
    assert.equal(loaded?.metadata['last-updated-ms'], 42);
    assert.equal(loaded?.metadata['table-uuid'], stableTableUuid('cat', 'alpha', 'file:/alpha'));
  });
});
