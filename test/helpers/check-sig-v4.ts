// `checkSigV4`: verifies a request's AWS Signature Version 4 as S3 does (s3rver checks only the access key id).
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/**
 * True when `req` carries no SigV4 `Authorization` header (unsigned, or another scheme: left to s3rver) or one
 * whose signature `secret` reproduces. The payload hash is taken from `x-amz-content-sha256` as sent (what the
 * signature covers); the payload itself is not checked.
 */
export function checkSigV4(req: IncomingMessage, secret: string): boolean {
  const m = AUTH.exec(req.headers.authorization ?? '');
  if (m === null) return true;
  const [, , date, region, service, signedHeaders, signature] = m as unknown as string[];
  const url = new URL(req.url ?? '/', 'http://x');
  const canonicalHeaders = signedHeaders!
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [
    req.method,
    url.pathname,
    canonicalQuery(url.searchParams),
    canonicalHeaders,
    signedHeaders,
    String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', req.headers['x-amz-date'], scope, sha256(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === signature;
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([k, v]) => [strictEncode(k), strictEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** RFC 3986 encoding: encodeURIComponent plus the five characters it leaves as they are. */
function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}
