// `TextReadOptions`: how a CSV or JSON table reads its files (Spice's `csv_*` params), and its column type names.
import {
  BOOL,
  DATE,
  type DataType,
  decimal,
  FLOAT64,
  INT64,
  MAX_DECIMAL_PRECISION,
  TIMESTAMP,
  UTF8,
} from '../../plan/types.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';

export type TextFormat = 'csv' | 'json';

/** A column whose type the user declared: it replaces the inferred type of the column of that name. */
export interface DeclaredColumn {
  readonly name: string;
  readonly type: DataType;
}

/** Plain data (it crosses to worker threads in a catalog entry). */
export interface TextReadOptions {
  readonly format: TextFormat;
  /** CSV: the first record names the columns; without it they are `column_1`..`column_n` (as DataFusion). */
  readonly hasHeader: boolean;
  readonly delimiter: string;
  readonly quote: string;
  /** CSV: the character that escapes a quote inside a quoted field; null: only a doubled quote does. */
  readonly escape: string | null;
  /** Records (CSV) or objects (JSON) read, from the first file on, to infer the column types. */
  readonly inferMaxRecords: number;
  readonly declared: readonly DeclaredColumn[];
  /** How to reach `s3://` files (the dataset's endpoint, region, credentials). */
  readonly s3?: S3StoreConfig;
}

export const DEFAULT_INFER_MAX_RECORDS = 1000;

/** Spice's defaults for `format`. */
export function textReadOptions(format: TextFormat, given: Partial<TextReadOptions> = {}): TextReadOptions {
  return {
    format,
    hasHeader: true,
    delimiter: ',',
    quote: '"',
    escape: null,
    inferMaxRecords: DEFAULT_INFER_MAX_RECORDS,
    declared: [],
    ...given,
  };
}

const NAMED: Readonly<Record<string, DataType>> = {
  bigint: INT64,
  int8: INT64,
  int64: INT64,
  double: FLOAT64,
  'double precision': FLOAT64,
  float8: FLOAT64,
  float64: FLOAT64,
  text: UTF8,
  varchar: UTF8,
  string: UTF8,
  utf8: UTF8,
  date: DATE,
  timestamp: TIMESTAMP,
  boolean: BOOL,
  bool: BOOL,
};

const DECIMAL_RE = /^(?:decimal|numeric)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/;

/**
 * The type a declared column names (`bigint`, `double`, `text`, `date`, `timestamp`, `boolean`, `decimal(p,s)`,
 * case-insensitive, with a few aliases), or null when the name is none of them.
 */
export function declaredType(name: string): DataType | null {
  const t = name.trim().toLowerCase();
  const named = NAMED[t];
  if (named) return named;
  const m = DECIMAL_RE.exec(t);
  if (!m) return null;
  const [p, s] = [Number(m[1]), Number(m[2] ?? 0)];
  if (p < 1 || p > MAX_DECIMAL_PRECISION || s > p) return null;
  return decimal(p, s);
}

/** The type as error messages about values spell it: `BIGINT`, `DOUBLE`, `DECIMAL(10,2)`. */
export function valueTypeLabel(t: DataType): string {
  switch (t.id) {
    case 'int32':
      return 'INTEGER';
    case 'int64':
      return 'BIGINT';
    case 'float64':
      return 'DOUBLE';
    case 'decimal':
      return `DECIMAL(${t.precision},${t.scale})`;
    case 'bool':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'timestamp':
      return 'TIMESTAMP';
    default:
      return 'TEXT';
  }
}
