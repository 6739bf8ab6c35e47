// `S3ObjectStore`: the `ObjectStore` over S3 and S3-compatible servers (locations `s3://bucket/key`); the only
// home of the AWS SDK, which is loaded on first use (a thread that never reads S3 never loads it).
import type { S3Client } from '@aws-sdk/client-s3';
import {
  type ByteRange,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  ObjectStoreAccessError,
  PreconditionFailedError,
  type PutCondition,
  type ReadOptions,
} from './object-store.js';
import { parseS3Location, type S3StoreConfig } from './s3-config.js';

type Sdk = typeof import('@aws-sdk/client-s3');

/** Bytes and GET requests this thread's S3 stores have read (benches and tests check planned reads with it). */
export const s3ReadStats = { bytes: 0, requests: 0 };

let sdk: Promise<Sdk> | null = null;

function loadSdk(): Promise<Sdk> {
  // The SDK warns once per process that its 2027 releases will need Node 22: not floe's users' concern. Other
  // warnings are left alone.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

/**
 * Every read is a ranged GET (`ifMatch`: sent as If-Match and checked against the answer's ETag, so a server
 * that ignores the header still never mixes versions); conditional puts send If-None-Match: * / If-Match, which
 * S3 enforces (s3rver, the tests' server, ignores them). Errors: a missing object or bucket is
 * `ObjectNotFoundError`, refused credentials and an unreachable endpoint `ObjectStoreAccessError`; no message
 * carries the credentials.
 */
export class S3ObjectStore implements ObjectStore {
  readonly #config: S3StoreConfig;
  #client: Promise<S3Client> | null = null;

  constructor(config: S3StoreConfig) {
    this.#config = config;
  }

  async head(location: string): Promise<ObjectMeta> {
    const { bucket, key } = parseS3Location(location);
    const { HeadObjectCommand } = await loadSdk();
    const client = await this.#connect();
    const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).catch(this.#fail(location));
    return { location, size: out.ContentLength ?? 0, mtimeMs: out.LastModified?.getTime() ?? 0, etag: out.ETag ?? '' };
  }

  async read(location: string, range?: ByteRange, options: ReadOptions = {}): Promise<Uint8Array> {
    if (range?.length === 0) {
      const { size } = await this.head(location);
      if (range.offset > size) throw new RangeError(`${location} ends before byte ${range.offset}`);
      return new Uint8Array(0);
    }
    const { bucket, key } = parseS3Location(location);
    const { GetObjectCommand } = await loadSdk();
    const client = await this.#connect();
    const input = {
      Bucket: bucket,
      Key: key,
      Range: range === undefined ? undefined : `bytes=${range.offset}-${range.offset + range.length - 1}`,
      IfMatch: options.ifMatch,
    };
    const out = await client.send(new GetObjectCommand(input)).catch(this.#fail(location, options.ifMatch));
    if (options.ifMatch !== undefined && out.ETag !== undefined && out.ETag !== options.ifMatch) {
      (out.Body as NodeJS.ReadableStream | undefined)?.resume();
      throw new PreconditionFailedError(location, `ifMatch ${options.ifMatch}`);
    }
    const length = range?.length ?? out.ContentLength ?? 0;
    const bytes = await readBody(out.Body as AsyncIterable<Uint8Array>, length, location);
    s3ReadStats.bytes += bytes.length;
    s3ReadStats.requests++;
    return bytes;
  }

  async list(prefix: string): Promise<ObjectMeta[]> {
    const { bucket, key } = parseS3Location(prefix);
    const { ListObjectsV2Command } = await loadSdk();
    const client = await this.#connect();
    const out: ObjectMeta[] = [];
    let token: string | undefined;
    do {
      const page = await client
        .send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key, ContinuationToken: token }))
        .catch(this.#fail(prefix));
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined || o.Key.endsWith('/')) continue;
        const meta = { size: o.Size ?? 0, mtimeMs: o.LastModified?.getTime() ?? 0, etag: o.ETag ?? '' };
        out.push({ location: `s3://${bucket}/${o.Key}`, ...meta });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
  }

  async put(location: string, bytes: Uint8Array, condition?: PutCondition): Promise<ObjectMeta> {
    const { bucket, key } = parseS3Location(location);
    const { PutObjectCommand } = await loadSdk();
    const client = await this.#connect();
    const ifAbsent = condition !== undefined && 'ifAbsent' in condition;
    const ifMatch = condition !== undefined && 'ifMatch' in condition ? condition.ifMatch : undefined;
    const input = { Bucket: bucket, Key: key, Body: bytes, IfNoneMatch: ifAbsent ? '*' : undefined, IfMatch: ifMatch };
    const what = ifAbsent ? 'ifAbsent' : `ifMatch ${ifMatch}`;
    const out = await client.send(new PutObjectCommand(input)).catch(this.#fail(location, what));
    return { location, size: bytes.length, mtimeMs: Date.now(), etag: out.ETag ?? '' };
  }

  async delete(location: string): Promise<void> {
    const { bucket, key } = parseS3Location(location);
    const { DeleteObjectCommand } = await loadSdk();
    const client = await this.#connect();
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(this.#fail(location));
  }

  /** Makes a bucket (tests and benches set up their server with it; floe itself never does). */
  async createBucket(name: string): Promise<void> {
    const { CreateBucketCommand } = await loadSdk();
    const client = await this.#connect();
    await client.send(new CreateBucketCommand({ Bucket: name })).catch(this.#fail(`s3://${name}/`));
  }

  /** Closes the client's sockets. */
  close(): void {
    void this.#client?.then((c) => c.destroy());
    this.#client = null;
  }

  #connect(): Promise<S3Client> {
    this.#client ??= loadSdk().then((s) => makeClient(s, this.#config));
    return this.#client;
  }

  /** Maps an SDK error to the store's errors; `condition` set: a 412 means that condition failed. */
  #fail(location: string, condition?: string): (e: unknown) => never {
    return (e) => {
      throw storeError(e, location, this.#config, condition);
    };
  }
}

function makeClient(s: Sdk, c: S3StoreConfig): S3Client {
  // `public`: no credential chain is consulted (placeholder credentials) and nothing is signed.
  const credentials =
    c.auth === 'key'
      ? { accessKeyId: c.key ?? '', secretAccessKey: c.secret ?? '' }
      : c.auth === 'public'
        ? { accessKeyId: '', secretAccessKey: '' }
        : undefined;
  return new s.S3Client({
    region: c.region,
    endpoint: c.endpoint,
    // An S3-compatible server at an address has no per-bucket host names.
    forcePathStyle: c.endpoint !== undefined,
    credentials,
    ...(c.auth === 'public' ? { signer: { sign: async (request) => request } } : {}),
    // Without throwOnRequestTimeout the SDK only warns when requestTimeout passes, and a server that accepts the
    // connection but never answers holds the request (and a dataset's load) forever.
    requestHandler: { connectionTimeout: c.timeoutMs, requestTimeout: c.timeoutMs, throwOnRequestTimeout: true },
    maxAttempts: 2,
  });
}

/** The answer's body in a buffer of its own, exactly `length` bytes long (a short answer fails). */
async function readBody(body: AsyncIterable<Uint8Array> | undefined, length: number, location: string) {
  const out = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
  let at = 0;
  for await (const chunk of body ?? []) {
    if (at + chunk.length > length) throw new RangeError(`${location}: more bytes than asked for`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== length) throw new RangeError(`${location} ends before byte ${length} of the range`);
  return out;
}

const AUTH_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden']);

function storeError(e: unknown, location: string, config: S3StoreConfig, condition?: string): Error {
  const err = e as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  // HEAD answers have no body, so the SDK names their errors by status only.
  const name = err.name === undefined || err.name.startsWith('Unknown') ? `HTTP ${status ?? 'error'}` : err.name;
  if (status === 404 || name === 'NoSuchKey' || name === 'NoSuchBucket' || name === 'NotFound') {
    return new ObjectNotFoundError(location);
  }
  if (condition !== undefined && (status === 412 || status === 409)) {
    return new PreconditionFailedError(location, condition);
  }
  if (status === 401 || status === 403 || AUTH_ERRORS.has(name)) {
    // A bare status (a HEAD's) would leave the user guessing which setting is wrong.
    const hint = name.startsWith('HTTP') ? ' (check s3_key, s3_secret and the bucket policy)' : '';
    return new ObjectStoreAccessError('auth', `access denied by ${location}: ${name}${hint}`);
  }
  if (status === undefined) {
    const where = config.endpoint ?? `S3 (${config.region})`;
    return new ObjectStoreAccessError('connection', `cannot reach ${where} for ${location}: ${err.code ?? name}`);
  }
  if (status === 416) return new RangeError(`${location}: the range lies past the object's end`);
  return new Error(`${location}: ${name}${name.startsWith('HTTP') ? '' : ` (HTTP ${status})`}`);
}
