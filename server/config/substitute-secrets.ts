// `substituteSecrets`: replaces `${env:NAME}` / `${secrets:NAME}` references in every string of a parsed manifest.

/** A reference names a variable that is not set, or a store floe does not have; `path` is its key path. */
export class SecretReferenceError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

const REFERENCE = /\$\{\s*([A-Za-z0-9_.-]+)\s*:\s*([^}\s]+)\s*\}/g;

/**
 * Returns a copy of `value` with every `${store:key}` in string values (not keys) replaced. Stores: `env`,
 * `secrets` (searches all stores; floe has only the environment) and any `secrets:` entry with
 * `from: env`. As in Spice, the env store upper-cases the key (`${secrets:pg_pass}` reads PG_PASS); the
 * exact spelling is tried when the upper-cased one is unset. References may sit inside longer strings.
 */
export function substituteSecrets(value: unknown, env: NodeJS.ProcessEnv, envStores: readonly string[] = []): unknown {
  const stores = new Set(['env', 'secrets', ...envStores]);
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') return substituteString(v, path, env, stores);
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}[${i}]`));
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, item]) => [k, walk(item, path === '' ? k : `${path}.${k}`)]),
      );
    }
    return v;
  };
  return walk(value, '');
}

function substituteString(text: string, path: string, env: NodeJS.ProcessEnv, stores: Set<string>): string {
  return text.replace(REFERENCE, (_match, store: string, key: string) => {
    if (!stores.has(store))
      throw new SecretReferenceError(path, `unknown secret store '${store}' in '\${${store}:${key}}'`);
    const found = env[key.toUpperCase()] ?? env[key];
    if (found === undefined) {
      throw new SecretReferenceError(
        path,
        `'\${${store}:${key}}' is not set (environment variable ${key.toUpperCase()})`,
      );
    }
    return found;
  });
}
