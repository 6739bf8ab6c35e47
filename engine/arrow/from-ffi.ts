// Arrow C data interface (wasm32 layout) -> floe columns: reads parquet-wasm's exported batches without IPC.
import * as arrow from 'apache-arrow';
import { NotSupportedError } from '../errors.js';
import { type DataType, typeName } from '../plan/types.js';
import { type Column, type ColumnValues, MAX_EXACT, makeColumn, type Utf8Bytes } from './column.js';
import { columnFromArrow, typeFromArrow, unpackBits } from './from-arrow.js';
import { copyBytes } from './kernels/utf8-take.js';

/**
 * A column of the exported batch: its Arrow type (from the file schema), floe's, and how its buffers are read
 * (`direct`: straight into floe's layout; `arrow`: through an apache-arrow Data, for the rarer types).
 */
export interface FFIField {
  readonly arrowType: arrow.DataType;
  readonly type: DataType;
  readonly read: 'bool' | 'int32' | 'int64' | 'float64' | 'decimal' | 'utf8' | 'dictionary' | 'arrow';
}

// struct ArrowArray on wasm32: int64 length, null_count, offset, n_buffers, n_children; then 32-bit pointers.
const LENGTH = 0;
const NULL_COUNT = 8;
const OFFSET = 16;
const N_BUFFERS = 24;
const N_CHILDREN = 32;
const BUFFERS = 40;
const CHILDREN = 44;
const DICTIONARY = 48;
const TWO_32 = 0x1_0000_0000;

/** The typed arrays a decoded column is made of. */
export type ArrayKind = typeof Uint8Array | typeof Int32Array | typeof Float64Array | typeof BigInt64Array;

/**
 * Where the arrays a column keeps are made: a fresh array each (`HEAP`), or carved out of a loaded table's shared
 * slabs (`SharedSlabs`, which then need no second copy). Zeroed, like `new Ctor(length)`.
 */
export interface ArrayAllocator {
  array<C extends ArrayKind>(Ctor: C, length: number): InstanceType<C>;
}

export const HEAP: ArrayAllocator = {
  array: <C extends ArrayKind>(Ctor: C, length: number) => new Ctor(length) as InstanceType<C>,
};

/** `length` elements of `Ctor` copied out of wasm memory at byte `ptr` (any alignment) into `alloc`'s array. */
function copyOut<C extends ArrayKind>(
  memory: ArrayBuffer,
  ptr: number,
  Ctor: C,
  length: number,
  alloc: ArrayAllocator,
): InstanceType<C> {
  const out = alloc.array(Ctor, length);
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(new Uint8Array(memory, ptr, out.byteLength));
  return out;
}

/** The fields of an Arrow IPC schema message by name, for `columnsFromFFI`; null where floe has no type. */
export function ffiFields(schemaIPC: Uint8Array): Map<string, FFIField | null> {
  const out = new Map<string, FFIField | null>();
  for (const f of arrow.tableFromIPC(schemaIPC).schema.fields) {
    const type = typeFromArrow(f.type);
    const read = readOf(f.type);
    out.set(f.name, type !== null && read !== null ? { arrowType: f.type, type, read } : null);
  }
  return out;
}

/** How `columnsFromFFI` reads a type: null when it cannot (nested and dictionary types). */
function readOf(t: arrow.DataType): FFIField['read'] | null {
  switch (t.typeId) {
    case arrow.Type.Bool:
      return 'bool';
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      if (it.isSigned && it.bitWidth === 32) return 'int32';
      return it.isSigned && it.bitWidth === 64 ? 'int64' : 'arrow';
    }
    case arrow.Type.Float:
      return (t as arrow.Float).precision === arrow.Precision.DOUBLE ? 'float64' : 'arrow';
    case arrow.Type.Utf8:
      return 'utf8';
    case arrow.Type.Date:
      return (t as arrow.Date_).unit === arrow.DateUnit.DAY ? 'int32' : 'arrow';
    case arrow.Type.LargeUtf8:
    case arrow.Type.Timestamp:
      return 'arrow';
    case arrow.Type.Decimal:
      return (t as arrow.Decimal).bitWidth === 128 ? 'decimal' : null;
    case arrow.Type.Dictionary: {
      const d = t as arrow.Dictionary;
      return d.dictionary.typeId === arrow.Type.Utf8 && d.indices.isSigned && d.indices.bitWidth === 32
        ? 'dictionary'
        : null;
    }
    default:
      return null;
  }
}

/** Where one exported child array lives in wasm memory. */
interface Child {
  readonly offset: number;
  readonly length: number;
  readonly nullCount: number;
  /** Addresses of the validity, first and second buffers (0 when absent). */
  readonly ptrs: readonly [number, number, number];
  /** Address of the dictionary's array (0 unless dictionary-encoded). */
  readonly dictionary: number;
}

/**
 * Reads the struct array at `addr` in `memory` (one record batch, a child per field, in `fields` order).
 * Copies every buffer it uses out of `memory`, so the result stays valid after the batch is released; does
 * not keep views of `memory`.
 */
export function columnsFromFFI(
  memory: ArrayBuffer,
  addr: number,
  fields: readonly FFIField[],
  alloc: ArrayAllocator = HEAP,
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
    const buffers = u32(child + BUFFERS);
    const nBuffers = i64(child + N_BUFFERS);
    const ptr = (j: number) => (j < nBuffers ? u32(buffers + 4 * j) : 0);
    const c: Child = {
      offset: i64(child + OFFSET) + structOffset,
      length,
      nullCount: i64(child + NULL_COUNT),
      ptrs: [ptr(0), ptr(1), ptr(2)],
      dictionary: u32(child + DICTIONARY),
    };
    if (f.read === 'arrow') return viaArrow(memory, c, f);
    const valid = c.nullCount === 0 || c.ptrs[0] === 0 ? null : bitsAt(memory, c.ptrs[0], c.offset, length);
    if (f.read === 'dictionary') return makeColumn(f.type, expandDictionary(memory, c, valid, alloc), valid, length);
    return makeColumn(f.type, valuesOf(memory, c, f, alloc), valid, length);
  });
  return { length, columns };
}

function valuesOf(memory: ArrayBuffer, c: Child, f: FFIField, alloc: ArrayAllocator): ColumnValues {
  const { offset, length: n, ptrs } = c;
  switch (f.read) {
    case 'bool':
      return bitsAt(memory, ptrs[1], offset, n);
    case 'int32':
      return copyOut(memory, ptrs[1] + 4 * offset, Int32Array, n, alloc);
    case 'float64':
      return copyOut(memory, ptrs[1] + 8 * offset, Float64Array, n, alloc);
    case 'int64':
      return wideInts(memory, ptrs[1] + 8 * offset, n, 2, f.type, alloc);
    case 'decimal':
      return wideInts(memory, ptrs[1] + 16 * offset, n, 4, f.type, alloc);
    default:
      return utf8Of(memory, ptrs[1] + 4 * offset, ptrs[2], n, alloc);
  }
}

/** The bitmap at `ptr` in wasm memory as one byte per slot, slots [offset, offset + n). */
function bitsAt(memory: ArrayBuffer, ptr: number, offset: number, n: number): Uint8Array {
  return unpackBits(new Uint8Array(memory, ptr, (offset + n + 7) >> 3), offset, n);
}

/**
 * Little-endian signed integers of `words` 32-bit words each (2: int64, 4: decimal128) as doubles while every
 * value is within ±2^53 (exact), else as a BigInt64Array; a decimal beyond 64 bits is not supported.
 */
function wideInts(
  memory: ArrayBuffer,
  ptr: number,
  n: number,
  words: 2 | 4,
  type: DataType,
  alloc: ArrayAllocator,
): Float64Array | BigInt64Array {
  const w =
    ptr % 4 === 0 ? new Int32Array(memory, ptr, n * words) : new Int32Array(memory.slice(ptr, ptr + 4 * n * words));
  const out = alloc.array(Float64Array, n);
  const exact = words === 2 ? int64Doubles(w, n, out) : decimalDoubles(w, n, out, type);
  if (exact) return out;
  // Rare (a value past ±2^53): the doubles made above stay unused in a slab.
  const big = alloc.array(BigInt64Array, n);
  for (let i = 0, k = 0; i < n; i++, k += words)
    big[i] = (BigInt(w[k + 1] as number) << 32n) | BigInt((w[k] as number) >>> 0);
  return big;
}

/**
 * Little-endian int64s (word pairs) into `out` as doubles; false when one is beyond ±2^53 (`out` then inexact).
 * The decimal loop below is a separate function so that each stays monomorphic and branch-light.
 */
function int64Doubles(w: Int32Array, n: number, out: Float64Array): boolean {
  let exact = true;
  for (let i = 0, k = 0; i < n; i++, k += 2) {
    // Exact below 2^53; past it the rounded value still lands outside ±MAX_EXACT.
    const v = (w[k + 1] as number) * TWO_32 + ((w[k] as number) >>> 0);
    out[i] = v;
    if (v > MAX_EXACT || v < -MAX_EXACT) exact = false;
  }
  return exact;
}

/** Decimal128s (four words) into `out` like `int64Doubles`; one whose upper 64 bits are not a sign fails. */
function decimalDoubles(w: Int32Array, n: number, out: Float64Array, type: DataType): boolean {
  let exact = true;
  let wide = 0;
  for (let i = 0, k = 0; i < n; i++, k += 4) {
    const hi = w[k + 1] as number;
    const sign = hi >> 31;
    wide |= ((w[k + 2] as number) ^ sign) | ((w[k + 3] as number) ^ sign);
    const v = hi * TWO_32 + ((w[k] as number) >>> 0);
    out[i] = v;
    if (v > MAX_EXACT || v < -MAX_EXACT) exact = false;
  }
  if (wide !== 0) throw new NotSupportedError(`${typeName(type)} value beyond 18 digits is not supported yet`);
  return exact;
}

/** UTF-8 bytes of `n` strings: the offsets rebased to start at 0 and only the bytes they span. */
function utf8Of(
  memory: ArrayBuffer,
  offsetsPtr: number,
  bytesPtr: number,
  n: number,
  alloc: ArrayAllocator,
): ColumnValues {
  const offsets = copyOut(memory, offsetsPtr, Int32Array, n + 1, alloc);
  const start = offsets[0] as number;
  const end = offsets[n] as number;
  if (start !== 0) for (let i = 0; i <= n; i++) (offsets[i] as number) -= start;
  return { offsets, bytes: copyOut(memory, bytesPtr + start, Uint8Array, end - start, alloc) };
}

/**
 * The strings of a dictionary-encoded column, as UTF-8 bytes (each row's string copied; null rows empty).
 * An index outside the dictionary (a corrupt file) fails.
 */
function expandDictionary(memory: ArrayBuffer, c: Child, valid: Uint8Array | null, alloc: ArrayAllocator): Utf8Bytes {
  const dv = new DataView(memory);
  const d = c.dictionary;
  const dOffset = Number(dv.getBigInt64(d + OFFSET, true));
  const dLength = Number(dv.getBigInt64(d + LENGTH, true));
  const dBuffers = dv.getUint32(d + BUFFERS, true);
  const at = (ptr: number, n: number) =>
    ptr % 4 === 0 ? new Int32Array(memory, ptr, n) : new Int32Array(memory.slice(ptr, ptr + 4 * n));
  const starts = at(dv.getUint32(dBuffers + 4, true) + 4 * dOffset, dLength + 1);
  const chars = new Uint8Array(memory, dv.getUint32(dBuffers + 8, true));
  const keys = at(c.ptrs[1] + 4 * c.offset, c.length);
  if (valid === null && isSingleBytes(starts, dLength))
    return singleBytes(keys, chars, starts[0] as number, dLength, alloc);
  const n = c.length;
  const offsets = alloc.array(Int32Array, n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    if (valid === null || valid[i] === 1) {
      if (k < 0 || k >= dLength) throw new RangeError(`dictionary index ${k} is outside the dictionary (${dLength})`);
      total += (starts[k + 1] as number) - (starts[k] as number);
    }
    offsets[i + 1] = total;
  }
  const bytes = alloc.array(Uint8Array, total);
  for (let i = 0; i < n; i++) {
    const at = offsets[i] as number;
    const length = (offsets[i + 1] as number) - at;
    // A NULL row is empty (its key may be garbage).
    if (length === 0) continue;
    const from = starts[keys[i] as number] as number;
    copyBytes(bytes, at, chars, from, from + length);
  }
  return { offsets, bytes };
}

function isSingleBytes(starts: Int32Array, n: number): boolean {
  for (let k = 0; k < n; k++) if ((starts[k + 1] as number) - (starts[k] as number) !== 1) return false;
  return true;
}

/**
 * Every dictionary entry is one byte (flags, status letters) and no row is null: row i is byte i, and the offsets
 * are 0, 1, 2, ... (`identityOffsets`, shared).
 */
function singleBytes(
  keys: Int32Array,
  chars: Uint8Array,
  first: number,
  dLength: number,
  alloc: ArrayAllocator,
): Utf8Bytes {
  const n = keys.length;
  const bytes = alloc.array(Uint8Array, n);
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    if (k >>> 0 >= dLength) throw new RangeError(`dictionary index ${k} is outside the dictionary (${dLength})`);
    bytes[i] = chars[first + k] as number;
  }
  return { offsets: identityOffsets(n), bytes };
}

let identity = new Int32Array(new SharedArrayBuffer(4));

/**
 * 0, 1, ..., n: the offsets of n one-byte strings, as a view of one array per thread. Columns are never written
 * once made, so every such column shares it; it lives in a SharedArrayBuffer, so posting a column to another
 * thread shares it instead of moving (and detaching) it.
 */
function identityOffsets(n: number): Int32Array {
  if (identity.length < n + 1) {
    const size = Math.max(n + 1, 2 * identity.length);
    identity = new Int32Array(new SharedArrayBuffer(4 * size));
    for (let i = 0; i < size; i++) identity[i] = i;
  }
  return identity.subarray(0, n + 1);
}

/** The rarer flat types (narrow or unsigned ints, float32, 64-bit dates, timestamps, large strings). */
function viaArrow(memory: ArrayBuffer, c: Child, f: FFIField): Column {
  const { offset, length, nullCount, ptrs } = c;
  const copy = <T>(Ctor: new (b: ArrayBuffer, at: number, n: number) => T, ptr: number, n: number): T =>
    new Ctor(memory.slice(ptr, ptr + n * bytesOf(Ctor)) as ArrayBuffer, 0, n);
  const nullBitmap = ptrs[0] === 0 ? undefined : copy(Uint8Array, ptrs[0], Math.ceil((offset + length) / 8));
  const n = offset + length;
  const t = f.arrowType;
  let data: object;
  if (t.typeId === arrow.Type.LargeUtf8) {
    const valueOffsets = copy(BigInt64Array, ptrs[1], n + 1);
    data = { valueOffsets, data: copy(Uint8Array, ptrs[2], Number(valueOffsets[n])) };
  } else {
    const Ctor = (t as { ArrayType: new (b: ArrayBuffer, at: number, n: number) => ArrayBufferView }).ArrayType;
    data = { data: copy(Ctor, ptrs[1], n) };
  }
  const made = arrow.makeData({ type: t, offset, length, nullCount, nullBitmap, ...data } as never);
  return columnFromArrow(made, f.type);
}

function bytesOf(Ctor: unknown): number {
  return (Ctor as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
}
