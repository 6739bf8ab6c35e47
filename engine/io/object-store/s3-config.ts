// `S3StoreConfig`: how to reach an S3 bucket, as plain data that crosses threads with the locations it serves.

/**
 * What an `S3ObjectStore` needs besides the `s3://bucket/key` location: plain data (structured-cloneable), so a
 * catalog entry carries it to every worker and decode thread, and each thread makes its own client from it
 * (`objectStoreFor(location, config)`). Two datasets on one bucket with different credentials get two clients.
 * `key`/`secret` are secrets: nothing in floe puts them in a message or a log.
 */
export interface S3StoreConfig {
  /** `http(s)://host:port` of an S3-compatible server (path-style addressing); absent: AWS for `region`. */
  readonly endpoint?: string;
  readonly region: string;
  /** `public`: unsigned requests; `key`: `key` + `secret`; `iam_role`: the SDK's default credential chain. */
  readonly auth: 'public' | 'key' | 'iam_role';
  readonly key?: string;
  readonly secret?: string;
  /** Connection and per-request time-out (Spice's `client_timeout`). */
  readonly timeoutMs: number;
}

/** Spice's defaults: AWS, us-east-1, unsigned, 30 s. */
export const DEFAULT_S3_CONFIG: S3StoreConfig = { region: 'us-east-1', auth: 'public', timeoutMs: 30_000 };

/** Identifies one client per thread: every field, the secret included (kept in memory only, never printed). */
export function s3ConfigKey(config: S3StoreConfig): string {
  const { endpoint, region, auth, key, secret, timeoutMs } = config;
  return JSON.stringify([endpoint ?? '', region, auth, key ?? '', secret ?? '', timeoutMs]);
}

/** `s3://bucket/key` -> bucket and key (the key may be empty: the bucket's root). */
export function parseS3Location(location: string): { bucket: string; key: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(location);
  if (m === null) throw new Error(`not an S3 location (expected s3://bucket/key): ${location}`);
  return { bucket: m[1]!, key: m[2]! };
}
