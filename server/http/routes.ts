// `registerRoutes`: the route table: /health, /v1/ready, /v1/sql, /v1/datasets…, /v1/models, and 404/405 for everything else.

import type { Datasets } from '../datasets/datasets.js';
import type { RestCatalogSource } from '../iceberg/rest-source.js';
import { createMcpEndpoints, type McpEndpoints } from '../mcp/mcp-endpoints.js';
import type { SearchService } from '../search/search-service.js';
import {
  type DatasetsRouteContext,
  handleListDatasets,
  handlePatchAcceleration,
  handleRefresh,
} from './datasets-route.js';
import { registerIcebergRoutes } from './iceberg-routes.js';
import { registerMcpRoutes } from './mcp-routes.js';
import { handleListModels, type ModelsRouteContext } from './models-route.js';
import { handleNsql, type NsqlRouteContext } from './nsql-route.js';
import type { RequestGate } from './request-gate.js';
import { Reply, TEXT_PLAIN } from './respond.js';
import { handleSearch } from './search-route.js';
import { handleSql, type SqlRouteContext } from './sql-route.js';
import { handleListMcpServers, handleListTools, type ToolsRouteContext } from './tools-route.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws-app.js';

const REFRESH_PATH = '/v1/datasets/:name/acceleration/refresh';
const ACCELERATION_PATH = '/v1/datasets/:name/acceleration';

/** Server lifecycle as the routes see it. */
export type ServerPhase = 'loading' | 'ready' | 'stopping';

export interface RouteContext
  extends SqlRouteContext,
    DatasetsRouteContext,
    ModelsRouteContext,
    ToolsRouteContext,
    Omit<NsqlRouteContext, 'datasets' | 'models'> {
  phase(): ServerPhase;
  /** CORS, API keys and the rate limit: every route but /health and /v1/ready is admitted through it. */
  readonly gate: RequestGate;
  /** The running datasets; null while the server has none yet (`/v1/ready` waits for their first load attempts). */
  datasets(): Datasets | null;
  /** The catalogs of the Iceberg REST API, the datasets' first; absent: none (every namespace is a 404). */
  icebergSources?(): readonly RestCatalogSource[];
  /** Both MCP transports' sessions and the Host guard (main.ts closes them); absent: made here with defaults. */
  readonly mcp?: McpEndpoints;
  /** Full-text search (POST /v1/search, the MCP search tool); absent: no dataset is searchable. */
  readonly search?: SearchService;
}

/**
 * GET /health: always `200 ok` (also while loading or stopping). GET /v1/ready: `200 ready` once the pool
 * serves and every dataset has made its first load attempt (loaded or failed), else `503 not ready`. POST /v1/sql:
 * see `handleSql`. POST /v1/nsql: `handleNsql`. /v1/mcp and /v1/mcp/sse: `registerMcpRoutes` (MCP). The dataset routes: see `datasets-route.ts`; the Iceberg REST catalog: `iceberg-routes.ts`. Other methods on known paths: 405 with
 * `Allow`; unknown paths: 404. During shutdown every route but /health answers 503. Every route but /health and
 * /v1/ready (and their 405s) passes `ctx.gate` first (401, 429, 403, CORS preflights): 404 and 405 too.
 */
export function registerRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const stopping = (res: HttpResponse): boolean => {
    if (ctx.phase() !== 'stopping') return false;
    new Reply(res).send(503, TEXT_PLAIN, 'Runtime is shutting down');
    return true;
  };
  const { gate } = ctx;
  app.get('/health', (res, req) => {
    if (gate.open(res, req)) new Reply(res).send(200, TEXT_PLAIN, 'ok\n');
  });
  app.get('/v1/ready', (res, req) => {
    if (stopping(res) || !gate.open(res, req)) return;
    const ready = ctx.phase() === 'ready' && ctx.datasets()?.settled === true;
    new Reply(res).send(ready ? 200 : 503, TEXT_PLAIN, ready ? 'ready' : 'not ready');
  });
  app.post('/v1/sql', (res, req) => {
    if (stopping(res)) return;
    const principal = gate.admit(res, req);
    if (principal !== null) handleSql(res, req, ctx, principal);
  });
  app.post('/v1/nsql', (res, req) => {
    if (stopping(res)) return;
    const principal = gate.admit(res, req);
    if (principal !== null) handleNsql(res, req, ctx, principal);
  });
  app.post('/v1/search', (res, req) => {
    if (stopping(res)) return;
    if (gate.admit(res, req) !== null) handleSearch(res, req, ctx);
  });
  app.get('/v1/datasets', (res, req) => {
    if (stopping(res)) return;
    if (gate.admit(res, req) !== null) handleListDatasets(res, req, ctx);
  });
  app.get('/v1/models', (res, req) => {
    if (stopping(res)) return;
    if (gate.admit(res, req) !== null) handleListModels(res, req, ctx);
  });
  app.post(REFRESH_PATH, (res, req) => {
    if (stopping(res)) return;
    const principal = gate.admit(res, req);
    if (principal !== null) handleRefresh(res, req, ctx, principal);
  });
  app.patch(ACCELERATION_PATH, (res, req) => {
    if (stopping(res)) return;
    const principal = gate.admit(res, req);
    if (principal !== null) handlePatchAcceleration(res, req, ctx, principal);
  });
  registerMcpRoutes(app, {
    mcp:
      ctx.mcp ??
      createMcpEndpoints({
        service: ctx.service,
        datasets: () => ctx.datasets()?.list() ?? [],
        proxied: ctx.proxied,
        search: ctx.search,
      }),
    gate,
    maxBodyBytes: ctx.maxBodyBytes,
    stopping: () => ctx.phase() === 'stopping',
    track: (reply) => ctx.track(reply),
  });
  app.get('/v1/tools', (res, req) => {
    if (stopping(res)) return;
    if (gate.admit(res, req) !== null) handleListTools(res, ctx);
  });
  app.get('/v1/mcp/servers', (res, req) => {
    if (stopping(res)) return;
    if (gate.admit(res, req) !== null) handleListMcpServers(res, ctx);
  });
  registerIcebergRoutes(app, {
    icebergSources: () => ctx.icebergSources?.() ?? [],
    gate,
    stopping: () => ctx.phase() === 'stopping',
    track: (reply) => ctx.track(reply),
  });
  methodNotAllowed(app, '/health', 'GET', (res, req) => gate.open(res, req));
  methodNotAllowed(app, '/v1/ready', 'GET', (res, req) => gate.open(res, req));
  methodNotAllowed(app, '/v1/sql', 'POST', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/nsql', 'POST', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/search', 'POST', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/datasets', 'GET', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/models', 'GET', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/tools', 'GET', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, '/v1/mcp/servers', 'GET', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, REFRESH_PATH, 'POST', (res, req) => gate.admit(res, req) !== null);
  methodNotAllowed(app, ACCELERATION_PATH, 'PATCH', (res, req) => gate.admit(res, req) !== null);
  app.any('/*', (res, req) => {
    if (gate.admit(res, req) !== null) new Reply(res).send(404, TEXT_PLAIN, 'Not Found');
  });
}

function methodNotAllowed(
  app: TemplatedApp,
  path: string,
  allow: string,
  pass: (res: HttpResponse, req: HttpRequest) => boolean,
): void {
  app.any(path, (res, req) => {
    if (pass(res, req)) new Reply(res).send(405, TEXT_PLAIN, 'Method Not Allowed', { Allow: allow });
  });
}
