// `parseSqlRequest`: turns a POST /v1/sql body (plain SQL or JSON with parameters) into SQL + params.
import type { ParamValues } from '../../engine/index.js';
import { decodeUtf8 } from './decode-utf8.js';

/** What the engine needs from one request. */
export interface SqlRequest {
  readonly sql: string;
  readonly params?: ParamValues;
}

/** The body is malformed; the message is sent as the 400 body. */
export class BadRequestError extends Error {}

type Scalar = string | number | boolean | null;

/**
 * A Content-Type of `application/json` (with any parameters, e.g. `; charset=utf-8`, unlike Spice's exact
 * match) means `{"sql": "...", "parameters": [...] | {...}}`; anything else, or none, means the body is the
 * SQL text. Throws `BadRequestError` for invalid UTF-8 (Rust's wording) and for JSON problems
 * (`Invalid JSON: <detail>`). Parameter values must be JSON scalars; the engine binds their types.
 */
export function parseSqlRequest(body: Uint8Array, contentType: string): SqlRequest {
  let text: string;
  try {
    text = decodeUtf8(body);
  } catch (e) {
    throw new BadRequestError((e as Error).message);
  }
  return isJson(contentType) ? parseJsonBody(text) : { sql: text };
}

function isJson(contentType: string): boolean {
  if (contentType === '' || contentType === 'text/plain') return false;
  const essence = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return essence === 'application/json';
}

function parseJsonBody(text: string): SqlRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw invalid((e as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('expected an object with a field sql');
  }
  const { sql, parameters } = value as { sql?: unknown; parameters?: unknown };
  if (sql === undefined) throw invalid('missing field sql');
  if (typeof sql !== 'string') throw invalid('field sql must be a string');
  if (parameters === undefined || parameters === null) return { sql };
  return { sql, params: checkParameters(parameters) };
}

function checkParameters(parameters: unknown): ParamValues {
  if (typeof parameters !== 'object' || parameters === null) {
    throw invalid('Parameters must be a JSON array or an object');
  }
  const values: unknown[] = Array.isArray(parameters) ? parameters : Object.values(parameters);
  if (!values.every(isScalar)) throw invalid('Nested arrays or objects are not supported as parameter values');
  return parameters as Scalar[] | Record<string, Scalar>;
}

function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function invalid(detail: string): BadRequestError {
  return new BadRequestError(`Invalid JSON: ${detail}`);
}
