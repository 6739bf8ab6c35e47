// `readFileFooter`: a Parquet file's footer bytes and parsed metadata, read once per file version on each thread.
import { type FileMetaData, parquetMetadata } from 'hyparquet';
import type { ObjectMeta } from '../object-store/object-store.js';
import { objectStoreFor } from '../object-store/object-store-for.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';

const TAIL_BYTES = 8; // int32 footer length + "PAR1"
/** Footers kept per thread (a TPC-H footer is a few KiB to ~100 KiB); the least recently used goes first. */
const MAX_CACHED = 64;

/** One version of a file: its head, and its footer (metadata, length, "PAR1") when the framing holds. */
export interface FileFooterBytes {
  readonly meta: ObjectMeta;
  /** The footer's bytes from offset `at` to the end of the file; null when the file is too short to hold one. */
  readonly footer: { readonly at: number; readonly bytes: Uint8Array } | null;
  /** The parsed metadata, or why it could not be parsed. */
  readonly metadata: FileMetaData | null;
  readonly error: string | null;
}

const cache = new Map<string, Promise<FileFooterBytes>>();

/**
 * Heads `location` and returns its footer, read (tail, then metadata) only the first time this thread sees this
 * version of the file (keyed by location and etag): every later open of it, a decode thread's or another
 * query's, costs the head alone. The head's errors (missing object, refused credentials) are thrown as they are.
 */
export async function readFileFooter(location: string, s3?: S3StoreConfig): Promise<FileFooterBytes> {
  const store = objectStoreFor(location, s3);
  const meta = await store.head(location);
  const key = `${meta.etag}\0${meta.size}\0${location}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = readFooterOf(meta, (offset, length) => store.read(location, { offset, length }, { ifMatch: meta.etag }));
    // A failed read is not kept: the next open tries again.
    entry.catch(() => cache.delete(key));
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  } else cache.delete(key);
  cache.set(key, entry);
  return entry;
}

async function readFooterOf(
  meta: ObjectMeta,
  read: (offset: number, length: number) => Promise<Uint8Array>,
): Promise<FileFooterBytes> {
  const { size } = meta;
  const none = (error: string): FileFooterBytes => ({ meta, footer: null, metadata: null, error });
  if (size < 2 * TAIL_BYTES) return none(`file is ${size} bytes long, too short for Parquet`);
  const tail = await read(size - TAIL_BYTES, TAIL_BYTES);
  const footerLength = new DataView(tail.buffer, tail.byteOffset, tail.byteLength).getUint32(0, true);
  if (footerLength > size - 2 * TAIL_BYTES) return none('invalid footer length (not a Parquet file?)');
  const at = size - TAIL_BYTES - footerLength;
  const bytes = await read(at, footerLength + TAIL_BYTES);
  try {
    return { meta, footer: { at, bytes }, metadata: parquetMetadata(bytes), error: null };
  } catch (e) {
    return { meta, footer: { at, bytes }, metadata: null, error: e instanceof Error ? e.message : String(e) };
  }
}
