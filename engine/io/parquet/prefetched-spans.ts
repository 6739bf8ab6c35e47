// `PrefetchedSpans`: the byte ranges of a remote file fetched ahead of a row group's decode, served from memory.
import type { FileMetaData } from 'hyparquet';
import { planChunkRanges } from './plan-ranges.js';

/** Requests one row group's prefetch keeps in flight at once. */
export const MAX_REQUESTS_IN_FLIGHT = 8;

interface Span {
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/**
 * Holds the spans fetched for the row groups being decoded (each set until its release). `take(from, to)`
 * copies a range out of them when they cover it whole (adjacent spans included), else returns null and the
 * caller reads it from the store: a read the plan missed costs a request, never a wrong byte.
 */
export class PrefetchedSpans {
  readonly #read: (offset: number, length: number) => Promise<Uint8Array>;
  readonly #metadata: FileMetaData;
  #spans: Span[] = [];

  constructor(read: (offset: number, length: number) => Promise<Uint8Array>, metadata: FileMetaData) {
    this.#read = read;
    this.#metadata = metadata;
  }

  /** Fetches `columns`' chunks of `rowGroup` (several requests at once); the function returned drops them. */
  async fetch(rowGroup: number, columns: readonly string[]): Promise<() => void> {
    const ranges = planChunkRanges(this.#metadata, rowGroup, columns);
    const fetched: Span[] = new Array(ranges.length);
    let next = 0;
    const worker = async () => {
      while (next < ranges.length) {
        const i = next++;
        const r = ranges[i]!;
        fetched[i] = { offset: r.offset, bytes: await this.#read(r.offset, r.length) };
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_REQUESTS_IN_FLIGHT, ranges.length) }, worker));
    this.#spans = [...this.#spans, ...fetched].sort((a, b) => a.offset - b.offset);
    return () => {
      const dropped = new Set(fetched);
      this.#spans = this.#spans.filter((s) => !dropped.has(s));
    };
  }

  /** Bytes `from`..`to` in a buffer of their own when the spans cover them, else null. */
  take(from: number, to: number): Uint8Array | null {
    if (this.#spans.length === 0) return null;
    const out = new Uint8Array(to - from);
    let at = from;
    for (const s of this.#spans) {
      const end = s.offset + s.bytes.length;
      if (end <= at || s.offset > at) continue;
      const stop = Math.min(end, to);
      out.set(s.bytes.subarray(at - s.offset, stop - s.offset), at - from);
      at = stop;
      if (at >= to) return out;
    }
    return null;
  }
}
