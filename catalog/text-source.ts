// `textSourceOf`: a dataset's file format (params.file_format, or its extension) and its CSV/JSON read options.
import {
  DEFAULT_INFER_MAX_RECORDS,
  type DeclaredColumn,
  declaredType,
  type TextFormat,
  type TextReadOptions,
  textReadOptions,
} from '../engine/index.js';

/** A dataset read from CSV or JSON files: how to read them, and which files of a folder are its. */
export interface TextSource {
  readonly options: TextReadOptions;
  /** A folder source takes the files with these extensions (lower case, with the dot). */
  readonly extensions: readonly string[];
}

/** A param or declared column is invalid; `key` is its path inside the dataset (`params.csv_quote`, `columns[1].type`). */
export class SourceParamError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a dataset says of its files (the manifest's `params` as strings, and its `columns`). */
export interface TextSourceSpec {
  readonly from: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly columns?: readonly { readonly name: string; readonly type?: string }[];
}

/** The params this module reads. */
export const TEXT_SOURCE_PARAMS = [
  'file_format',
  'csv_has_header',
  'csv_delimiter',
  'csv_quote',
  'csv_escape',
  'csv_schema_infer_max_records',
] as const;

const BY_EXTENSION: Readonly<Record<string, string>> = {
  csv: 'csv',
  tsv: 'tsv',
  json: 'json',
  jsonl: 'json',
  ndjson: 'json',
  parquet: 'parquet',
};

/**
 * The CSV or JSON source `spec` names, or null for Parquet. The format is `params.file_format` (`csv`, `json`,
 * `parquet`), else the extension of `from` (`.csv`; `.tsv`, a CSV with tabs; `.json`, `.jsonl`, `.ndjson`), else
 * Parquet. Throws `SourceParamError` for an unknown format, an invalid CSV option, or a declared column type floe
 * does not know.
 */
export function textSourceOf(spec: TextSourceSpec): TextSource | null {
  const params = spec.params ?? {};
  const given = params.file_format?.toLowerCase();
  const byName = BY_EXTENSION[extensionOf(spec.from)] ?? 'parquet';
  if (given !== undefined && given !== 'csv' && given !== 'json' && given !== 'parquet') {
    throw new SourceParamError('params.file_format', `file format '${params.file_format}' is not supported yet`);
  }
  const format = given ?? byName;
  if (format === 'parquet') return null;
  // `.tsv` is a CSV file whose delimiter is a tab (unless csv_delimiter says otherwise).
  const tsv = byName === 'tsv' && format !== 'json';
  const options = readOptions(format === 'json' ? 'json' : 'csv', params, tsv, declaredColumns(spec.columns ?? []));
  const tabbed = options.delimiter === '\t';
  const extensions = options.format === 'json' ? ['.json', '.jsonl', '.ndjson'] : tabbed ? ['.tsv', '.csv'] : ['.csv'];
  return { options, extensions };
}

function readOptions(
  format: TextFormat,
  params: Readonly<Record<string, string>>,
  tsv: boolean,
  declared: DeclaredColumn[],
): TextReadOptions {
  return textReadOptions(format, {
    hasHeader: booleanParam(params, 'csv_has_header') ?? true,
    delimiter: charParam(params, 'csv_delimiter') ?? (tsv ? '\t' : ','),
    quote: charParam(params, 'csv_quote') ?? '"',
    escape: charParam(params, 'csv_escape') ?? null,
    inferMaxRecords: countParam(params, 'csv_schema_infer_max_records') ?? DEFAULT_INFER_MAX_RECORDS,
    declared,
  });
}

function declaredColumns(columns: readonly { readonly name: string; readonly type?: string }[]): DeclaredColumn[] {
  const out: DeclaredColumn[] = [];
  columns.forEach((c, i) => {
    if (c.type === undefined) return;
    const type = declaredType(c.type);
    if (type === null) {
      throw new SourceParamError(
        `columns[${i}].type`,
        `unknown column type '${c.type}' (expected bigint, double, text, date, timestamp, boolean or decimal(p,s) with p <= 18)`,
      );
    }
    out.push({ name: c.name, type });
  });
  return out;
}

/** `.../name.CSV` -> `csv`; a folder or a name without a dot -> ''. */
function extensionOf(from: string): string {
  const last = from.replace(/\/+$/, '').split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot <= 0 ? '' : last.slice(dot + 1).toLowerCase();
}

function booleanParam(params: Readonly<Record<string, string>>, key: string): boolean | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new SourceParamError(`params.${key}`, `expected true or false, got '${v}'`);
}

/** One character; `\t` (backslash, t: YAML's single-quoted spelling of a tab) is a tab. */
function charParam(params: Readonly<Record<string, string>>, key: string): string | undefined {
  const v = params[key] === '\\t' ? '\t' : params[key];
  if (v === undefined) return undefined;
  if ([...v].length === 1 && v !== '\n' && v !== '\r') return v;
  throw new SourceParamError(`params.${key}`, `expected one character, got '${v}'`);
}

function countParam(params: Readonly<Record<string, string>>, key: string): number | undefined {
  const v = params[key];
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v) && Number(v) >= 1) return Number(v);
  throw new SourceParamError(`params.${key}`, `expected a positive integer, got '${v}'`);
}
