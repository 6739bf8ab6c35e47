// `createRequestGate`: what every request passes before its route runs: CORS, API key (401), rate limit (429).
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { CorsConfig } from '../config/cors-config.js';
import { addReplyHeaders, Reply, TEXT_PLAIN, utf8Constant } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

export interface RequestGate {
  /**
   * For every route but /health and /v1/ready, including 404 and 405 answers (with auth on, a caller without a
   * valid key learns nothing about which paths exist). Returns the request's principal, or null once it has
   * answered: a CORS preflight (204), no or a wrong key (401 `Unauthorized`, `WWW-Authenticate: Bearer`; also
   * counted against the client address's bucket, so guessing keys is rate limited too), over the rate limit
   * (429 with `Retry-After`), or a browser's simple cross-origin POST from an origin `runtime.cors` does not allow
   * (403: such a POST is sent without a preflight, so refusing its answer alone would still run the SQL).
   */
  admit(res: HttpResponse, req: HttpRequest, refusal?: RefusalBody): Principal | null;
  /** For /health and /v1/ready: CORS headers and preflights only. False once it has answered (a preflight). */
  open(res: HttpResponse, req: HttpRequest): boolean;
}

/**
 * The body of a 401, 403 or 429 refusal for routes with their own error format (the Iceberg routes answer in
 * the Iceberg error envelope); default `text/plain` with the message.
 */
export type RefusalBody = (status: number, message: string) => { contentType: string; body: string };

const TEXT_REFUSAL: RefusalBody = (_status, message) => ({ contentType: TEXT_PLAIN, body: message });

export interface RequestGateOptions {
  readonly auth: Authenticator;
  /** Null when `runtime.http.rate_limit` is off. */
  readonly limiter: RateLimiter | null;
  readonly cors: CorsConfig;
}

const ORIGIN = utf8Constant('origin');
const CONTENT_TYPE = utf8Constant('content-type');
const PREFLIGHT_METHOD = utf8Constant('access-control-request-method');
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Authorization, Cache-Control, Content-Type, Spice-Cache-Key, X-API-Key',
  'Access-Control-Max-Age': '600',
};
const EXPOSE_HEADERS = 'Results-Cache-Status, X-Cache, Retry-After';
const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Bearer' };
const CROSS_ORIGIN_REFUSED = 'Forbidden: cross-origin request from an origin that runtime.cors does not allow';
/** Content types a browser sends cross-origin without a preflight (the CORS-safelisted ones; '' = none sent). */
const SIMPLE_CONTENT_TYPES = new Set(['', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);
const DECODER = new TextDecoder();
/** Who a request runs as when floe has neither API keys nor a rate limit. */
const OPEN_PRINCIPAL: Principal = Object.freeze({ id: 'anonymous', canWrite: true });

export function createRequestGate(options: RequestGateOptions): RequestGate {
  return new Gate(options);
}

class Gate implements RequestGate {
  readonly #auth: Authenticator;
  readonly #limiter: RateLimiter | null;
  readonly #cors: CorsConfig;
  readonly #anyOrigin: boolean;
  readonly #allowed: ReadonlySet<string>;
  /** No API keys and no rate limit: every request runs as `OPEN_PRINCIPAL`. */
  readonly #open: boolean;

  constructor(options: RequestGateOptions) {
    this.#auth = options.auth;
    this.#limiter = options.limiter;
    this.#cors = options.cors;
    this.#anyOrigin = options.cors.allowedOrigins.includes('*');
    this.#allowed = new Set(options.cors.allowedOrigins);
    this.#open = !options.auth.required && options.limiter === null;
  }

  open(res: HttpResponse, req: HttpRequest): boolean {
    return this.#applyCors(res, req, req.getHeader(ORIGIN));
  }

  admit(res: HttpResponse, req: HttpRequest, refusal = TEXT_REFUSAL): Principal | null {
    const origin = req.getHeader(ORIGIN);
    if (!this.#applyCors(res, req, origin)) return null;
    // Nothing reads the principal's address without auth and rate limit: reading it cost ~2% of a point lookup.
    const principal = this.#open ? OPEN_PRINCIPAL : this.#authenticate(res, req, refusal);
    if (principal === null) return null;
    if (origin !== '' && this.#allowOrigin(origin) === null && isSimplePost(req)) {
      refuse(res, refusal, 403, CROSS_ORIGIN_REFUSED);
      return null;
    }
    return principal;
  }

  /** The request's principal, or null once it has answered 401 or 429. */
  #authenticate(res: HttpResponse, req: HttpRequest, refusal: RefusalBody): Principal | null {
    let address: string | null = null;
    const addressOf = () => (address ??= DECODER.decode(res.getRemoteAddressAsText()));
    const principal = this.#auth.authenticate((name) => req.getHeader(name), addressOf);
    if (principal === null) {
      if (!this.#limited(res, `addr:${addressOf()}`, refusal)) {
        refuse(res, refusal, 401, 'Unauthorized', UNAUTHORIZED_HEADERS);
      }
      return null;
    }
    return this.#limited(res, principal.id, refusal) ? null : principal;
  }

  /** The `Access-Control-Allow-Origin` value for `origin`, or null when not allowed (or CORS is off). */
  #allowOrigin(origin: string): string | null {
    if (!this.#cors.enabled || origin === '') return null;
    if (this.#anyOrigin) return '*';
    const lower = origin.toLowerCase();
    return this.#allowed.has(lower) ? lower : null;
  }

  /** Adds the CORS headers for an allowed origin, or answers its preflight; false once answered. */
  #applyCors(res: HttpResponse, req: HttpRequest, origin: string): boolean {
    const allow = this.#allowOrigin(origin);
    if (allow === null) return true;
    const vary: Record<string, string> = allow === '*' ? {} : { Vary: 'Origin' };
    if (req.getMethod() === 'options' && req.getHeader(PREFLIGHT_METHOD) !== '') {
      new Reply(res).send(204, TEXT_PLAIN, '', { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Origin': allow, ...vary });
      return false;
    }
    addReplyHeaders(res, {
      'Access-Control-Allow-Origin': allow,
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
      ...vary,
    });
    return true;
  }

  /** Takes a token for `id`; answers 429 and returns true when there is none. */
  #limited(res: HttpResponse, id: string, refusal: RefusalBody): boolean {
    const wait = this.#limiter?.take(id) ?? 0;
    if (wait === 0) return false;
    refuse(res, refusal, 429, 'Too Many Requests', { 'Retry-After': String(wait) });
    return true;
  }
}

function refuse(
  res: HttpResponse,
  refusal: RefusalBody,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const { contentType, body } = refusal(status, message);
  new Reply(res).send(status, contentType, body, headers);
}

function isSimplePost(req: HttpRequest): boolean {
  if (req.getMethod() !== 'post') return false;
  const type = req.getHeader(CONTENT_TYPE);
  const semicolon = type.indexOf(';');
  return SIMPLE_CONTENT_TYPES.has((semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase());
}
