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

type Issue = { code: 'custom'; message: string; input: undefined; path: PropertyKey[] };
const issue = (message: string, path: PropertyKey[]): Issue => ({ code: 'custom', message, input: undefined, path });

const providerFields = {
  /** On when the section is given, unless set to false (fail closed). */
  enabled: z.boolean().optional(),
  keys: z.array(apiKeyEntry).optional(),
};

/** An enabled provider's keys: at least one, each non-empty, header-safe and distinct. Never quotes a key. */
function keyIssues(provider: { enabled?: boolean; keys?: readonly z.infer<typeof apiKeyEntry>[] }): Issue[] {
  if (provider.enabled === false) return [];
  const keys = provider.keys ?? [];
  const issues = keys.length === 0 ? [issue('API key auth is enabled but lists no keys', ['keys'])] : [];
  const seen = new Map<string, number>();
  keys.forEach((entry, i) => {
    const problem = keyProblem(parseKey(entry), seen, i);
    if (problem !== null) issues.push(issue(problem, ['keys', i]));
  });
  return issues;
}

const apiKeyProvider = z.strictObject(providerFields).check((ctx) => {
  ctx.issues.push(...keyIssues(ctx.value));
});

const PROVIDERS = new Set(['api-key', 'api_key', 'enabled', 'keys']);

/**
 * `runtime.auth`: the `api-key` provider (Spice also spells it `api_key`), or `enabled` and `keys` right under
 * `runtime.auth` (the contract's form). Exactly one of these; any other provider, or none, is refused: auth that
 * floe cannot honour must stop the start, never serve everyone.
 */
export const authSchema = z
  .object({ 'api-key': apiKeyProvider.optional(), api_key: apiKeyProvider.optional(), ...providerFields })
  .catchall(z.unknown())
  .check((ctx) => {
    const auth = ctx.value;
    for (const name of Object.keys(auth)) {
      if (!PROVIDERS.has(name))
        ctx.issues.push(issue(`auth provider '${name}' is not supported; floe supports api-key`, [name]));
    }
    const direct = auth.enabled !== undefined || auth.keys !== undefined;
    const forms = [
      auth['api-key'] !== undefined && 'api-key',
      auth.api_key !== undefined && 'api_key',
      direct && 'keys',
    ];
    const given = forms.filter((f): f is string => f !== false);
    if (Object.keys(auth).length === 0) ctx.issues.push(issue('no auth provider given; expected api-key', []));
    if (given.length > 1) {
      const message = `${given.join(' and ')} configure the same API keys; give only one of them`;
      ctx.issues.push(issue(message, [given[1] as string]));
    }
    if (direct) ctx.issues.push(...keyIssues(auth));
  });

type Auth = z.infer<typeof authSchema>;

/** The keys to check, or null when auth is off (no section, or `enabled: false`). Values were validated. */
export function authConfig(auth: Auth | undefined): AuthConfig | null {
  if (auth === undefined) return null;
  const provider = auth['api-key'] ?? auth.api_key ?? auth;
  if (provider.enabled === false) return null;
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
