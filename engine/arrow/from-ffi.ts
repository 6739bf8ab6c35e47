// Arrow C data interface (wasm32 layout) -> floe columns: reads parquet-wasm's exported batches without IPC.
import * as arrow from 'apache-arrow';
import type { DataType } from '../plan/types.js';
import type { Column } from './column.js';
import { columnFromArrow, typeFromArrow } from './from-arrow.js';

/** A column of the exported batch: its Arrow type (from the file schema) and floe's. */
export interface FFIField {
  readonly arrowType: arrow.DataType;
  readonly type: DataType;
}

// struct ArrowArray on wasm32: int64 length, null_count, offset, n_buffers, n_children; then 32-bit pointers.
const LENGTH = 0;
const NULL_COUNT = 8;
const OFFSET = 16;
const N_CHILDREN = 32;
const BUFFERS = 40;
const CHILDREN = 44;

/** The fields of an Arrow IPC schema message by name, for `columnsFromFFI`; null where floe has no type. */
export function ffiFields(schemaIPC: Uint8Array): Map<string, FFIField | null> {
  const out = new Map<string, FFIField | null>();
  for (const f of arrow.tableFromIPC(schemaIPC).schema.fields) {
    const type = typeFromArrow(f.type);
    out.set(f.name, type !== null && isFlat(f.type) ? { arrowType: f.type, type } : null);
  }
  return out;
}

/** Types whose buffers `columnsFromFFI` knows: validity plus values (and offsets for strings). */
function isFlat(t: arrow.DataType): boolean {
  switch (t.typeId) {
    case arrow.Type.Bool:
    case arrow.Type.Int:
    case arrow.Type.Float:
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
    case arrow.Type.Date:
    case arrow.Type.Timestamp:
      return true;
    case arrow.Type.Decimal:
      return (t as arrow.Decimal).bitWidth === 128;
    default:
      return false;
  }
}

/**
 * Reads the struct array at `addr` in `memory` (one record batch, a child per field, in `fields` order).
 * Copies every buffer it uses out of `memory`, so the result stays valid after the batch is released.
 */
export function columnsFromFFI(
  memory: ArrayBuffer,
  addr: number,
  fields: readonly FFIField[],
): { length: number; columns: Column[] } {
  const dv = new DataView(memory);
  const i64 = (at: number) => Number(dv.getBigInt64(at, true));
  const u32 = (at: number) => dv.getUint32(at, true);
  if (i64(addr + N_CHILDREN) !== fields.length) throw new Error('exported batch does not match the projection');
  const length = i64(addr + LENGTH);
  const structOffset = i64(addr + OFFSET);
  const children = u32(addr + CHILDREN);
  const columns = fields.map((f, k) => {
    const child = u32(children + 4 * k);
    const offset = i64(child + OFFSET) + structOffset;
    const buffers = u32(child + BUFFERS);
    const copy = <T>(Ctor: new (b: ArrayBuffer, at: number, n: number) => T, ptr: number, n: number): T =>
      new Ctor(memory.slice(ptr, ptr + n * bytesOf(Ctor)) as ArrayBuffer, 0, n);
    const validPtr = u32(buffers);
    const bitBytes = Math.ceil((offset + length) / 8);
    const nullBitmap = validPtr === 0 ? undefined : copy(Uint8Array, validPtr, bitBytes);
    const data = dataOf(f.arrowType, offset + length, u32(buffers + 4), u32(buffers + 8), copy);
    const nullCount = i64(child + NULL_COUNT);
    const props = { type: f.arrowType, offset, length, nullCount, nullBitmap, ...data };
    const made = arrow.makeData(props as never);
    return columnFromArrow(made, f.type);
  });
  return { length, columns };
}

type Copy = <T>(Ctor: new (b: ArrayBuffer, at: number, n: number) => T, ptr: number, n: number) => T;

function bytesOf(Ctor: unknown): number {
  return (Ctor as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
}

/** The value (and offset) buffers of `n` slots, copied. */
function dataOf(t: arrow.DataType, n: number, ptr1: number, ptr2: number, copy: Copy): object {
  if (t.typeId === arrow.Type.Bool) return { data: copy(Uint8Array, ptr1, Math.ceil(n / 8)) };
  if (t.typeId === arrow.Type.Utf8 || t.typeId === arrow.Type.LargeUtf8) {
    const Offsets: new (b: ArrayBuffer, at: number, n: number) => Int32Array | BigInt64Array =
      t.typeId === arrow.Type.Utf8 ? Int32Array : BigInt64Array;
    const valueOffsets = copy(Offsets, ptr1, n + 1);
    const end = Number(valueOffsets[n]);
    return { valueOffsets, data: copy(Uint8Array, ptr2, end) };
  }
  const Ctor = (t as { ArrayType: new (b: ArrayBuffer, at: number, n: number) => ArrayBufferView }).ArrayType;
  const stride = t.typeId === arrow.Type.Decimal ? 4 : 1;
  return { data: copy(Ctor, ptr1, n * stride) };
}
