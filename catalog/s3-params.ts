// `s3ConfigOf`: a dataset's `s3_*` params (strings, as the manifest gave them) as the engine's S3StoreConfig.
import type { S3StoreConfig } from '../engine/index.js';

/** One param is wrong; `key` is the param's name (`s3_endpoint`), the message never quotes a secret. */
export class S3ParamError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`params.${key}: ${message}`);
  }
}

/** The params the S3 connector reads (Spice's names); the manifest layer stops warning about these. */
export const S3_PARAMS = ['s3_endpoint', 's3_region', 's3_auth', 's3_key', 's3_secret', 'allow_http', 'client_timeout'];

const AUTH_MODES = ['public', 'key', 'iam_role'] as const;
const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Spice's defaults: region us-east-1; auth `key` when both s3_key and s3_secret are set, else `public`;
 * client_timeout 30s (a bare number is seconds). An `http://` endpoint is refused unless `allow_http` is true
 * (fail closed: credentials and data would cross the network in clear). Throws `S3ParamError`.
 */
export function s3ConfigOf(params: Readonly<Record<string, string>> = {}): S3StoreConfig {
  const { s3_endpoint: endpoint, s3_key: key, s3_secret: secret } = params;
  const auth = params.s3_auth ?? (key !== undefined && secret !== undefined ? 'key' : 'public');
  if (!(AUTH_MODES as readonly string[]).includes(auth)) {
    throw new S3ParamError('s3_auth', `expected one of ${AUTH_MODES.join(', ')}, got '${auth}'`);
  }
  if (auth === 'key' && (key === undefined || secret === undefined)) {
    throw new S3ParamError(key === undefined ? 's3_key' : 's3_secret', "needed when s3_auth is 'key' (missing)");
  }
  if (endpoint !== undefined) checkEndpoint(endpoint, params.allow_http === 'true');
  const timeoutMs = durationMs(params.client_timeout ?? '30s');
  if (timeoutMs === null || timeoutMs <= 0) {
    throw new S3ParamError('client_timeout', `invalid duration '${params.client_timeout}' (e.g. 30s, 500ms)`);
  }
  return {
    endpoint: endpoint?.replace(/\/+$/, ''),
    region: params.s3_region ?? 'us-east-1',
    auth: auth as S3StoreConfig['auth'],
    ...(auth === 'key' ? { key, secret } : {}),
    timeoutMs,
  };
}

function checkEndpoint(endpoint: string, allowHttp: boolean): void {
  const scheme = /^([a-z]+):\/\/[^/]/i.exec(endpoint)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    throw new S3ParamError('s3_endpoint', `expected an http(s):// URL, got '${endpoint}'`);
  }
  if (scheme === 'http' && !allowHttp) {
    throw new S3ParamError('s3_endpoint', `'${endpoint}' is plain http: set allow_http: true to allow it`);
  }
}

/** `30s`, `500ms`, `1m`, `2h`, or a number of seconds; null when it is none of these. */
function durationMs(text: string): number | null {
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Number(text) * 1000;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/i.exec(text.trim());
  return m === null ? null : Number(m[1]) * DURATION_MS[m[2]!.toLowerCase()]!;
}
