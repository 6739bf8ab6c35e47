// `openFileSource`: a Parquet file as the Blob-like byte source parquet-wasm reads, served with a footer rewritten
// so that parquet-wasm decodes less: INT64 decimals as plain INT64, short dictionary-encoded text as dictionaries.
import { parquetMetadata } from 'hyparquet';
import { withDictionaryFields } from '../../arrow/dictionary-hint.js';
import { ExecError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import { PreconditionFailedError } from '../object-store/object-store.js';
import { isRemoteLocation, objectStoreFor } from '../object-store/object-store-for.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { readFileFooter } from './file-footer.js';
import { withPlainDecimals } from './plain-decimals.js';
import { PrefetchedSpans } from './prefetched-spans.js';
import { varint } from './thrift-compact.js';

/** What parquet-wasm's `ParquetFile.fromFile` uses of a Blob, and what the served footer changed. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
  /** The decimal type of each column served as plain INT64 (`withPlainDecimals`), by name. */
  readonly decimals: ReadonlyMap<string, DataType>;
  /**
   * Fetches, before parquet-wasm decodes row group `rowGroup`, the byte ranges of its `columns`' chunks
   * (`planChunkRanges`: coalesced, several requests at once), so that its reads are served from memory; the
   * returned function drops them. Only remote files do (a local read costs no round trip): elsewhere a no-op.
   */
  prefetch(rowGroup: number, columns: readonly string[]): Promise<() => void>;
}

const TAIL_BYTES = 8; // int32 footer length + "PAR1"
const DICTIONARY_ENCODINGS = new Set(['RLE_DICTIONARY', 'PLAIN_DICTIONARY']);
const NONE: ReadonlyMap<string, DataType> = new Map();

/** Reads `length` bytes from `offset` of one version of the file. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

/**
 * Opens `location` through its object store (`s3`: how to reach it when it is an `s3://` location). Its footer
 * comes from this thread's footer cache (`readFileFooter`: read once per file version) and is served from memory;
 * byte ranges below it are read when parquet-wasm asks (or, for a remote file, prefetched per row group), every
 * one from the version whose footer was read (`ifMatch` its etag: a file replaced meanwhile fails the read rather
 * than mix two versions; the local store shares one open handle between the reads that come close together). The
 * footer served is rewritten twice: INT64 columns annotated DECIMAL lose the annotation (`withPlainDecimals`; the
 * reader puts the decimal type back from `decimals`), and a text column whose pages are all dictionary-encoded,
 * with a small dictionary, is declared Dictionary<Int32, Utf8> in its `ARROW:schema` (`withDictionaryHints`:
 * parquet-wasm then hands out dictionary indices instead of copying each row's string; `columnsFromFFI` expands
 * them). Any other file, a footer it cannot parse included, is served unchanged (parquet-wasm reports its problems).
 */
export async function openFileSource(location: string, s3?: S3StoreConfig): Promise<ByteSource> {
  const store = objectStoreFor(location, s3);
  const { meta, footer, metadata } = await readFileFooter(location, s3);
  const read: ReadRange = (offset, length) =>
    store.read(location, { offset, length }, { ifMatch: meta.etag }).catch((e: unknown) => {
      if (!(e instanceof PreconditionFailedError)) throw e;
      throw new ExecError(
        `Parquet file ${location} changed since floe opened it (rewritten while read: run the query again)`,
      );
    });
  const spans = isRemoteLocation(location) && metadata !== null ? new PrefetchedSpans(read, metadata) : null;
  if (footer === null) return new FileSource(read, meta.size, null, NONE, spans);
  const plain = withPlainDecimals(footer.bytes);
  const base = plain?.footer ?? footer.bytes;
  const served = withDictionaryHints(base) ?? base;
  return new FileSource(read, meta.size, { at: footer.at, bytes: served }, plain?.types ?? NONE, spans);
}

/** The file's bytes below `footer.at`, then `footer.bytes` (the footer and tail, maybe rewritten) instead of the rest. */
class FileSource implements ByteSource {
  readonly size: number;
  readonly decimals: ReadonlyMap<string, DataType>;
  readonly #read: ReadRange;
  readonly #footer: { at: number; bytes: Uint8Array } | null;
  readonly #spans: PrefetchedSpans | null;

  constructor(
    read: ReadRange,
    fileSize: number,
    footer: { at: number; bytes: Uint8Array } | null,
    decimals: ReadonlyMap<string, DataType>,
    spans: PrefetchedSpans | null,
  ) {
    this.#read = read;
    this.#footer = footer;
    this.#spans = spans;
    this.decimals = decimals;
    this.size = footer === null ? fileSize : footer.at + footer.bytes.length;
  }

  slice(start: number, end = this.size) {
    const from = Math.max(0, Math.min(start, this.size));
    const to = Math.max(from, Math.min(end, this.size));
    return { arrayBuffer: () => this.#bytes(from, to) };
  }

  prefetch(rowGroup: number, columns: readonly string[]): Promise<() => void> {
    return this.#spans === null ? Promise.resolve(() => {}) : this.#spans.fetch(rowGroup, columns);
  }

  /** A whole ArrayBuffer of bytes `from`..`to` (parquet-wasm takes the buffer, not a view). */
  async #bytes(from: number, to: number): Promise<ArrayBuffer> {
    const split = this.#footer === null ? to : Math.min(to, Math.max(from, this.#footer.at));
    if (split === to) return wholeBuffer(await this.#fileBytes(from, to));
    // Across the served footer (parquet-wasm's first reads): the file's part, then the footer's bytes.
    const out = new Uint8Array(to - from);
    if (split > from) out.set(await this.#fileBytes(from, split));
    const { at, bytes } = this.#footer!;
    out.set(bytes.subarray(split - at, to - at), split - from);
    return out.buffer;
  }

  #fileBytes(from: number, to: number): Promise<Uint8Array> {
    const prefetched = this.#spans?.take(from, to) ?? null;
    return prefetched === null ? this.#read(from, to - from) : Promise.resolve(prefetched);
  }
}

/** `bytes`' buffer when they fill it (an object store's reads do), else a copy that does. */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
}

/** `footer` (metadata, length, "PAR1") with dictionary hints in its `ARROW:schema`, or null to serve it as is. */
export function withDictionaryHints(footer: Uint8Array): Uint8Array | null {
  let meta: ReturnType<typeof parquetMetadata>;
  try {
    meta = parquetMetadata(footer);
  } catch {
    return null;
  }
  const value = meta.key_value_metadata?.find((kv) => kv.key === 'ARROW:schema')?.value;
  const names = dictionaryColumns(meta);
  if (value === undefined || names.size === 0) return null;
  const place = findValue(footer, value);
  const hinted = place === null ? null : withDictionaryFields(Buffer.from(value, 'base64'), names);
  if (place === null || hinted === null) return null;
  const text = Buffer.from(Buffer.from(hinted).toString('base64'));
  const head = footer.subarray(0, place.lengthAt);
  const rest = footer.subarray(place.end, footer.length - TAIL_BYTES);
  const length = Uint8Array.from(varint(text.length));
  const metadataLength = head.length + length.length + text.length + rest.length;
  const tail = Buffer.alloc(TAIL_BYTES);
  tail.writeUInt32LE(metadataLength, 0);
  tail.write('PAR1', 4, 'latin1');
  return Buffer.concat([head, length, text, rest, tail]);
}

/**
 * Top-level text columns whose pages are dictionary-encoded in every row group and whose statistics say one-byte
 * values (flags such as TPC-H's l_returnflag): the ones `columnsFromFFI` expands faster than parquet-wasm does.
 * (Longer strings expand slower in JavaScript than in wasm, so they are left as they are.)
 */
function dictionaryColumns(meta: ReturnType<typeof parquetMetadata>): Set<string> {
  const byName = new Map<string, boolean>();
  for (const rg of meta.row_groups) {
    for (const c of rg.columns) {
      const md = c.meta_data;
      if (md === undefined || md.type !== 'BYTE_ARRAY' || md.path_in_schema.length !== 1) continue;
      const name = md.path_in_schema[0]!;
      const pages = md.encoding_stats;
      const ok =
        pages?.every((s) => !s.page_type.startsWith('DATA_PAGE') || DICTIONARY_ENCODINGS.has(s.encoding)) === true &&
        isOneByte(md.statistics?.min_value) &&
        isOneByte(md.statistics?.max_value);
      byName.set(name, (byName.get(name) ?? true) && ok);
    }
  }
  return new Set([...byName].filter(([, ok]) => ok).map(([name]) => name));
}

/**
 * Where the thrift compact encoding of the `ARROW:schema` key-value pair keeps its value: the offset of the
 * value's length varint and the end of the value. Null unless exactly one such pair holds `value`.
 */
function findValue(footer: Uint8Array, value: string): { lengthAt: number; end: number } | null {
  const key = Buffer.from('ARROW:schema');
  const buf = Buffer.from(footer.buffer, footer.byteOffset, footer.length);
  const keyAt = buf.indexOf(key);
  if (keyAt < 0 || buf.indexOf(key, keyAt + 1) >= 0) return null;
  const lengthAt = keyAt + key.length + 1;
  // 0x18: field id +1, type binary.
  if (buf[lengthAt - 1] !== 0x18) return null;
  let length = 0;
  let at = lengthAt;
  for (let shift = 0; at < buf.length && shift < 35; shift += 7) {
    const b = buf[at++]!;
    length += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) break;
  }
  const end = at + length;
  if (end > buf.length || buf.toString('latin1', at, end) !== value) return null;
  return { lengthAt, end };
}

function isOneByte(v: unknown): boolean {
  return typeof v === 'string' ? Buffer.byteLength(v) === 1 : v instanceof Uint8Array && v.length === 1;
}
