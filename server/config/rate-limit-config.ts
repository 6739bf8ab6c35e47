// `rateLimitConfig`: `runtime.http.rate_limit {enabled, requests_per_second, burst}` (a floe extension) as zod and settings.
import { z } from 'zod';

/** A token bucket per principal: `burst` requests at once, refilled at `requestsPerSecond`. */
export interface RateLimitConfig {
  readonly requestsPerSecond: number;
  readonly burst: number;
}

export const rateLimitSchema = z
  .strictObject({
    /** On when the section is given, unless set to false. */
    enabled: z.boolean().default(true),
    requests_per_second: z.number().positive().finite().optional(),
    /** Default: one second's worth of requests (at least 1). */
    burst: z.number().int().positive().optional(),
  })
  .check((ctx) => {
    if (ctx.value.enabled && ctx.value.requests_per_second === undefined) {
      const message = 'required when the rate limit is enabled';
      ctx.issues.push({ code: 'custom', message, input: undefined, path: ['requests_per_second'] });
    }
  });

/** The limit, or null when off (no section, or `enabled: false`). Values were validated. */
export function rateLimitConfig(section: z.infer<typeof rateLimitSchema> | undefined): RateLimitConfig | null {
  if (section === undefined || !section.enabled) return null;
  const requestsPerSecond = section.requests_per_second as number;
  return { requestsPerSecond, burst: section.burst ?? Math.max(1, Math.ceil(requestsPerSecond)) };
}
