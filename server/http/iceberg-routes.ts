// `registerIcebergRoutes`: the Iceberg REST catalog's uWS side: copy the request, admit it, send the handler's answer.
import { errorAnswer, ICEBERG_CONTENT_TYPE, RestCatalogError } from '../iceberg/rest-answer.js';
import { handleIcebergRequest, type IcebergRequest } from '../iceberg/rest-router.js';
import type { RestCatalogSource } from '../iceberg/rest-source.js';
import type { RefusalBody, RequestGate } from './request-gate.js';
import { Reply, utf8Constant } from './respond.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws-app.js';

/** What the Iceberg routes need from the running server. */
export interface IcebergRouteContext {
  /** The catalogs served, the datasets' catalog first (namespace level 1 names one). */
  icebergSources(): readonly RestCatalogSource[];
  readonly gate: RequestGate;
  /** True while the server shuts down: answered 503. */
  stopping(): boolean;
  track(reply: Reply): void;
}

/**
 * The same handlers under `/v1/iceberg/...` (the contract's paths), `/v1/iceberg/v1/...` (standard clients given
 * `uri=<base>/v1/iceberg` append `v1/`) and `/v1/config` + `/v1/namespaces...` at the root (what Spice serves).
 */
const PATTERNS = ['/v1/iceberg/*', '/v1/config', '/v1/namespaces', '/v1/namespaces/*'];

const IF_NONE_MATCH = utf8Constant('if-none-match');

/** The gate's 401/403/429 in the Iceberg envelope (`NotAuthorizedException` for 401 and 403, as the spec names them). */
const ICEBERG_REFUSAL: RefusalBody = (status, message) => ({
  contentType: ICEBERG_CONTENT_TYPE,
  body: errorAnswer(new RestCatalogError(status, REFUSAL_TYPES[status] ?? 'RESTException', message)).body,
});
const REFUSAL_TYPES: Readonly<Record<number, string>> = {
  401: 'NotAuthorizedException',
  403: 'NotAuthorizedException',
  429: 'SlowDownException',
};

/** Registers every Iceberg path, all methods (the handler answers 405/406 itself); each request passes `ctx.gate`. */
export function registerIcebergRoutes(app: TemplatedApp, ctx: IcebergRouteContext): void {
  for (const pattern of PATTERNS) app.any(pattern, (res, req) => handle(res, req, ctx));
}

function handle(res: HttpResponse, req: HttpRequest, ctx: IcebergRouteContext): void {
  if (ctx.stopping()) {
    const answer = errorAnswer(new RestCatalogError(503, 'ServiceUnavailableException', 'Runtime is shutting down'));
    new Reply(res).send(503, ICEBERG_CONTENT_TYPE, answer.body);
    return;
  }
  if (ctx.gate.admit(res, req, ICEBERG_REFUSAL) === null) return;
  // uWS reuses `req` once this callback returns: copy what the handler reads.
  const request: IcebergRequest = {
    method: req.getMethod(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    ifNoneMatch: req.getHeader(IF_NONE_MATCH),
  };
  const reply = new Reply(res);
  ctx.track(reply);
  void handleIcebergRequest(request, ctx.icebergSources()).then((answer) =>
    reply.send(answer.status, ICEBERG_CONTENT_TYPE, answer.body, answer.headers),
  );
}
