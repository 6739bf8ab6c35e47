// SharedSlabs: where a loaded table's arrays are carved from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedSlabs, SLAB_BYTES } from '../../../../../engine/arrow/shared-slabs.js';
import { createParquetTable, loadParquetTable } from '../../../../../engine/index.js';
import { writeTestData } from '../../../../helpers/gen-data.js';

test('SharedSlabs: arrays share a slab, aligned, without overlapping', () => {
  const slabs = new SharedSlabs();
  const a = slabs.bytes(3);
  const b = slabs.array(Float64Array, 5);
  const c = slabs.copy(BigInt64Array.of(1n, -2n));
  assert.ok(a.buffer instanceof SharedArrayBuffer);
  assert.equal(a.buffer, b.buffer);
  assert.equal(b.buffer, c.buffer);
  assert.equal(b.byteOffset % 64, 0);
  assert.ok(b.byteOffset >= a.byteOffset + a.byteLength);
  assert.ok(c.byteOffset >= b.byteOffset + b.byteLength);
  assert.deepEqual([...c], [1n, -2n]);
  a.fill(255);
  b.fill(-1);
  assert.deepEqual([...c], [1n, -2n]);
});

test('SharedSlabs: a full slab starts another; an array larger than a slab gets a buffer of its own', () => {
  const slabs = new SharedSlabs();
  const first = slabs.bytes(SLAB_BYTES - 100);
  const next = slabs.array(Int32Array, 100);
  assert.notEqual(next.buffer, first.buffer);
  assert.equal(next.byteOffset, 0);
  const huge = slabs.bytes(SLAB_BYTES + 1);
  assert.equal(huge.buffer.byteLength, SLAB_BYTES + 1);
  // The slab in use is still the one `next` came from.
  assert.equal(slabs.bytes(8).buffer, next.buffer);
});

test('loadParquetTable: columns are decoded into slabs, not copied into a buffer each', async () => {
  const data = await writeTestData();
  try {
    for (const threads of ['0', '2']) {
      const { chunks } = await withDecodeThreads(threads, () => loadParquetTable(data.tables.get('lineitem')!));
      let inSlabs = 0;
      for (const chunk of chunks)
        for (const c of chunk.columns) {
          const v = c.values;
          const arrays = v === null || Array.isArray(v) ? [] : 'offsets' in v ? [v.offsets, v.bytes] : [v];
          for (const a of arrays) {
            assert.ok(a.buffer instanceof SharedArrayBuffer, `${threads} decode threads`);
            if (a.buffer.byteLength === SLAB_BYTES) inSlabs++;
            // Else only the shared 0, 1, 2, … offsets of one-byte strings (one buffer per decoding thread).
            else assert.ok(a instanceof Int32Array && a.every((x, i) => x === i), `${threads} decode threads`);
          }
        }
      assert.ok(inSlabs > chunks.length, `${inSlabs} arrays in slabs with ${threads} decode threads`);
    }
  } finally {
    await data.remove();
  }
});

test('a Parquet scan asked for shared memory decodes into slabs; other scans into plain buffers', async () => {
  const data = await writeTestData();
  try {
    for (const threads of ['0', '2']) {
      for (const shared of [true, false]) {
        const table = await withDecodeThreads(threads, () => createParquetTable(data.tables.get('lineitem')!));
        const columns = table.schema.fields.map((f) => f.name);
        const req = { columns, filters: [], limit: null, shared };
        for await (const b of table.scan(req, new AbortController().signal)) {
          for (const c of b.columns) {
            const v = c.values;
            if (!(v instanceof Float64Array || v instanceof Int32Array)) continue;
            assert.equal(v.buffer instanceof SharedArrayBuffer, shared, `${threads} threads, shared ${shared}`);
            if (shared) assert.equal(v.buffer.byteLength, SLAB_BYTES);
          }
        }
      }
    }
  } finally {
    await data.remove();
  }
});

/** Runs `f` with FLOE_DECODE_THREADS set (read when a scan starts the shared decode pool). */
async function withDecodeThreads<T>(threads: string, f: () => Promise<T>): Promise<T> {
  const before = process.env.FLOE_DECODE_THREADS;
  process.env.FLOE_DECODE_THREADS = threads;
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env.FLOE_DECODE_THREADS;
    else process.env.FLOE_DECODE_THREADS = before;
  }
}
