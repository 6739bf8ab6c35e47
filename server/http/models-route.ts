// GET /v1/models (contract §2.5, §4.4, §7.4): the manifest's models, their status on request, JSON or CSV.
import type { Models } from '../models/models.js';
import { logInternalError } from '../pool/error-ref.js';
import { JSON_CONTENT_TYPE } from './dataset-list.js';
import { modelList, parseModelListQuery } from './model-list.js';
import { Reply } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

export interface ModelsRouteContext {
  /** The manifest's models; null when the runtime has none yet (500 `App not initialized`, as Spice). */
  models?(): Models | null;
}

const LIST_PARAMS = ['status', 'format', 'metadata_fields'] as const;

/** GET /v1/models: 200 list envelope or CSV; 400 for a bad `status`, `format` or `metadata_fields`; 500 with a ref. */
export function handleListModels(res: HttpResponse, req: HttpRequest, ctx: ModelsRouteContext): void {
  const params = new Map(LIST_PARAMS.map((p) => [p, req.getQuery(p)]));
  const reply = new Reply(res);
  const send = (status: number, message: string) => reply.send(status, JSON_CONTENT_TYPE, JSON.stringify({ message }));
  try {
    const models = ctx.models?.() ?? null;
    const query = parseModelListQuery((name) => params.get(name as (typeof LIST_PARAMS)[number]));
    if (models === null) send(500, 'App not initialized');
    else if (typeof query === 'string') send(400, query);
    else {
      const { contentType, body } = modelList(models.list(), query);
      reply.send(200, contentType, body);
    }
  } catch (e) {
    const ref = logInternalError('GET /v1/models failed', e);
    send(500, `Internal server error (ref ${ref})`);
  }
}
