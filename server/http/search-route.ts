// POST /v1/search: full-text search over the datasets (Spice's request and answer shape) through `SearchService`.

import { logInternalError } from '../pool/error-ref.js';
import { parseSearchRequest, searchResultItem } from '../search/search-request.js';
import { SearchRequestError, type SearchService, SearchUnavailableError } from '../search/search-service.js';
import { JSON_CONTENT_TYPE } from './dataset-list.js';
import { decodeUtf8 } from './decode-utf8.js';
import { readBody } from './read-body.js';
import { Reply } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

export interface SearchRouteContext {
  readonly search?: SearchService;
  readonly maxBodyBytes: number;
  track(reply: Reply): void;
}

/**
 * 200 `{results: [{matches, data, primary_key, score, dataset}], duration_ms}`, best first; 400 `{message}` for a
 * body that is not UTF-8 or JSON, a missing `text`, a bad `limit` or `datasets`, an unsupported key, an unknown
 * dataset or one without search; 503 while the index asked for is not built; 413 for a body over the limit.
 */
export function handleSearch(res: HttpResponse, req: HttpRequest, ctx: SearchRouteContext): void {
  const reply = new Reply(res);
  ctx.track(reply);
  const started = performance.now();
  const onBody = (bytes: Uint8Array) =>
    reply.inCallback(() => {
      let text: string;
      try {
        text = decodeUtf8(bytes);
      } catch {
        return send(reply, 400, 'Invalid request body: not UTF-8');
      }
      const query = parseSearchRequest(text);
      if (typeof query === 'string') return send(reply, 400, query);
      if (ctx.search === undefined) return send(reply, 400, 'no dataset has full-text search');
      ctx.search.search(query).then(
        (hits) => {
          const results = hits.map(searchResultItem);
          const body = JSON.stringify({ results, duration_ms: Math.round(performance.now() - started) });
          reply.send(200, JSON_CONTENT_TYPE, body);
        },
        (e: unknown) => sendError(reply, e),
      );
    });
  readBody(res, req.getHeader('content-length'), ctx.maxBodyBytes, onBody, (e) =>
    send(reply, 413, `Payload Too Large: ${e.message}`),
  );
}

function sendError(reply: Reply, e: unknown): void {
  if (e instanceof SearchRequestError) send(reply, 400, e.message);
  else if (e instanceof SearchUnavailableError) send(reply, 503, e.message);
  else send(reply, 500, `Internal server error (ref ${logInternalError('search', e)})`);
}

function send(reply: Reply, status: number, message: string): void {
  reply.send(status, JSON_CONTENT_TYPE, JSON.stringify({ message }));
}
