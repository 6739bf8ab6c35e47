// `ObjectStore`: the one interface every Parquet read and write goes through (local files and S3).
//
// Locations: a URL whose scheme names the store (`file:///abs/path`, `s3://bucket/key`), or a path without a
// scheme, which is a local file path (`/abs/path`; a relative one is taken from the working directory, as
// `node:fs` takes it). A store hands locations back in the form it was given them (`list`), so error messages
// name what the user wrote.

/** What `head` and `list` tell of an object. */
export interface ObjectMeta {
  readonly location: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes whenever the object's bytes may have (a put, a rewrite): keys caches and guards `ifMatch` puts. */
  readonly etag: string;
}

/** A byte range: `length` bytes from `offset`; it must lie within the object. */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

export interface ReadOptions {
  /**
   * Read only while the object's etag is this one (the one its `head` gave), else `PreconditionFailedError`: the
   * byte ranges of one file read across many calls come from one version of it, never from two.
   */
  readonly ifMatch?: string;
}

/**
 * A conditional put: `ifAbsent` creates the object only if none exists (Iceberg's commit of a new metadata file);
 * `ifMatch` replaces it only while its etag is still this one. A failed condition throws `PreconditionFailedError`.
 */
export type PutCondition = { readonly ifAbsent: true } | { readonly ifMatch: string };

export interface ObjectStore {
  /** The object's size, modification time and etag; `ObjectNotFoundError` when there is none. */
  head(location: string): Promise<ObjectMeta>;
  /**
   * The object's bytes, or `range` of them, in a buffer of their own (byteOffset 0, exactly that long: it can be
   * handed on whole). `ObjectNotFoundError` when there is none; a range past its end fails rather than come short.
   */
  read(location: string, range?: ByteRange, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * Every object whose location starts with `prefix` (`dir/` lists a folder's objects, at any depth), sorted by
   * location. Folders themselves are not objects; names starting with `.` are listed like any other.
   */
  list(prefix: string): Promise<ObjectMeta[]>;
  /** Writes the object whole: a reader sees the old bytes or the new ones, never a part. */
  put(location: string, bytes: Uint8Array, condition?: PutCondition): Promise<ObjectMeta>;
  /** Removes the object; removing one that does not exist is not an error (S3's semantics). */
  delete(location: string): Promise<void>;
}

/** No object at the location. */
export class ObjectNotFoundError extends Error {
  constructor(readonly location: string) {
    super(`no such object: ${location}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** A conditional put's condition did not hold (the object exists, or its etag changed). */
export class PreconditionFailedError extends Error {
  constructor(
    readonly location: string,
    condition: string,
  ) {
    super(`${condition} failed for ${location}`);
    this.name = 'PreconditionFailedError';
  }
}

/**
 * The store could not be used at all: `auth` (it refused the credentials) or `connection` (it cannot be reached).
 * The message names the location and the store's reason, never the credentials.
 */
export class ObjectStoreAccessError extends Error {
  constructor(
    readonly failure: 'auth' | 'connection',
    message: string,
  ) {
    super(message);
    this.name = 'ObjectStoreAccessError';
  }
}
