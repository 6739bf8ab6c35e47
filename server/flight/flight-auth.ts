// `callPrincipal` and `handshakeToken`: Flight calls authenticated with the HTTP API keys (bearer, x-api-key, basic).
import { type Metadata, status } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { flightError } from './flight-status.js';

/** HTTP's 401 body, so both front ends say the same. */
export const UNAUTHENTICATED_TEXT = 'Unauthorized';

/** The first value of metadata `name` as text ('' when absent), the authenticator's header getter. */
function headerOf(metadata: Metadata): (name: string) => string {
  return (name) => {
    const value = metadata.get(name)[0];
    return typeof value === 'string' ? value : '';
  };
}

/**
 * Who a call runs as, from `authorization: Bearer <key>` or `x-api-key: <key>` metadata (what Handshake hands
 * out is the key itself, so its bearer token works the same); throws UNAUTHENTICATED when a key is required and
 * missing or wrong. With `runtime.http.rate_limit` on, the call takes a token from the same buckets as HTTP
 * (per key, or per address when the key is refused) and is RESOURCE_EXHAUSTED when there is none.
 */
/** The client's address without the port, as HTTP's principals name it (`ipv4:1.2.3.4:5` → `1.2.3.4`). */
export function peerAddress(peer: string): string {
  const m = /^(?:ipv[46]:)?\[?([^\]]*?)\]?(?::\d+)?$/.exec(peer);
  return m?.[1] ?? peer;
}

export function callPrincipal(
  auth: Authenticator,
  metadata: Metadata,
  peer: () => string,
  limiter: RateLimiter | null = null,
): Principal {
  const principal = auth.authenticate(headerOf(metadata), peer);
  const wait = limiter?.take(principal?.id ?? `addr:${peer()}`) ?? 0;
  if (wait > 0) throw flightError(status.RESOURCE_EXHAUSTED, `Too Many Requests (retry after ${wait} s)`);
  if (principal === null) throw flightError(status.UNAUTHENTICATED, UNAUTHENTICATED_TEXT);
  return principal;
}

const basicAuth = protobuf.Type.fromJSON('BasicAuth', {
  fields: { username: { type: 'string', id: 2 }, password: { type: 'string', id: 3 } },
});

/**
 * Handshake's answer: the bearer token (the API key itself, as Spice does) for the password of HTTP basic auth
 * in `authorization` metadata (Rust's and Java's clients) or of a `BasicAuth` payload; the user name is not
 * checked (keys are not tied to users). Without basic auth, a bearer or x-api-key is checked and handed back.
 * With auth off any caller gets the password it sent (or ''). Throws UNAUTHENTICATED.
 */
export function handshakeToken(
  auth: Authenticator,
  metadata: Metadata,
  payload: Uint8Array,
  peer: () => string,
): string {
  const password = basicPassword(headerOf(metadata)('authorization')) ?? payloadPassword(payload);
  if (password === null) {
    callPrincipal(auth, metadata, peer);
    const header = headerOf(metadata);
    return (
      header('x-api-key').trim() ||
      header('authorization')
        .replace(/^bearer[ \t]+/i, '')
        .trim()
    );
  }
  const principal = auth.authenticate((name) => (name === 'x-api-key' ? password : ''), peer);
  if (principal === null) throw flightError(status.UNAUTHENTICATED, UNAUTHENTICATED_TEXT);
  return password;
}

function basicPassword(authorization: string): string | null {
  const match = /^basic[ \t]+([A-Za-z0-9+/=_-]+)[ \t]*$/i.exec(authorization);
  if (match === null) return null;
  const text = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon === -1 ? null : text.slice(colon + 1);
}

function payloadPassword(payload: Uint8Array): string | null {
  if (payload.length === 0) return null;
  try {
    const { password } = basicAuth.decode(payload) as unknown as { password?: string };
    return password === undefined || password === '' ? null : password;
  } catch {
    return null;
  }
}
