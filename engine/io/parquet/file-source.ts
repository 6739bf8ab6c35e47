// `openFileSource`: a Parquet file as the Blob-like byte source parquet-wasm reads, served with a footer rewritten
// so that parquet-wasm decodes less: INT64 decimals as plain INT64, short dictionary-encoded text as dictionaries.
import { open } from 'node:fs/promises';
import { parquetMetadata } from 'hyparquet';
import { withDictionaryFields } from '../../arrow/dictionary-hint.js';
import type { DataType } from '../../plan/types.js';
import { withPlainDecimals } from './plain-decimals.js';
import { varint } from './thrift-compact.js';

/** What parquet-wasm's `ParquetFile.fromFile` uses of a Blob, and what the served footer changed. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
  /** The decimal type of each column served as plain INT64 (`withPlainDecimals`), by name. */
  readonly decimals: ReadonlyMap<string, DataType>;
}

const TAIL_BYTES = 8; // int32 footer length + "PAR1"
const DICTIONARY_ENCODINGS = new Set(['RLE_DICTIONARY', 'PLAIN_DICTIONARY']);
const NONE: ReadonlyMap<string, DataType> = new Map();

/**
 * Opens `path` (reading only its footer now). Byte ranges are read when parquet-wasm asks, through a handle
 * that closes once reads stop coming (`FileSource`), so nothing stays open between scans. The footer served is
 * rewritten twice: INT64 columns annotated DECIMAL lose the annotation (`withPlainDecimals`; the reader puts the
 * decimal type back from `decimals`), and a text column whose pages are all dictionary-encoded, with a small
 * dictionary, is declared Dictionary<Int32, Utf8> in its `ARROW:schema` (`withDictionaryHints`: parquet-wasm then
 * hands out dictionary indices instead of copying each row's string; `columnsFromFFI` expands them). Any other
 * file, a footer it cannot parse included, is served unchanged (parquet-wasm reports its problems).
 */
export async function openFileSource(path: string): Promise<ByteSource> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < 2 * TAIL_BYTES) return new FileSource(path, size, null, NONE);
    const tail = await readAt(path, fh, size - TAIL_BYTES, TAIL_BYTES);
    const footerLength = new DataView(tail.buffer).getUint32(0, true);
    if (footerLength > size - 2 * TAIL_BYTES) return new FileSource(path, size, null, NONE);
    const at = size - TAIL_BYTES - footerLength;
    const footer = await readAt(path, fh, at, footerLength + TAIL_BYTES);
    const plain = withPlainDecimals(footer);
    const base = plain?.footer ?? footer;
    const served = withDictionaryHints(base) ?? base;
    return new FileSource(path, size, served === footer ? null : { at, bytes: served }, plain?.types ?? NONE);
  } finally {
    await fh.close();
  }
}

/** A file handle left open this long after its last read is closed (a scan reads a file's chunks back to back). */
const IDLE_CLOSE_MS = 200;

/**
 * The file's bytes below `footer.at`, then `footer.bytes` (a rewritten footer and tail) instead of the rest. Reads
 * share one handle while they come close together (opening and closing one per column chunk was ~2.6% of a decode
 * thread); it closes once no read has come for IDLE_CLOSE_MS, so nothing stays open between scans.
 */
class FileSource implements ByteSource {
  readonly size: number;
  readonly decimals: ReadonlyMap<string, DataType>;
  readonly #path: string;
  readonly #footer: { at: number; bytes: Uint8Array } | null;
  /** The handle reads share while they come close together; null when closed (or dropped after a failure). */
  #open: SharedHandle | null = null;

  constructor(
    path: string,
    fileSize: number,
    footer: { at: number; bytes: Uint8Array } | null,
    decimals: ReadonlyMap<string, DataType>,
  ) {
    this.#path = path;
    this.#footer = footer;
    this.decimals = decimals;
    this.size = footer === null ? fileSize : footer.at + footer.bytes.length;
  }

  slice(start: number, end = this.size) {
    const from = Math.max(0, Math.min(start, this.size));
    const to = Math.max(from, Math.min(end, this.size));
    return { arrayBuffer: () => this.#read(from, to) };
  }

  async #read(from: number, to: number): Promise<ArrayBuffer> {
    const split = this.#footer === null ? to : Math.min(to, Math.max(from, this.#footer.at));
    // Every byte is written below (file or footer): no need to zero it first. Never pooled: the whole
    // ArrayBuffer is handed to parquet-wasm.
    const out = new Uint8Array(Buffer.allocUnsafeSlow(to - from).buffer, 0, to - from);
    if (split > from) {
      const shared = this.#acquire();
      let failed = true;
      try {
        await readInto(this.#path, await shared.handle, out.subarray(0, split - from), from);
        failed = false;
      } finally {
        this.#release(shared, failed);
      }
    }
    if (to > split && this.#footer !== null) {
      const { at, bytes } = this.#footer;
      out.set(bytes.subarray(split - at, to - at), split - from);
    }
    return out.buffer as ArrayBuffer;
  }

  #acquire(): SharedHandle {
    let shared = this.#open;
    if (shared === null) {
      shared = { handle: open(this.#path, 'r'), users: 0, idle: null };
      // A failed open is reported by the reads that await it; it must not be "unhandled" here.
      shared.handle.catch(() => {});
      this.#open = shared;
    }
    if (shared.idle !== null) clearTimeout(shared.idle);
    shared.idle = null;
    shared.users++;
    return shared;
  }

  /** After a failure the handle is dropped (the next read opens afresh); it closes once its last read is done. */
  #release(shared: SharedHandle, failed: boolean): void {
    shared.users--;
    if (failed && this.#open === shared) this.#open = null;
    if (shared.users > 0) return;
    if (this.#open !== shared) {
      closeQuietly(shared);
      return;
    }
    shared.idle = setTimeout(() => {
      if (this.#open !== shared || shared.users > 0) return;
      this.#open = null;
      closeQuietly(shared);
    }, IDLE_CLOSE_MS);
    shared.idle.unref();
  }
}

interface SharedHandle {
  readonly handle: Promise<Handle>;
  users: number;
  idle: ReturnType<typeof setTimeout> | null;
}

function closeQuietly(shared: SharedHandle): void {
  shared.handle.then(
    (fh) => fh.close().catch(() => {}),
    () => {},
  );
}

type Handle = Awaited<ReturnType<typeof open>>;

async function readAt(path: string, fh: Handle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  await readInto(path, fh, out, position);
  return out;
}

/** Fills `out` from `position`; a file that ends early (it shrank) fails rather than yield short data. */
async function readInto(path: string, fh: Handle, out: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < out.length) {
    const { bytesRead } = await fh.read(out, done, out.length - done, position + done);
    if (bytesRead === 0) throw new Error(`${path} ended at byte ${position + done}, before the bytes asked for`);
    done += bytesRead;
  }
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
