// `MemoryObjectStore`: an `ObjectStore` in a Map (the conformance suite's second implementation, and a stand-in
// for remote stores in tests).
import {
  type ByteRange,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  PreconditionFailedError,
  type PutCondition,
  type ReadOptions,
} from '../../engine/io/object-store/object-store.js';

export class MemoryObjectStore implements ObjectStore {
  readonly #objects = new Map<string, { bytes: Uint8Array; meta: ObjectMeta }>();
  #version = 0;

  async head(location: string): Promise<ObjectMeta> {
    return this.#get(location).meta;
  }

  async read(location: string, range?: ByteRange, options: ReadOptions = {}): Promise<Uint8Array> {
    const { bytes, meta } = this.#get(location);
    if (options.ifMatch !== undefined && options.ifMatch !== meta.etag)
      throw new PreconditionFailedError(location, `ifMatch ${options.ifMatch}`);
    const { offset, length } = range ?? { offset: 0, length: bytes.length };
    if (offset + length > bytes.length) throw new Error(`${location} ends before byte ${offset + length}`);
    return bytes.slice(offset, offset + length);
  }

  async list(prefix: string): Promise<ObjectMeta[]> {
    const keys = [...this.#objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    return keys.map((k) => this.#objects.get(k)!.meta);
  }

  async put(location: string, bytes: Uint8Array, condition?: PutCondition): Promise<ObjectMeta> {
    const now = this.#objects.get(location)?.meta;
    if (condition !== undefined && 'ifAbsent' in condition && now !== undefined)
      throw new PreconditionFailedError(location, 'ifAbsent');
    if (condition !== undefined && 'ifMatch' in condition && now?.etag !== condition.ifMatch)
      throw new PreconditionFailedError(location, `ifMatch ${condition.ifMatch}`);
    const meta = { location, size: bytes.length, mtimeMs: Date.now(), etag: String(++this.#version) };
    this.#objects.set(location, { bytes: bytes.slice(), meta });
    return meta;
  }

  async delete(location: string): Promise<void> {
    this.#objects.delete(location);
  }

  #get(location: string): { bytes: Uint8Array; meta: ObjectMeta } {
    const o = this.#objects.get(location);
    if (o === undefined) throw new ObjectNotFoundError(location);
    return o;
  }
}
