// `registerRoutes`: the route table: /health, /v1/ready, /v1/sql, and 404/405 for everything else.
import { Reply, TEXT_PLAIN } from './respond.js';
import { handleSql, type SqlRouteContext } from './sql-route.js';
import type { HttpResponse, TemplatedApp } from './uws-app.js';

/** Server lifecycle as the routes see it. */
export type ServerPhase = 'loading' | 'ready' | 'stopping';

export interface RouteContext extends SqlRouteContext {
  phase(): ServerPhase;
}

/**
 * GET /health: always `200 ok` (also while loading or stopping). GET /v1/ready: `200 ready` once the pool
 * serves, else `503 not ready`. POST /v1/sql: see `handleSql`. Other methods on known paths: 405 with
 * `Allow`; unknown paths: 404. During shutdown every route but /health answers 503.
 */
export function registerRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const stopping = (res: HttpResponse): boolean => {
    if (ctx.phase() !== 'stopping') return false;
    new Reply(res).send(503, TEXT_PLAIN, 'Runtime is shutting down');
    return true;
  };
  app.get('/health', (res) => new Reply(res).send(200, TEXT_PLAIN, 'ok\n'));
  app.get('/v1/ready', (res) => {
    if (stopping(res)) return;
    const ready = ctx.phase() === 'ready';
    new Reply(res).send(ready ? 200 : 503, TEXT_PLAIN, ready ? 'ready' : 'not ready');
  });
  app.post('/v1/sql', (res, req) => {
    if (!stopping(res)) handleSql(res, req, ctx);
  });
  methodNotAllowed(app, '/health', 'GET');
  methodNotAllowed(app, '/v1/ready', 'GET');
  methodNotAllowed(app, '/v1/sql', 'POST');
  app.any('/*', (res) => new Reply(res).send(404, TEXT_PLAIN, 'Not Found'));
}

function methodNotAllowed(app: TemplatedApp, path: string, allow: string): void {
  app.any(path, (res) => new Reply(res).send(405, TEXT_PLAIN, 'Method Not Allowed', { Allow: allow }));
}
