// `modelList`: the body of GET /v1/models (contract §2.5, §4.4): the list envelope, or CSV with the contract's columns.
import type { ModelState } from '../models/models.js';
import { CSV_CONTENT_TYPE, csvCell, JSON_CONTENT_TYPE } from './dataset-list.js';

/** The `metadata_fields` floe knows. */
const METADATA_FIELDS = ['supports_responses_api'] as const;
type MetadataField = (typeof METADATA_FIELDS)[number];

/** What GET /v1/models was asked for. */
export interface ModelListQuery {
  /** Add `status`, `error` and `error_message`. */
  readonly status: boolean;
  readonly format: 'json' | 'csv';
  /** `metadata_fields`: add `metadata` with these (JSON only; CSV has fixed columns). */
  readonly metadata: readonly MetadataField[];
}

/** Query parameters, or the problem (a 400): `status` true/false, `format` json/csv, known `metadata_fields`. */
export function parseModelListQuery(get: (name: string) => string | undefined): ModelListQuery | string {
  const status = (get('status') ?? 'false').toLowerCase();
  if (status !== 'true' && status !== 'false') return `invalid status '${get('status')}': expected true or false`;
  const format = (get('format') ?? 'json').toLowerCase();
  if (format !== 'json' && format !== 'csv') return `invalid format '${get('format')}': expected json or csv`;
  const raw = get('metadata_fields');
  const fields = raw === undefined ? [] : raw.split(',').map((f) => f.trim());
  const unknown = fields.filter((f) => !(METADATA_FIELDS as readonly string[]).includes(f));
  if (unknown.length > 0)
    return `invalid metadata_fields '${raw}': unknown field '${unknown[0]}' (expected ${METADATA_FIELDS.join(', ')})`;
  return { status: status === 'true', format, metadata: [...new Set(fields as MetadataField[])] };
}

/** The body for `query` over `models`, with its Content-Type. */
export function modelList(models: readonly ModelState[], query: ModelListQuery): { contentType: string; body: string } {
  if (query.format === 'csv') return { contentType: CSV_CONTENT_TYPE, body: csvList(models, query.status) };
  const data = models.map((m) => jsonItem(m, query));
  return { contentType: JSON_CONTENT_TYPE, body: JSON.stringify({ object: 'list', data }) };
}

/** The provider: `openai` of `openai:gpt-4o-mini`. */
function ownedBy(m: ModelState): string {
  return (m.config.from.split(':')[0] ?? m.config.from).toLowerCase();
}

/**
 * Whether the endpoint serves OpenAI's Responses API: only api.openai.com is known to. vLLM, llama.cpp and Ollama
 * serve chat completions (some newer builds add /responses, which floe cannot tell from here): false.
 */
export function supportsResponsesApi(m: ModelState): boolean {
  try {
    return new URL(m.config.endpoint).hostname.toLowerCase() === 'api.openai.com';
  } catch {
    return false;
  }
}

function jsonItem(m: ModelState, query: ModelListQuery): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: m.name,
    object: 'model',
    owned_by: ownedBy(m),
    datasets: m.config.datasets.length === 0 ? null : m.config.datasets,
  };
  if (query.status) {
    item.status = m.status;
    item.error = m.error;
    item.error_message = m.errorMessage;
  }
  if (query.metadata.length > 0) item.metadata = { supports_responses_api: supportsResponsesApi(m) };
  return item;
}

const CSV_HEADER = 'id,object,owned_by,datasets,status,error,error_message\n';

/** Always the seven columns; without `status=true` the last three are empty. `datasets` one cell, `error` its code. */
function csvList(models: readonly ModelState[], status: boolean): string {
  let out = CSV_HEADER;
  for (const m of models) {
    const cells = [m.name, 'model', ownedBy(m), m.config.datasets.join(',')];
    if (status) cells.push(m.status, m.error?.code ?? '', m.errorMessage ?? '');
    else cells.push('', '', '');
    out += `${cells.map(csvCell).join(',')}\n`;
  }
  return out;
}
