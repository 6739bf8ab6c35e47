// `getSqlInfo`: Flight SQL's CommandGetSqlInfo answer: server name, version, read-only, SQL dialect facts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as arrow from 'apache-arrow';
import { resultMessages } from './arrow-results.js';
import type { IpcMessage } from './ipc-messages.js';

const require = createRequire(import.meta.url);
const FLOE_VERSION = (require('../../../package.json') as { version: string }).version;
// apache-arrow's exports map hides its package.json: read it beside the resolved entry point.
const ARROW_VERSION = (
  JSON.parse(readFileSync(join(dirname(require.resolve('apache-arrow')), 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The union's members in the spec's order (type ids 0..5). */
const STRING = 0;
const BOOL = 1;
const INT32 = 3;

/** What floe answers, by SqlInfo id: [member, value]. PostgreSQL folds identifiers to lower case, NULLs sort high. */
const INFO: ReadonlyMap<number, readonly [number, string | boolean | number]> = new Map([
  [0, [STRING, 'floe']], // FLIGHT_SQL_SERVER_NAME
  [1, [STRING, FLOE_VERSION]], // FLIGHT_SQL_SERVER_VERSION
  [2, [STRING, ARROW_VERSION]], // FLIGHT_SQL_SERVER_ARROW_VERSION
  [3, [BOOL, false]], // FLIGHT_SQL_SERVER_READ_ONLY: INSERT into Iceberg tables (keys that may write)
  [4, [BOOL, true]], // FLIGHT_SQL_SERVER_SQL
  [5, [BOOL, false]], // FLIGHT_SQL_SERVER_SUBSTRAIT
  [8, [INT32, 0]], // FLIGHT_SQL_SERVER_TRANSACTION: none
  [9, [BOOL, false]], // FLIGHT_SQL_SERVER_CANCEL (cancelling the DoGet call cancels the query)
  [503, [INT32, 3]], // SQL_IDENTIFIER_CASE: SQL_CASE_SENSITIVITY_LOWERCASE (unquoted names fold)
  [504, [STRING, '"']], // SQL_IDENTIFIER_QUOTE_CHAR
  [507, [INT32, 0]], // SQL_NULL_ORDERING: sorted high
]);

/** The `value` column's type: dense_union<string_value, bool_value, bigint_value, int32_bitmask, string_list, map>. */
function valueType(): arrow.DenseUnion {
  const list = (name: string, item: arrow.DataType) => new arrow.List(new arrow.Field(name, item, true));
  const entries = new arrow.Struct([
    new arrow.Field('key', new arrow.Int32(), false),
    new arrow.Field('value', list('item', new arrow.Int32()), true),
  ]);
  return new arrow.DenseUnion(
    [0, 1, 2, 3, 4, 5],
    [
      new arrow.Field('string_value', new arrow.Utf8(), true),
      new arrow.Field('bool_value', new arrow.Bool(), true),
      new arrow.Field('bigint_value', new arrow.Int64(), true),
      new arrow.Field('int32_bitmask', new arrow.Int32(), true),
      new arrow.Field('string_list', list('item', new arrow.Utf8()), true),
      new arrow.Field('int32_to_int32_list_map', new arrow.Map_(new arrow.Field('entries', entries, false)), true),
    ],
  );
}

/** `info_name, value` for each requested id floe knows (all of them when `ids` is empty), in id order. */
export function getSqlInfo(ids: readonly number[]): IpcMessage[] {
  const wanted = [...INFO.keys()].filter((id) => ids.length === 0 || ids.includes(id)).sort((a, b) => a - b);
  const type = valueType();
  const members: unknown[][] = type.children.map(() => []);
  const typeIds = new Int8Array(wanted.length);
  const offsets = new Int32Array(wanted.length);
  wanted.forEach((id, row) => {
    const [member, value] = INFO.get(id) as readonly [number, unknown];
    typeIds[row] = member;
    offsets[row] = (members[member] as unknown[]).push(value) - 1;
  });
  const children = type.children.map((f, i) => arrow.vectorFromArray(members[i] as unknown[], f.type).data[0]!);
  const data = arrow.makeData({ type, length: wanted.length, typeIds, valueOffsets: offsets, children });
  return resultMessages([
    { field: new arrow.Field('info_name', new arrow.Uint32(), false), values: wanted },
    { field: new arrow.Field('value', type, false), data },
  ]);
}
