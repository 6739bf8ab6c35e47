// The dataset routes (contract §4.5, §7.5): GET /v1/datasets, POST …/acceleration/refresh, PATCH …/acceleration.
import type { Principal } from '../auth/principal.js';
import { parseDuration } from '../config/results-cache-config.js';
import {
  DatasetNotFoundError,
  DatasetRequestError,
  type Datasets,
  NotAcceleratedError,
  type RefreshOverrides,
} from '../datasets/datasets.js';
import { logInternalError } from '../pool/error-ref.js';
import { datasetList, JSON_CONTENT_TYPE, parseDatasetListQuery } from './dataset-list.js';
import { decodeUtf8 } from './decode-utf8.js';
import { FORBIDDEN_BODY } from './error-status.js';
import { readBody } from './read-body.js';
import { Reply } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** What the dataset routes need from the running server. */
export interface DatasetsRouteContext {
  /** The running datasets; null while the server has none yet (answered 503). */
  datasets(): Datasets | null;
  readonly maxBodyBytes: number;
  track(reply: Reply): void;
}

/** A body or parameter the client got wrong: 400 `{"message": ...}`. */
class BadBody extends Error {}

const LIST_PARAMS = ['status', 'format', 'source'] as const;

/** GET /v1/datasets: 200 JSON array or CSV; 400 for a bad `status` or `format`. */
export function handleListDatasets(res: HttpResponse, req: HttpRequest, ctx: DatasetsRouteContext): void {
  const params = new Map(LIST_PARAMS.map((p) => [p, req.getQuery(p)]));
  const reply = new Reply(res);
  const datasets = ctx.datasets();
  const query = parseDatasetListQuery((name) => params.get(name as (typeof LIST_PARAMS)[number]));
  if (datasets === null) notServing(reply);
  else if (typeof query === 'string') sendMessage(reply, 400, query);
  else {
    const { contentType, body } = datasetList(datasets.list(), query);
    reply.send(200, contentType, body);
  }
}

/**
 * POST /v1/datasets/{name}/acceleration/refresh with an optional JSON body `{refresh_sql, refresh_mode,
 * refresh_jitter_max}`: 201 once triggered; 400 for a malformed body, an unknown field, a bad override or a
 * dataset without acceleration; 403 for a read-only key; 404 for an unknown dataset; 500 when it cannot start.
 */
export function handleRefresh(res: HttpResponse, req: HttpRequest, ctx: DatasetsRouteContext, who: Principal): void {
  withBody(res, req, ctx, who, 'refresh the dataset', async (reply, name, body, datasets) => {
    const overrides = refreshOverrides(body);
    const configured = await datasets.refresh(name, overrides);
    sendMessage(reply, 201, `Dataset refresh triggered for ${configured}.`);
  });
}

/**
 * PATCH /v1/datasets/{name}/acceleration with `{"refresh_sql": "..."}`: 200 once stored (until restart; the next
 * refresh uses it); 400 for a malformed body or SQL that does not parse or bind; 403; 404; 500.
 */
export function handlePatchAcceleration(
  res: HttpResponse,
  req: HttpRequest,
  ctx: DatasetsRouteContext,
  who: Principal,
): void {
  withBody(res, req, ctx, who, 'update the refresh SQL of', async (reply, name, body, datasets) => {
    const fields = jsonObject(body, ['refresh_sql']);
    const sql = fields.refresh_sql;
    if (typeof sql !== 'string' || sql.trim() === '') throw new BadBody('refresh_sql is required: a SELECT string');
    const configured = await datasets.setRefreshSql(name, sql);
    sendMessage(reply, 200, `Refresh SQL updated for ${configured}.`);
  });
}

type BodyHandler = (reply: Reply, name: string, body: string, datasets: Datasets) => Promise<void>;

/** Write access, the dataset name from the path, the body as text; maps the handler's errors to statuses. */
function withBody(
  res: HttpResponse,
  req: HttpRequest,
  ctx: DatasetsRouteContext,
  who: Principal,
  action: string,
  run: BodyHandler,
): void {
  const reply = new Reply(res);
  ctx.track(reply);
  const rawName = req.getParameter(0) ?? '';
  const onBody = (bytes: Uint8Array) =>
    reply.inCallback(() => {
      let text: string;
      try {
        text = decodeUtf8(bytes);
      } catch {
        return sendMessage(reply, 400, 'Invalid request body: not UTF-8');
      }
      const datasets = ctx.datasets();
      if (!who.canWrite) return reply.send(403, JSON_CONTENT_TYPE, FORBIDDEN_BODY);
      if (datasets === null) return notServing(reply);
      const name = decodeName(rawName);
      if (name === null) return sendMessage(reply, 404, `Dataset ${rawName} not found`);
      run(reply, name, text, datasets).catch((e: unknown) =>
        reply.inCallback(() => sendFailure(reply, name, action, e)),
      );
    });
  readBody(res, req.getHeader('content-length'), ctx.maxBodyBytes, onBody, (e) =>
    reply.send(413, JSON_CONTENT_TYPE, JSON.stringify({ message: `Payload Too Large: ${e.message}` }), {}, true),
  );
}

/** The refresh body's overrides; an absent or empty body means none. */
function refreshOverrides(body: string): RefreshOverrides {
  if (body.trim() === '') return {};
  const fields = jsonObject(body, ['refresh_sql', 'refresh_mode', 'refresh_jitter_max']);
  const out: { refreshSql?: string; refreshMode?: 'full' | 'append'; jitterMaxMs?: number } = {};
  const { refresh_sql: sql, refresh_mode: mode, refresh_jitter_max: jitter } = fields;
  if (sql !== undefined && sql !== null) {
    if (typeof sql !== 'string' || sql.trim() === '') throw new BadBody('refresh_sql must be a non-empty string');
    out.refreshSql = sql;
  }
  if (mode !== undefined && mode !== null) {
    if (mode !== 'full' && mode !== 'append') {
      throw new BadBody(`refresh_mode must be 'full' or 'append' (got ${JSON.stringify(mode)})`);
    }
    out.refreshMode = mode;
  }
  if (jitter !== undefined && jitter !== null) {
    const ms = typeof jitter === 'string' || typeof jitter === 'number' ? parseDuration(jitter) : null;
    if (ms === null) {
      throw new BadBody(`refresh_jitter_max must be a duration such as '10s' or '5m' (got ${JSON.stringify(jitter)})`);
    }
    out.jitterMaxMs = ms;
  }
  return out;
}

/** `body` parsed as a JSON object with only `allowed` keys (a misspelt key is an error, not silently ignored). */
function jsonObject(body: string, allowed: readonly string[]): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new BadBody(`Invalid JSON body: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadBody('Invalid JSON body: expected an object');
  }
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new BadBody(`Unknown field ${unknown.map((k) => `'${k}'`).join(', ')}: expected ${allowed.join(', ')}`);
  }
  return value as Record<string, unknown>;
}

function decodeName(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function sendFailure(reply: Reply, name: string, action: string, e: unknown): void {
  if (e instanceof DatasetNotFoundError) {
    sendMessage(reply, 404, e.message);
    return;
  }
  if (e instanceof NotAcceleratedError || e instanceof DatasetRequestError || e instanceof BadBody) {
    sendMessage(reply, 400, e.message);
    return;
  }
  // The reason is the runtime's own message (it names the dataset and the step); the stack goes to the log only.
  const ref = logInternalError(`dataset ${name}: request failed`, e);
  const reason = e instanceof Error ? e.message : String(e);
  sendMessage(reply, 500, `Failed to ${action} ${name}: ${reason} (ref ${ref})`);
}

function notServing(reply: Reply): void {
  sendMessage(reply, 503, 'not ready: datasets are loading', { 'Retry-After': '1' });
}

function sendMessage(reply: Reply, status: number, message: string, headers: Record<string, string> = {}): void {
  reply.send(status, JSON_CONTENT_TYPE, JSON.stringify({ message }), headers);
}
