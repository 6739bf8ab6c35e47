// `LocalObjectStore`: the `ObjectStore` over the local file system (locations: paths or `file://` URLs).
import type { BigIntStats } from 'node:fs';
import { link, mkdir, open, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type ByteRange,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  PreconditionFailedError,
  type PutCondition,
  type ReadOptions,
} from './object-store.js';

/** A file handle left open this long after its last read is closed (a scan reads a file's chunks back to back). */
const IDLE_CLOSE_MS = 200;

type Handle = Awaited<ReturnType<typeof open>>;

interface SharedHandle {
  readonly handle: Promise<Handle>;
  users: number;
  idle: ReturnType<typeof setTimeout> | null;
}

/**
 * Reads with `ifMatch` share one handle per file version while they come close together (opening and closing one
 * per column chunk was ~2.6% of a decode thread); it closes once no read has come for IDLE_CLOSE_MS, so nothing
 * stays open between scans. A put is atomic (a temporary file renamed, or linked for `ifAbsent`); an `ifMatch` put
 * checks and renames under a lock held in this thread only, so two processes racing on one file are not ordered.
 */
export class LocalObjectStore implements ObjectStore {
  /** Shared handles by path and etag: a rewritten file (new etag) never reads through an old handle. */
  readonly #open = new Map<string, SharedHandle>();
  readonly #locks = new Map<string, Promise<unknown>>();

  async head(location: string): Promise<ObjectMeta> {
    const info = await stat(pathOf(location), { bigint: true }).catch((e: NodeJS.ErrnoException) => {
      throw isMissing(e) ? new ObjectNotFoundError(location) : e;
    });
    if (!info.isFile()) throw new ObjectNotFoundError(location);
    return metaOf(location, info);
  }

  async read(location: string, range?: ByteRange, options: ReadOptions = {}): Promise<Uint8Array> {
    const { offset, length } = range ?? { offset: 0, length: (await this.head(location)).size };
    // Every byte is written below: no need to zero it first. Never pooled: the whole ArrayBuffer can be handed on.
    const out = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
    const key = `${pathOf(location)}\0${options.ifMatch ?? ''}`;
    const shared = this.#acquire(key, location, options.ifMatch);
    let failed = true;
    try {
      await readInto(location, await shared.handle, out, offset);
      failed = false;
    } finally {
      this.#release(key, shared, failed || options.ifMatch === undefined);
    }
    return out;
  }

  async list(prefix: string): Promise<ObjectMeta[]> {
    const base = pathOf(prefix);
    const dir = base.endsWith('/') ? base : dirname(base);
    const asUrl = prefix.startsWith('file:');
    const out: ObjectMeta[] = [];
    for (const [path, info] of await walk(dir, new Set())) {
      if (path.startsWith(base)) out.push(metaOf(asUrl ? pathToFileURL(path).href : path, info));
    }
    return out.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
  }

  async put(location: string, bytes: Uint8Array, condition?: PutCondition): Promise<ObjectMeta> {
    const path = pathOf(location);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, bytes);
    try {
      if (condition === undefined) await rename(tmp, path);
      else if ('ifAbsent' in condition) await linkIfAbsent(tmp, path, location);
      else await this.#locked(path, () => this.#replaceIfMatch(tmp, location, condition.ifMatch));
    } finally {
      await unlink(tmp).catch(() => {});
    }
    return this.head(location);
  }

  async delete(location: string): Promise<void> {
    await unlink(pathOf(location)).catch((e: NodeJS.ErrnoException) => {
      if (!isMissing(e)) throw e;
    });
  }

  async #replaceIfMatch(tmp: string, location: string, etag: string): Promise<void> {
    const now = await this.head(location).catch(() => null);
    if (now?.etag !== etag) throw new PreconditionFailedError(location, `ifMatch ${etag}`);
    await rename(tmp, pathOf(location));
  }

  /** Runs `fn` after every earlier locked call on `path` in this thread has settled. */
  async #locked<T>(path: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#locks.get(path) ?? Promise.resolve();
    const run = before.catch(() => {}).then(fn);
    this.#locks.set(path, run);
    try {
      return await run;
    } finally {
      if (this.#locks.get(path) === run) this.#locks.delete(path);
    }
  }

  #acquire(key: string, location: string, etag: string | undefined): SharedHandle {
    let shared = this.#open.get(key);
    if (shared === undefined) {
      shared = { handle: openChecked(location, etag), users: 0, idle: null };
      // A failed open is reported by the reads that await it; it must not be "unhandled" here.
      shared.handle.catch(() => {});
      if (etag !== undefined) this.#open.set(key, shared);
    }
    if (shared.idle !== null) clearTimeout(shared.idle);
    shared.idle = null;
    shared.users++;
    return shared;
  }

  /** A handle not kept (no etag, or a failed read) closes with its last read; a kept one once idle. */
  #release(key: string, shared: SharedHandle, drop: boolean): void {
    shared.users--;
    if (drop && this.#open.get(key) === shared) this.#open.delete(key);
    if (shared.users > 0) return;
    if (this.#open.get(key) !== shared) {
      closeQuietly(shared);
      return;
    }
    shared.idle = setTimeout(() => {
      if (this.#open.get(key) !== shared || shared.users > 0) return;
      this.#open.delete(key);
      closeQuietly(shared);
    }, IDLE_CLOSE_MS);
    shared.idle.unref();
  }
}

/** The file path of a location: a `file:` URL's path, or the location itself. */
export function pathOf(location: string): string {
  return location.startsWith('file:') ? fileURLToPath(location) : location;
}

function metaOf(location: string, info: BigIntStats): ObjectMeta {
  // A rename gives a new inode and a write a new mtime: either changes the etag.
  const etag = `${info.ino.toString(36)}-${info.size.toString(36)}-${info.mtimeNs.toString(36)}`;
  return { location, size: Number(info.size), mtimeMs: Number(info.mtimeMs), etag };
}

function isMissing(e: NodeJS.ErrnoException): boolean {
  return e.code === 'ENOENT' || e.code === 'ENOTDIR';
}

/** Opens the file; with `etag`, fails unless the opened file is that version (checked once per handle). */
async function openChecked(location: string, etag: string | undefined): Promise<Handle> {
  const fh = await open(pathOf(location), 'r').catch((e: NodeJS.ErrnoException) => {
    throw isMissing(e) ? new ObjectNotFoundError(location) : e;
  });
  if (etag === undefined) return fh;
  const now = metaOf(location, await fh.stat({ bigint: true })).etag;
  if (now === etag) return fh;
  await fh.close().catch(() => {});
  throw new PreconditionFailedError(location, `ifMatch ${etag}`);
}

function closeQuietly(shared: SharedHandle): void {
  shared.handle.then(
    (fh) => fh.close().catch(() => {}),
    () => {},
  );
}

/** Fills `out` from `position`; a file that ends early (or shrank) fails rather than yield short data. */
async function readInto(location: string, fh: Handle, out: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < out.length) {
    const { bytesRead } = await fh.read(out, done, out.length - done, position + done);
    if (bytesRead === 0) throw new Error(`${location} ended at byte ${position + done}, before the bytes asked for`);
    done += bytesRead;
  }
}

/** `tmp` becomes `path` unless a file is there already (a hard link fails on an existing name, atomically). */
async function linkIfAbsent(tmp: string, path: string, location: string): Promise<void> {
  await link(tmp, path).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'EEXIST' ? new PreconditionFailedError(location, 'ifAbsent') : e;
  });
}

/** Every file below `dir` with its stats, following links to folders once (`seen`: folders visited, by device and inode). */
async function walk(dir: string, seen: Set<string>): Promise<[string, BigIntStats][]> {
  const here = await stat(dir, { bigint: true }).catch(() => null);
  const id = here === null ? '' : `${here.dev}:${here.ino}`;
  if (here === null || !here.isDirectory() || seen.has(id)) return [];
  seen.add(id);
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const out: [string, BigIntStats][] = [];
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path, { bigint: true }).catch(() => null);
    if (info?.isFile()) out.push([path, info]);
    else if (info?.isDirectory()) out.push(...(await walk(path, seen)));
  }
  return out;
}
