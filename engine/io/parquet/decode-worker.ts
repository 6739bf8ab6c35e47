// Entry of a decode thread (`DecodePool`): decodes one row group per request and transfers the column buffers back.
import { parentPort } from 'node:worker_threads';
import type { ParquetFile } from 'parquet-wasm';
import { type Column, movableBuffers } from '../../arrow/column.js';
import { SharedSlabs } from '../../arrow/shared-slabs.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { type DecodedGroup, decodeRowGroup, openParquet } from './decode.js';

/** One row group to decode: `columns` in output order, at most `limit` rows when set. */
export interface DecodeRequest {
  readonly id: number;
  readonly path: string;
  /** Keys the open-file cache with `path`: a rewritten file is not read through stale metadata. */
  readonly version: string;
  /** How to reach `path` when it is an `s3://` location (the table's settings; see `S3StoreConfig`). */
  readonly s3?: S3StoreConfig;
  readonly rowGroup: number;
  readonly columns: readonly string[];
  readonly limit: number | null;
  /** Rows of the group skipped first (0 when absent). */
  readonly offset?: number;
  /**
   * Set for a load's row groups (`ScanRequest.shared`): names the load, whose arrays are made in shared slabs of its
   * own (a slab never holds two loads' arrays, so a dropped table frees its slabs) and posted back shared, not moved.
   */
  readonly sharedLoad?: number;
}

export type DecodeReply =
  | { readonly id: number; readonly batches: DecodedGroup }
  | {
      readonly id: number;
      readonly error: string;
      /** The thread ends after this reply (a wasm trap): the pool must not hand it another row group. */
      readonly fatal?: boolean;
    };

// Files stay open between requests (a scan asks for many row groups of one file); the oldest closes first.
const MAX_OPEN_FILES = 32;
const open = new Map<string, Promise<ParquetFile>>();

function fileAt(path: string, version: string, s3: S3StoreConfig | undefined): Promise<ParquetFile> {
  const key = `${version}:${path}`;
  let file = open.get(key);
  if (file === undefined) {
    file = openParquet(path, s3);
    open.set(key, file);
    if (open.size > MAX_OPEN_FILES) open.delete(open.keys().next().value as string);
  }
  return file;
}

/** Every buffer behind the batches' columns, so postMessage moves rather than copies them. */
function buffersOf(batches: DecodedGroup): ArrayBuffer[] {
  return movableBuffers(batches.flatMap((b) => b.columns as Column[]));
}

let current: DecodeRequest | null = null;
/** The slabs of the loads under way, by `DecodeRequest.sharedLoad`, until the pool says a load ended. */
const loadSlabs = new Map<number, SharedSlabs>();

function slabsFor(load: number): SharedSlabs {
  let slabs = loadSlabs.get(load);
  if (slabs === undefined) {
    slabs = new SharedSlabs();
    loadSlabs.set(load, slabs);
  }
  return slabs;
}

/** Posted by `DecodePool.endLoad`: the load's row groups are all decoded; its last slab is the table's alone now. */
export interface EndLoad {
  readonly endLoad: number;
}

function fail(req: DecodeRequest, e: unknown, fatal: boolean): void {
  open.delete(`${req.version}:${req.path}`);
  const error = e instanceof Error ? `${e.name === 'RuntimeError' ? 'decoder trapped: ' : ''}${e.message}` : String(e);
  parentPort?.postMessage({ id: req.id, error, fatal } satisfies DecodeReply);
}

parentPort?.on('message', async (req: DecodeRequest | EndLoad) => {
  if ('endLoad' in req) {
    loadSlabs.delete(req.endLoad);
    return;
  }
  current = req;
  try {
    const file = await fileAt(req.path, req.version, req.s3);
    const alloc = req.sharedLoad === undefined ? undefined : slabsFor(req.sharedLoad);
    const batches = await decodeRowGroup(file, req.rowGroup, req.columns, req.limit, false, alloc, req.offset);
    parentPort?.postMessage({ id: req.id, batches } satisfies DecodeReply, buffersOf(batches));
  } catch (e) {
    // A wasm trap leaves parquet-wasm's instance unusable: end this thread; the pool starts a fresh one.
    const trapped = e instanceof Error && e.name === 'RuntimeError';
    fail(req, e, trapped);
    if (trapped) process.exit(1);
  }
  current = null;
});

// parquet-wasm can trap inside a callback of its own (a corrupt page), outside the awaited promise.
process.on('uncaughtException', (e) => {
  if (current !== null) fail(current, e, true);
  process.exit(1);
});
