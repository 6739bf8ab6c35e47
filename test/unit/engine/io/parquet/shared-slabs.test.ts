// SharedSlabs: where a loaded table's arrays are carved from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedSlabs, SLAB_BYTES } from '../../../../../engine/io/parquet/shared-slabs.js';

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
