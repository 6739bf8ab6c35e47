// `corsConfig`: `runtime.cors {enabled, allowed_origins}` (Spice's keys; off by default) as a zod schema and settings.
import { z } from 'zod';

/** Cross-origin access for browsers. */
export interface CorsConfig {
  readonly enabled: boolean;
  /** Origins allowed to read answers (`scheme://host[:port]`, lower case), or `*` for any. */
  readonly allowedOrigins: readonly string[];
}

/** Spice's defaults: off; when enabled without a list, any origin. */
export const DEFAULT_CORS: CorsConfig = { enabled: false, allowedOrigins: ['*'] };

const origin = z.string().check((ctx) => {
  if (ctx.value === '*' || normalOrigin(ctx.value) !== null) return;
  const message = `'${ctx.value}' is not an origin: expected scheme://host[:port] or *`;
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
});

export const corsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  allowed_origins: z.array(origin).optional(),
});

/** The effective settings (validated by `corsSchema`). */
export function corsConfig(cors: z.infer<typeof corsSchema> | undefined): CorsConfig {
  if (cors === undefined) return DEFAULT_CORS;
  const origins = cors.allowed_origins?.map((o) => (o === '*' ? o : (normalOrigin(o) as string)));
  return { enabled: cors.enabled ?? DEFAULT_CORS.enabled, allowedOrigins: origins ?? DEFAULT_CORS.allowedOrigins };
}

/** `HTTPS://Example.com:443` -> `https://example.com`; null for anything but a bare origin. */
function normalOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A path, query, fragment or user name makes `href` longer than the origin and its slash.
  return url.href === `${url.origin}/` ? url.origin : null;
}
