// Small Arrow tables floe answers itself (Flight SQL metadata, schemas) and parameter batches it reads (apache-arrow).
import * as arrow from 'apache-arrow';
import type { ParamValues } from '../../engine/index.js';
import { frameIpcMessage, type IpcMessage, IpcMessageSplitter } from './ipc-messages.js';

/** A column of a result floe builds: its field and its values (null where missing), or its data ready-made. */
export interface ResultColumn {
  readonly field: arrow.Field;
  readonly values?: readonly unknown[];
  readonly data?: arrow.Data;
}

/** `columns` as IPC messages (schema, then one record batch), ready to go out as FlightData. */
export function resultMessages(columns: readonly ResultColumn[]): IpcMessage[] {
  const schema = new arrow.Schema(columns.map((c) => c.field));
  const children = columns.map((c) => c.data ?? arrow.vectorFromArray(c.values ?? [], c.field.type).data[0]!);
  const length = children[0]?.length ?? 0;
  const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length, children });
  return splitStream(arrow.tableToIPC(new arrow.Table([new arrow.RecordBatch(schema, data)]), 'stream'));
}

/** The encapsulated IPC form of `schema` (FlightInfo.schema, SchemaResult, a prepared statement's schemas). */
export function schemaBytes(schema: arrow.Schema): Uint8Array {
  const message = splitStream(arrow.tableToIPC(new arrow.Table(schema), 'stream'))[0] as IpcMessage;
  return frameIpcMessage(message);
}

/** A schema with no fields: what a write answers before it runs. */
export const EMPTY_SCHEMA_BYTES = schemaBytes(new arrow.Schema([]));

/** The schema of a stream's first message, encapsulated (as `schemaBytes`). */
export function schemaMessageBytes(message: IpcMessage): Uint8Array {
  return frameIpcMessage(message);
}

/** `n` parameters `$1…$n` of unknown type (Null): the parameter schema of a prepared statement. */
export function parameterSchemaBytes(n: number): Uint8Array {
  const fields = Array.from({ length: n }, (_, i) => new arrow.Field(`$${i + 1}`, new arrow.Null(), true));
  return schemaBytes(new arrow.Schema(fields));
}

function splitStream(bytes: Uint8Array): IpcMessage[] {
  return new IpcMessageSplitter().push(bytes);
}

/** A parameter batch can't be bound (several rows, a type floe has no literal for). */
export class ParameterError extends Error {}

/**
 * The values of a one-row parameter batch (DoPut's FlightData, as messages): columns named `$1…$n` bind
 * positionally (in their number's order), any other names bind `:name` (Spice's SDK sends bare names). Integers
 * past 2^53 become strings, dates `YYYY-MM-DD`, timestamps ISO text: the engine types untyped strings by context.
 */
export function readParameters(messages: readonly IpcMessage[]): ParamValues | undefined {
  const stream = concat(messages.map(frameIpcMessage));
  const table = arrow.tableFromIPC(stream);
  if (table.numCols === 0) return undefined;
  if (table.numRows !== 1) {
    throw new ParameterError(`a parameter batch of ${table.numRows} rows is not supported yet (send one row)`);
  }
  const entries = table.schema.fields.map((f, i) => [f.name, paramValue(f, table.getChildAt(i)?.get(0))] as const);
  if (entries.every(([name]) => /^\$\d+$/.test(name))) {
    const values: unknown[] = [];
    for (const [name, value] of entries) values[Number(name.slice(1)) - 1] = value;
    return Array.from(values, (v) => (v === undefined ? null : v));
  }
  return Object.fromEntries(entries.map(([name, value]) => [name.replace(/^[$:]/, ''), value]));
}

function paramValue(field: arrow.Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const type = field.type;
  if (arrow.DataType.isDate(type)) return new Date(Number(value)).toISOString().slice(0, 10);
  if (arrow.DataType.isTimestamp(type)) return new Date(Number(value)).toISOString();
  if (typeof value === 'bigint') return value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : String(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new ParameterError(`parameter ${field.name} of type ${String(type)} is not supported yet`);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
