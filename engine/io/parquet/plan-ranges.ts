// `planChunkRanges`: the byte ranges one row group's needed column chunks occupy, coalesced, read before decoding.
import type { FileMetaData } from 'hyparquet';
import type { ByteRange } from '../object-store/object-store.js';

/** Chunks closer than this are fetched in one request (reading the gap costs less than another round trip). */
export const RANGE_COALESCE_BYTES = 1 << 20; // 1 MiB
/** A coalesced range is cut into parts of at most this size, fetched concurrently. */
export const RANGE_MAX_BYTES = 8 << 20; // 8 MiB

/**
 * The ranges of the column chunks of `columns` (top-level names; every leaf below a nested one) in row group
 * `rowGroup`, from the footer's offsets (dictionary page first when there is one): sorted, those less than
 * RANGE_COALESCE_BYTES apart merged, and merged ranges cut at RANGE_MAX_BYTES. What parquet-wasm then asks of
 * the row group lies inside them.
 */
export function planChunkRanges(metadata: FileMetaData, rowGroup: number, columns: readonly string[]): ByteRange[] {
  const wanted = new Set(columns);
  const chunks: ByteRange[] = [];
  for (const c of metadata.row_groups[rowGroup]?.columns ?? []) {
    const md = c.meta_data;
    if (md === undefined || !wanted.has(md.path_in_schema[0]!)) continue;
    const dictionary = md.dictionary_page_offset;
    const data = Number(md.data_page_offset);
    const offset = dictionary !== undefined && dictionary > 0n && Number(dictionary) < data ? Number(dictionary) : data;
    chunks.push({ offset, length: Number(md.total_compressed_size) });
  }
  return splitLarge(coalesce(chunks));
}

/** Sorted by offset; ranges less than RANGE_COALESCE_BYTES apart (or overlapping) become one. */
export function coalesce(ranges: readonly ByteRange[]): ByteRange[] {
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  const out: { offset: number; length: number }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r.offset - (last.offset + last.length) < RANGE_COALESCE_BYTES) {
      last.length = Math.max(last.length, r.offset + r.length - last.offset);
    } else out.push({ offset: r.offset, length: r.length });
  }
  return out;
}

function splitLarge(ranges: readonly ByteRange[]): ByteRange[] {
  const out: ByteRange[] = [];
  for (const r of ranges) {
    for (let at = 0; at < r.length; at += RANGE_MAX_BYTES) {
      out.push({ offset: r.offset + at, length: Math.min(RANGE_MAX_BYTES, r.length - at) });
    }
  }
  return out;
}
