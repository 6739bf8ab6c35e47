// `startS3Server`: an S3-compatible server (s3rver) on a loopback port over a temporary folder, for tests and benches.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StoreConfig } from '../../engine/index.js';
import { S3ObjectStore } from '../../engine/io/object-store/s3.js';
import { checkSigV4 } from './check-sig-v4.js';

/** s3rver's one set of credentials: any other key is refused with InvalidAccessKeyId, another secret with SignatureDoesNotMatch. */
export const S3RVER_KEY = 'S3RVER';
export const S3RVER_SECRET = 'S3RVER';

/** A request the server received (the last 1,000 are kept). */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` (the same port across `stop` and `start`). */
  readonly endpoint: string;
  /** Signs with s3rver's credentials. */
  readonly config: S3StoreConfig;
  /** Dataset params for a manifest that reaches this server with the right credentials (over http). */
  readonly params: Record<string, string | boolean>;
  readonly requests: SeenRequest[];
  makeBucket(name: string): Promise<void>;
  /** Uploads `data` (bytes, or the local file at that path) to `location` (`s3://bucket/key`). */
  upload(location: string, data: Uint8Array | string): Promise<void>;
  /** Stops answering (connections are cut; the objects are kept). */
  stop(): Promise<void>;
  /** Answers again, on the same port, with the same objects. */
  start(): Promise<void>;
  /** Stops and removes the objects. */
  dispose(): Promise<void>;
}

const MAX_SEEN = 1000;

/** Starts s3rver on 127.0.0.1 (a free port) with `buckets` made. */
export async function startS3Server(buckets: readonly string[] = []): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'floe-s3rver-'));
  const requests: SeenRequest[] = [];
  let s3rver: S3rver | null = null;
  let port = 0;
  const run = async () => {
    s3rver = new S3rver({ address: '127.0.0.1', port, directory, silent: true });
    port = (await s3rver.run()).port;
    const http = httpOf(s3rver);
    requireSignatures(http);
    http.prependListener('request', (req: IncomingMessage) => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      if (requests.length > MAX_SEEN) requests.shift();
    });
  };
  const stop = async () => {
    if (s3rver === null) return;
    httpOf(s3rver).closeAllConnections();
    await s3rver.close();
    s3rver = null;
  };
  await run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config: S3StoreConfig = {
    endpoint,
    region: 'us-east-1',
    auth: 'key',
    key: S3RVER_KEY,
    secret: S3RVER_SECRET,
    timeoutMs: 10_000,
  };
  const store = new S3ObjectStore(config);
  const made = new Set<string>();
  const out: S3TestServer = {
    endpoint,
    config,
    params: { s3_endpoint: endpoint, s3_auth: 'key', s3_key: S3RVER_KEY, s3_secret: S3RVER_SECRET, allow_http: true },
    requests,
    async makeBucket(name) {
      if (!made.has(name)) await store.createBucket(name);
      made.add(name);
    },
    async upload(location, data) {
      await store.put(location, typeof data === 'string' ? await readFile(data) : data);
    },
    stop,
    start: run,
    async dispose() {
      store.close();
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
  for (const b of buckets) await out.makeBucket(b);
  return out;
}

const SIGNATURE_MISMATCH =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature ' +
  'we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>';

/**
 * Refuses, as S3 does, a request signed (SigV4) with s3rver's key id and another secret: s3rver itself checks
 * only the key id, so a wrong `s3_secret` would be served.
 */
function requireSignatures(http: Server): void {
  const handlers = http.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const ownKey = (req.headers.authorization ?? '').includes(`Credential=${S3RVER_KEY}/`);
    if (ownKey && !checkSigV4(req, S3RVER_SECRET)) {
      res.writeHead(403, { 'Content-Type': 'application/xml' });
      res.end(req.method === 'HEAD' ? undefined : SIGNATURE_MISMATCH);
      return;
    }
    for (const h of handlers) h.call(http, req, res);
  });
}

function httpOf(s3rver: S3rver): Server {
  return (s3rver as unknown as { httpServer: Server }).httpServer;
}
