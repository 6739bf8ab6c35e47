// `authConfig`: `runtime.auth` (API keys, Spice's `api-key` / `api_key` provider) as a zod schema and settings.
import { z } from 'zod';

/** One configured API key. `secret` is never logged, put in an error or sent anywhere. */
export interface ApiKey {
  readonly secret: string;
  /** `:rw` keys may write; keys without a suffix (or with `:ro`) may only read. */
  readonly canWrite: boolean;
}

/** API-key authentication; null in the manifest when off. */
export interface AuthConfig {
  readonly keys: readonly ApiKey[];
}

// Visible ASCII only: a key must travel in an HTTP header unchanged (no spaces, no control characters).
const HEADER_SAFE = /^[\x21-\x7e]+$/;

const apiKeyEntry = z.union([z.string(), z.strictObject({ key: z.string() })]);

const apiKeyProvider = z
  .strictObject({
    /** On when the section is given, unless set to false. */
    enabled: z.boolean().default(true),
    keys: z.array(apiKeyEntry).optional(),
  })
  .check((ctx) => {
    if (!ctx.value.enabled) return;
    const keys = ctx.value.keys ?? [];
    if (keys.length === 0) {
      ctx.issues.push({
        code: 'custom',
        message: 'API key auth is enabled but lists no keys',
        input: undefined,
        path: ['keys'],
      });
    }
    const seen = new Map<string, number>();
    keys.forEach((entry, i) => {
      const problem = keyProblem(parseKey(entry), seen, i);
      // Never the value: the message names the position only.
      if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: undefined, path: ['keys', i] });
    });
  });

/**
 * `runtime.auth`: the `api-key` provider (Spice also spells it `api_key`). Any other provider is refused: auth
 * that floe cannot honour must stop the start, never serve everyone.
 */
export const authSchema = z
  .object({ 'api-key': apiKeyProvider.optional(), api_key: apiKeyProvider.optional() })
  .catchall(z.unknown())
  .check((ctx) => {
    for (const name of Object.keys(ctx.value)) {
      if (name === 'api-key' || name === 'api_key') continue;
      const message = `auth provider '${name}' is not supported; floe supports api-key`;
      ctx.issues.push({ code: 'custom', message, input: undefined, path: [name] });
    }
    if (ctx.value['api-key'] !== undefined && ctx.value.api_key !== undefined) {
      const message = 'api_key and api-key name the same provider; give only one of them';
      ctx.issues.push({ code: 'custom', message, input: undefined, path: ['api_key'] });
    }
  });

type Auth = z.infer<typeof authSchema>;

/** The keys to check, or null when auth is off (no section, or `enabled: false`). Values were validated. */
export function authConfig(auth: Auth | undefined): AuthConfig | null {
  const provider = auth?.['api-key'] ?? auth?.api_key;
  if (provider === undefined || !provider.enabled) return null;
  return { keys: (provider.keys ?? []).map(parseKey) };
}

/** `k`, `k:ro` -> read-only; `k:rw` -> read-write. Another suffix is part of the key (read-only), as in Spice. */
function parseKey(entry: z.infer<typeof apiKeyEntry>): ApiKey {
  const text = typeof entry === 'string' ? entry : entry.key;
  const m = /^(.*):(ro|rw)$/.exec(text);
  if (m === null) return { secret: text, canWrite: false };
  return { secret: m[1] as string, canWrite: m[2] === 'rw' };
}

function keyProblem(key: ApiKey, seen: Map<string, number>, index: number): string | null {
  if (key.secret === '') return 'empty API key';
  if (!HEADER_SAFE.test(key.secret)) return 'an API key may hold only visible ASCII characters (no spaces)';
  const first = seen.get(key.secret);
  if (first !== undefined) return `the same API key as keys[${first}]`;
  seen.set(key.secret, index);
  return null;
}
