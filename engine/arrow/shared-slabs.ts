// `SharedSlabs`: a loaded table's arrays carved out of a few large SharedArrayBuffers instead of one buffer each.
//
// Why: a table's chunks are hundreds of buffers of up to ~0.5 MiB per column. Each one on its own was allocated by
// glibc in the loader thread's malloc arenas, between the decoder's short-lived buffers, so after a load the
// arenas held the columns and the holes the decoder's garbage left between them: RSS after loading TPC-H SF1 came
// to 1.20-1.31× the column bytes, depending on how the threads' allocations interleaved. A slab of 64 MiB is above
// glibc's largest mmap threshold (32 MiB), so it is always a fresh mapping of its own: the columns' pages are the
// only ones touched in it (the kernel zero-fills a mapping lazily, and calloc does not write to a fresh one), the
// unused end of the last slab costs address space only, and the decoder's garbage is left alone in the arenas,
// which give it back as it is freed. A load's decode threads fill slabs of their own for that load (the arrays
// come back shared, not copied); the loader's slabs take what they did not make (dictionary codes, narrow copies).

import type { ArrayAllocator, ArrayKind } from './from-ffi.js';

/** Bytes in one slab. Above glibc's largest mmap threshold (`DEFAULT_MMAP_THRESHOLD_MAX`, 32 MiB on 64-bit). */
export const SLAB_BYTES = 64 * 1024 * 1024;
/** Every array starts at a multiple of this (a cache line; any typed array's element size divides it). */
const ALIGN = 64;

type SlabArray = Uint8Array | Int32Array | Float64Array | BigInt64Array;

export class SharedSlabs implements ArrayAllocator {
  #slab: SharedArrayBuffer | null = null;
  #used = 0;

  /** `bytes` zeroed bytes in shared memory. */
  bytes(bytes: number): Uint8Array {
    return this.array(Uint8Array, bytes);
  }

  /** A zeroed array of `length` elements in shared memory: in the current slab, or a new one when it is full. */
  array<C extends ArrayKind>(Ctor: C, length: number): InstanceType<C> {
    const bytes = length * Ctor.BYTES_PER_ELEMENT;
    const Make = Ctor as unknown as new (buffer: SharedArrayBuffer, at: number, n: number) => InstanceType<C>;
    // Larger than a slab: a buffer of its own, as large, so mapped on its own too.
    if (bytes > SLAB_BYTES) return new Make(new SharedArrayBuffer(bytes), 0, length);
    if (this.#slab === null || this.#used + bytes > SLAB_BYTES) {
      this.#slab = new SharedArrayBuffer(SLAB_BYTES);
      this.#used = 0;
    }
    const out = new Make(this.#slab, this.#used, length);
    this.#used += Math.ceil(bytes / ALIGN) * ALIGN;
    return out;
  }

  /** `a` itself when it is in shared memory already (decoded into slabs), else a copy of it there. */
  copy<T extends SlabArray>(a: T): T {
    if (a.buffer instanceof SharedArrayBuffer) return a;
    const out = this.array(a.constructor as ArrayKind, a.length) as unknown as T;
    (out as unknown as { set(x: T): void }).set(a);
    return out;
  }
}
