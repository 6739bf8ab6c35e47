// `s3ParamProblems`: validates an `s3://` dataset's params (Spice's s3_* keys) with zod, as key-path messages.
import { z } from 'zod';
import { S3ParamError, s3ConfigOf } from '../../catalog/s3-params.js';
import { keyPath } from './manifest.js';
import { parseDuration } from './results-cache-config.js';

const duration = z.union([z.string(), z.number()]).check((ctx) => {
  const ms = parseDuration(ctx.value);
  if (ms === null || ms <= 0) {
    ctx.issues.push({ code: 'custom', message: `invalid duration '${ctx.value}' (e.g. 30s, 500ms)`, input: ctx.value });
  }
});
const flag = z.union([z.boolean(), z.enum(['true', 'false'])]);

/** The S3 params' types; other params (`file_format`, `csv_*`) pass through to their own checks. */
const s3ParamsSchema = z.looseObject({
  s3_endpoint: z.string().optional(),
  s3_region: z.string().min(1).optional(),
  s3_auth: z.enum(['public', 'key', 'iam_role']).optional(),
  // Never echoed: a wrong type is reported by its key alone.
  s3_key: z.string({ error: 'expected a string' }).optional(),
  s3_secret: z.string({ error: 'expected a string' }).optional(),
  allow_http: flag.optional(),
  client_timeout: duration.optional(),
});

/**
 * Problems with the params of `datasets[index]` (or `catalogs[index]`: an `s3://` source or warehouse), one `datasets[i].params.<key>: <problem>`
 * line each: wrong types, then the connector's own rules (`s3ConfigOf`: an http endpoint without
 * `allow_http: true`, `key` auth without key and secret). No message quotes s3_key or s3_secret.
 */
export function s3ParamProblems(
  params: Readonly<Record<string, unknown>>,
  index: number,
  section: 'datasets' | 'catalogs' = 'datasets',
): string[] {
  const at = (path: readonly PropertyKey[]) => keyPath([section, index, 'params', ...path]);
  const parsed = s3ParamsSchema.safeParse(params);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${at(i.path)}: ${i.message.replace(/^Invalid (input|option): /, '')}`);
  }
  const strings = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  try {
    s3ConfigOf(strings);
    return [];
  } catch (e) {
    if (!(e instanceof S3ParamError)) throw e;
    return [`${at([e.key])}: ${e.message.slice(`params.${e.key}: `.length)}`];
  }
}
