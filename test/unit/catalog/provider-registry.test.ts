// The provider registry: a new table kind plugs in without touching the snapshot code; unknown kinds break only their table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { registerTableKind, tableKinds } from '../../../catalog/providers/registry.js';
import { catalogFromSnapshot } from '../../../catalog/snapshot.js';
import { cellText, createEngine, createMemoryTable, type MemoryTableData } from '../../../engine/index.js';

const data: MemoryTableData = {
  schema: { fields: [{ name: 'x', qualifier: null, type: { id: 'int32' }, nullable: false }] },
  chunks: [
    { length: 3, columns: [{ type: { id: 'int32' }, values: new Int32Array([1, 2, 3]), valid: null, length: 3 }] },
  ],
};

test('parquet and memory register themselves', () => {
  assert.deepEqual(
    tableKinds().filter((k) => k === 'parquet' || k === 'memory'),
    ['memory', 'parquet'],
  );
});

test('a registered kind builds its provider from a plain entry', async () => {
  let built = 0;
  registerTableKind<{ name: string; kind: 'three'; times: number }>('three', {
    build: (entry) => {
      built += entry.times;
      return createMemoryTable(data);
    },
  });
  assert.throws(() => registerTableKind('three', { build: () => createMemoryTable(data) }), /registered twice/);
  const catalog = await catalogFromSnapshot({
    tables: [
      { name: 't', kind: 'three', times: 2 },
      { name: 'u', kind: 'nowhere' },
    ],
  });
  assert.equal(built, 2);
  const engine = createEngine({ catalog });
  const result = await engine.execute('SELECT sum(x) FROM t');
  for await (const b of result.batches) assert.equal(cellText(b.columns[0]!, 0), '6');
  await assert.rejects(engine.execute('SELECT * FROM u'), { message: /no table provider for kind "nowhere"/ });
});
