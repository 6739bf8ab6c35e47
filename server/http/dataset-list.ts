// `datasetList`: the body of GET /v1/datasets (contract §2.6): a bare JSON array, or CSV with the contract's columns.
import type { DatasetState } from '../datasets/datasets.js';

/** What GET /v1/datasets was asked for. */
export interface DatasetListQuery {
  /** Add `status`, `error` and `error_message`. */
  readonly status: boolean;
  readonly format: 'json' | 'csv';
  /** Keep only datasets whose `from` equals this; null keeps all. */
  readonly source: string | null;
}

/** Query parameters, or the problem (a 400): `status` must be true/false, `format` json/csv. */
export function parseDatasetListQuery(get: (name: string) => string | undefined): DatasetListQuery | string {
  const status = (get('status') ?? 'false').toLowerCase();
  if (status !== 'true' && status !== 'false') return `invalid status '${get('status')}': expected true or false`;
  const format = (get('format') ?? 'json').toLowerCase();
  if (format !== 'json' && format !== 'csv') return `invalid format '${get('format')}': expected json or csv`;
  const source = get('source');
  return { status: status === 'true', format, source: source === undefined || source === '' ? null : source };
}

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const JSON_CONTENT_TYPE = 'application/json';

/** The body for `query` over `datasets`, with its Content-Type. */
export function datasetList(
  datasets: readonly DatasetState[],
  query: DatasetListQuery,
): { contentType: string; body: string } {
  const kept = query.source === null ? datasets : datasets.filter((d) => d.from === query.source);
  if (query.format === 'csv') return { contentType: CSV_CONTENT_TYPE, body: csvList(kept, query.status) };
  return { contentType: JSON_CONTENT_TYPE, body: JSON.stringify(kept.map((d) => jsonItem(d, query.status))) };
}

/** Field order as Spice writes it: from, name, the flags, the status fields (when asked), properties. */
function jsonItem(d: DatasetState, status: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    from: d.from,
    name: d.name,
    replication_enabled: false,
    acceleration_enabled: d.accelerated,
  };
  if (status) {
    item.status = d.status;
    item.error = d.error;
    item.error_message = d.errorMessage;
  }
  item.properties = d.properties;
  return item;
}

const CSV_HEADER = 'from,name,replication_enabled,acceleration_enabled,status,error,error_message\n';

/**
 * Always the contract's seven columns (a reader can rely on them); without `status=true` the last three are empty.
 * `error` is the error's code (`dataset.auth`). Fields are quoted when they hold `,`, `"`, CR or LF.
 */
function csvList(datasets: readonly DatasetState[], status: boolean): string {
  let out = CSV_HEADER;
  for (const d of datasets) {
    const cells = [d.from, d.name, 'false', String(d.accelerated)];
    if (status) cells.push(d.status, d.error?.code ?? '', d.errorMessage ?? '');
    else cells.push('', '', '');
    out += `${cells.map(csvCell).join(',')}\n`;
  }
  return out;
}

export function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
