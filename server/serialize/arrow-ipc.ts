// `makeArrowSerializer`: application/vnd.apache.arrow.stream, one Arrow IPC stream; every piece is whole messages.
import type { Schema as ArrowSchema } from 'apache-arrow';
import {
  type ArrowColumnSpec,
  arrowEndOfStream,
  arrowSchemaMessage,
  arrowSchemaOf,
  type Batch,
  batchToArrowMessage,
  type Column,
  type Schema,
  sliceBatch,
  type Utf8Bytes,
} from '../../engine/index.js';
import type { Serializer } from './serializer.js';

/**
 * No record batch message is larger than this (unless one row alone is): Spice's SDK receives at most 4 MB per
 * gRPC message and Flight sends each IPC message as one FlightData, so batches are split by rows below half that.
 */
export const MAX_ARROW_MESSAGE_BYTES = 2 << 20;

/**
 * The stream is: `begin` -> the schema message; `batch` -> one or more record batch messages (none for a batch of no
 * rows); `end` -> the end-of-stream marker. Each returned piece is a run of whole encapsulated messages
 * (continuation, metadata length, flatbuffer, body), so a Flight server cuts it with `splitArrowMessages`
 * (arrow-messages.ts) into FlightData header/body pairs. An empty result is the schema message and the marker.
 * Types as `arrowSchemaOf` maps them (Decimal128, Date32, Timestamp(µs, "UTC" for timestamptz), Interval
 * MonthDayNano). Text is plain Utf8, never a dictionary: the schema is sent before any batch (and Flight announces
 * it from the plan), while the engine's dictionary codes are a per-chunk accident of storage that a later batch
 * may not have.
 */
export function makeArrowSerializer(maxMessageBytes = MAX_ARROW_MESSAGE_BYTES): Serializer {
  let specs: readonly ArrowColumnSpec[] = [];
  let schema: ArrowSchema | null = null;
  return {
    begin(s: Schema) {
      specs = s.fields;
      schema = arrowSchemaOf(specs);
      return arrowSchemaMessage(schema);
    },
    batch(batch) {
      if (batch.length === 0 || schema === null) return '';
      const messages: Uint8Array[] = [];
      const pieces = Math.ceil(estimateBodyBytes(batch) / (maxMessageBytes * 0.75));
      const rows = Math.ceil(batch.length / Math.max(1, pieces));
      for (let start = 0; start < batch.length; start += rows) {
        encodeCapped(
          sliceBatch(batch, start, Math.min(batch.length, start + rows)),
          schema,
          specs,
          maxMessageBytes,
          messages,
        );
      }
      return messages.length === 1 ? (messages[0] as Uint8Array) : concat(messages);
    },
    end() {
      return arrowEndOfStream();
    },
  };
}

/** Encodes `batch`, halving it by rows while its message is over `max` (a single row is sent whatever its size). */
function encodeCapped(
  batch: Batch,
  schema: ArrowSchema,
  specs: readonly ArrowColumnSpec[],
  max: number,
  out: Uint8Array[],
): void {
  const message = batchToArrowMessage(batch, schema, specs);
  if (message.length <= max || batch.length === 1) {
    out.push(message);
    return;
  }
  const half = batch.length >> 1;
  encodeCapped(sliceBatch(batch, 0, half), schema, specs, max, out);
  encodeCapped(sliceBatch(batch, half, batch.length), schema, specs, max, out);
}

/** Bytes per value of each fixed-width type in Arrow (bool is a bit; null has no buffer). */
const VALUE_BYTES: Readonly<Record<string, number>> = {
  bool: 0.125,
  int32: 4,
  date: 4,
  int64: 8,
  float64: 8,
  timestamp: 8,
  decimal: 16,
  interval: 16,
  null: 0,
};

/** About the body bytes of `batch` as Arrow (text counted one byte per UTF-16 unit; `encodeCapped` corrects). */
function estimateBodyBytes(batch: Batch): number {
  const n = batch.length;
  let bytes = 0;
  for (const col of batch.columns) {
    bytes += col.valid === null ? 0 : n / 8;
    bytes += col.type.id === 'utf8' ? 4 * n + textBytes(col, n) : (VALUE_BYTES[col.type.id] ?? 8) * n;
  }
  return bytes;
}

function textBytes(col: Column, n: number): number {
  const v = col.values;
  if (v === null) return 0;
  if (!Array.isArray(v)) return (v as Utf8Bytes).offsets[n]! - (v as Utf8Bytes).offsets[0]!;
  let units = 0;
  for (let i = 0; i < n; i++) units += (v[i] as string | undefined)?.length ?? 0;
  return units;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
