// `Serializer`: the streaming contract every /v1/sql output format implements, and the format table.
import type { Batch, Schema } from '../../engine/index.js';
import { makeArrowSerializer } from './arrow-ipc.js';
import { makeCsvSerializer } from './csv.js';
import { makeJsonSerializer } from './json.js';
import { makeNdjsonSerializer } from './ndjson.js';
import { makeTableTextSerializer } from './table-text.js';
import { makeVndJsonSerializer } from './vnd-json.js';

/**
 * Turns a result into a body piece by piece: `begin` once, `batch` per batch, `end` once. Concatenating the
 * returned pieces (strings as UTF-8, or bytes where a format writes bytes directly, as JSON rows and Arrow do)
 * gives the whole body.
 * Implementations keep no more state than the format needs (only the ASCII table buffers, because column
 * widths depend on every row).
 */
export interface Serializer {
  begin(schema: Schema): string | Uint8Array;
  batch(batch: Batch): string | Uint8Array;
  end(): string | Uint8Array;
}

/** The result formats of POST /v1/sql, named after what the client asked for. */
export type ResultFormat = 'json' | 'vnd-json' | 'csv' | 'table-text' | 'arrow' | 'ndjson';

/** The Content-Type each format is sent with. */
export const CONTENT_TYPES: Readonly<Record<ResultFormat, string>> = {
  json: 'application/json',
  'vnd-json': 'application/vnd.service.sql.v1+json',
  csv: 'text/csv; charset=utf-8',
  'table-text': 'text/plain; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.stream',
  ndjson: 'application/x-ndjson',
};

/** A fresh serializer for one response (serializers are stateful; never share one). */
export function createSerializer(format: ResultFormat): Serializer {
  switch (format) {
    case 'json':
      return makeJsonSerializer();
    case 'vnd-json':
      return makeVndJsonSerializer();
    case 'csv':
      return makeCsvSerializer();
    case 'table-text':
      return makeTableTextSerializer();
    case 'arrow':
      return makeArrowSerializer();
    case 'ndjson':
      return makeNdjsonSerializer();
  }
}
