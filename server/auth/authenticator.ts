// `createAuthenticator`: who a request runs as, from its API key (constant time over every key); one check for every front end.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthConfig } from '../config/auth-config.js';
import type { Principal } from './principal.js';

/** Reads a request header (or gRPC metadata) by lower-case name; '' when absent. */
export type HeaderGetter = (lowerCaseName: string) => string;

export interface Authenticator {
  /** True when requests must carry a key (`runtime.auth` on). */
  readonly required: boolean;
  /**
   * The principal of a request, or null when a key is required and the request has none or a wrong one (answer
   * 401). The key is read from `X-API-Key: <key>` or else `Authorization: Bearer <key>`. Without auth every
   * request is `addr:<address>` and may write; `address` is read only then. Never logs, never throws on input.
   */
  authenticate(header: HeaderGetter, address: () => string): Principal | null;
}

const BEARER = /^bearer[ \t]+([^ \t]+)[ \t]*$/i;

/** Checks presented keys against `config`'s keys; null config: auth off. */
export function createAuthenticator(config: AuthConfig | null): Authenticator {
  if (config === null) {
    return { required: false, authenticate: (_header, address) => ({ id: `addr:${address()}`, canWrite: true }) };
  }
  // Digests have one length whatever the keys' lengths, so every comparison takes the same time.
  const digests = config.keys.map((k) => digest(k.secret));
  const principals: Principal[] = config.keys.map((k, i) => Object.freeze({ id: `key:${i}`, canWrite: k.canWrite }));
  return {
    required: true,
    authenticate(header) {
      const presented = presentedKey(header);
      if (presented === null) return null;
      const d = digest(presented);
      let match = -1;
      // No early exit: every key is compared, so the time says nothing about which key (if any) matched.
      for (let i = 0; i < digests.length; i++) {
        const equal = timingSafeEqual(d, digests[i] as Buffer);
        if (equal && match === -1) match = i;
      }
      return match === -1 ? null : (principals[match] as Principal);
    },
  };
}

/** The key a request presents: `X-API-Key`, else a Bearer token; null when neither is there. */
function presentedKey(header: HeaderGetter): string | null {
  const apiKey = header('x-api-key').trim();
  if (apiKey !== '') return apiKey;
  const bearer = BEARER.exec(header('authorization'));
  return bearer === null ? null : (bearer[1] as string);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
