// `readChunks`: an object's bytes in ranges of `CHUNK_BYTES`, all from the version its `head` saw.
import { objectStoreFor } from '../object-store/object-store-for.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';

/** Bytes per range read: large enough that a read's latency (S3) is small beside its transfer. */
export const CHUNK_BYTES = 8 << 20; // 8 MiB

/**
 * Yields the bytes of `location` in order, one range read at a time (the next read starts when the consumer asks),
 * every read `ifMatch` the etag seen first, so a file replaced meanwhile fails the read instead of mixing versions.
 */
export async function* readChunks(
  location: string,
  chunkBytes = CHUNK_BYTES,
  s3?: S3StoreConfig,
): AsyncGenerator<Uint8Array> {
  const store = objectStoreFor(location, s3);
  const { size, etag } = await store.head(location);
  for (let offset = 0; offset < size; offset += chunkBytes) {
    const length = Math.min(chunkBytes, size - offset);
    yield await store.read(location, { offset, length }, { ifMatch: etag });
  }
}
