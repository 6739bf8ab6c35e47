// `resolveScope`: which model answers and which datasets it may query and sees samples of (contract §2.1, §7.1).
import type { ModelState, Models } from '../models/models.js';
import type { NsqlRequest } from './nsql-request.js';

/** The model and datasets of one request. */
export interface NsqlScope {
  readonly model: ModelState;
  /** The datasets the model may query: its `datasets` allowlist, or every dataset when it has none. */
  readonly allowed: readonly string[];
  /** The datasets sampled: the request's `datasets`, else `allowed`; empty when `sample_data_enabled` is false. */
  readonly sampled: readonly string[];
}

/** The request cannot be served: `status` with `message` as text (and `Retry-After` when set). */
export class NsqlRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/**
 * 400 `Model <m> not found` (no such model); 503 when the model is `loading` (Retry-After: 1) or in `error` (its
 * error message: floe probed it at start and it failed, so asking would fail the same way); 400
 * `Dataset '<x>' not found` when a requested dataset does not exist or is outside the model's allowlist.
 * Names match case-insensitively and resolve to the manifest's spelling.
 */
export function resolveScope(request: NsqlRequest, models: Models, datasetNames: readonly string[]): NsqlScope {
  const model = models.get(request.model);
  if (model === undefined) throw new NsqlRefusal(400, `Model ${request.model} not found`);
  if (model.status === 'loading') throw new NsqlRefusal(503, `Model ${model.name} is still loading`, 1);
  if (model.status === 'error')
    throw new NsqlRefusal(503, `Model ${model.name} is not available: ${model.errorMessage ?? 'its probe failed'}`);
  const byName = new Map(datasetNames.map((n) => [n.toLowerCase(), n]));
  const listed = model.config.datasets;
  const allowed = listed.length === 0 ? datasetNames : listed.flatMap((n) => byName.get(n.toLowerCase()) ?? []);
  const allowedSet = new Map(allowed.map((n) => [n.toLowerCase(), n]));
  const requested = (request.datasets ?? []).map((d) => {
    const found = allowedSet.get(d.toLowerCase());
    if (found === undefined) throw new NsqlRefusal(400, `Dataset '${d}' not found`);
    return found;
  });
  const sampled = !request.sampleDataEnabled ? [] : request.datasets === undefined ? allowed : requested;
  return { model, allowed, sampled };
}
