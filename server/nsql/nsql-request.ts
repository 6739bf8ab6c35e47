// `parseNsqlRequest`: the POST /v1/nsql JSON body (contract §2.1), strictly: unknown fields and wrong types are errors.

export interface NsqlRequest {
  readonly query: string;
  readonly model: string;
  readonly stream: boolean;
  readonly sampleDataEnabled: boolean;
  /** The datasets to sample (a hint); absent: the model's allowed datasets. */
  readonly datasets?: readonly string[];
}

/** A malformed body: 400 with this message. */
export class NsqlRequestError extends Error {}

const FIELDS = new Set(['query', 'model', 'stream', 'sample_data_enabled', 'datasets']);

/** Parses `text`; throws `NsqlRequestError` naming the problem (invalid JSON, a field, its type, an empty query). */
export function parseNsqlRequest(text: string): NsqlRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new NsqlRequestError(`Invalid JSON body: ${(e as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new NsqlRequestError('Invalid request: expected a JSON object such as {"query": "..."}');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b))
    if (!FIELDS.has(key))
      throw new NsqlRequestError(
        `Invalid request: unknown field '${key}' (expected query, model, stream, sample_data_enabled, datasets)`,
      );
  if (b.query === undefined) throw new NsqlRequestError("Invalid request: missing field 'query'");
  const query = expect(b, 'query', 'string') as string;
  if (query.trim() === '') throw new NsqlRequestError("Invalid request: 'query' is empty");
  const datasets = b.datasets;
  if (datasets !== undefined && (!Array.isArray(datasets) || datasets.some((d) => typeof d !== 'string')))
    throw new NsqlRequestError("Invalid request: 'datasets' must be an array of strings");
  return {
    query,
    model: (expect(b, 'model', 'string') as string | undefined) ?? 'nql',
    stream: (expect(b, 'stream', 'boolean') as boolean | undefined) ?? false,
    sampleDataEnabled: (expect(b, 'sample_data_enabled', 'boolean') as boolean | undefined) ?? true,
    datasets: datasets as string[] | undefined,
  };
}

function expect(body: Record<string, unknown>, key: string, type: 'string' | 'boolean'): unknown {
  const value = body[key];
  if (value !== undefined && typeof value !== type)
    throw new NsqlRequestError(`Invalid request: '${key}' must be a ${type}, got ${JSON.stringify(value)}`);
  return value;
}
