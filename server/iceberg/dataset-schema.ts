// `readDatasetSchema`: a dataset's columns as the workers see them, via `SELECT * ... LIMIT 0` on the query service.
import type { DataType, Field } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { Head, WireError } from '../pool/messages.js';
import type { AnswerSink, QueryService } from '../runtime/query-service.js';
import { internalError, RestCatalogError } from './rest-answer.js';

/** Who the catalog's schema queries run as: they only read (the request itself passed the gate already). */
const CATALOG_READER: Principal = Object.freeze({ id: 'iceberg-rest', canWrite: false });

/** Kinds that mean "try again later", answered 503 like the other routes do. */
const RETRY_KINDS = new Set(['unavailable', 'overloaded', 'rate_limited']);

/**
 * The columns of dataset `name` (the main thread holds no schema for file-backed datasets: the workers read the
 * footers). Runs `SELECT * FROM "<name>" LIMIT 0` in the `vnd-json` format, whose body starts with the result's
 * schema (`{name, data_type, nullable}` with Arrow type names), so no rows are read or sent. A query that fails
 * throws a `RestCatalogError`: 503 ServiceUnavailableException while floe cannot serve (loading, overloaded),
 * else 500 `Internal Server Error: query.<kind>` (the engine's message can name files: it is not sent).
 * `principal`: who the query runs as (MCP passes its session's, so rate limits count it).
 */
export async function readDatasetSchema(
  service: QueryService,
  name: string,
  principal: Principal = CATALOG_READER,
): Promise<Field[]> {
  const body = await runToText(service, `SELECT * FROM "${name.replaceAll('"', '""')}" LIMIT 0`, principal);
  const parsed = JSON.parse(body) as { schema: { fields: { name: string; data_type: string; nullable: boolean }[] } };
  return parsed.schema.fields.map((f) => ({
    name: f.name,
    qualifier: null,
    type: typeFromArrowName(f.data_type),
    nullable: f.nullable,
  }));
}

/** Inverse of the engine's `arrowTypeName` (the type names vnd-json writes). */
export function typeFromArrowName(name: string): DataType {
  const decimal = /^Decimal128\((\d+), (\d+)\)$/.exec(name);
  if (decimal) return { id: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) };
  const timestamp = /^Timestamp\(Microsecond, (None|Some\("(.*)"\))\)$/.exec(name);
  if (timestamp) return { id: 'timestamp', tz: timestamp[2] ?? null };
  const simple = SIMPLE_TYPES[name];
  if (simple === undefined) throw internalError('unknown_column_type');
  return simple;
}

const SIMPLE_TYPES: Readonly<Record<string, DataType>> = {
  Null: { id: 'null' },
  Boolean: { id: 'bool' },
  Int32: { id: 'int32' },
  Int64: { id: 'int64' },
  Float64: { id: 'float64' },
  Utf8: { id: 'utf8' },
  Date32: { id: 'date' },
  'Interval(MonthDayNano)': { id: 'interval' },
};

/** Runs `sql` and collects its whole answer as text (a LIMIT 0 answer is one small chunk). */
function runToText(service: QueryService, sql: string, principal: Principal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const text = () => Buffer.concat(chunks).toString('utf8');
    const sink: AnswerSink = {
      whole: (_head: Head, body: Uint8Array) => resolve(Buffer.from(body).toString('utf8')),
      head: () => {},
      chunk: (body, ack) => {
        chunks.push(body.slice());
        ack();
      },
      end: () => resolve(text()),
      error: (error) => reject(queryFailure(error)),
    };
    service.run({ sql, format: 'vnd-json', principal }, sink);
  });
}

function queryFailure(error: WireError): RestCatalogError {
  if (RETRY_KINDS.has(error.kind)) {
    const headers: Record<string, string> =
      error.retryAfterS === undefined ? {} : { 'Retry-After': String(error.retryAfterS) };
    return new RestCatalogError(503, 'ServiceUnavailableException', error.message, headers);
  }
  return internalError(error.ref === undefined ? `query.${error.kind}` : `query.${error.kind} (ref ${error.ref})`);
}
