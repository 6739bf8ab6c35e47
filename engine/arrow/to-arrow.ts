// floe values -> an Arrow IPC stream (for the Parquet writer): plain JS values per column, typed by floe types.
import * as arrow from 'apache-arrow';
import { NotSupportedError } from '../errors.js';
import { type DataType, typeName } from '../plan/types.js';

/** One column to write: decimals as scaled integers, dates as days, timestamps as microseconds. */
export interface ColumnInput {
  readonly name: string;
  readonly type: DataType;
  readonly values: ArrayLike<number | bigint | string | boolean | null>;
  readonly nullable?: boolean;
}

export function toArrowIPC(columns: readonly ColumnInput[]): Uint8Array {
  const vectors: Record<string, arrow.Vector> = {};
  for (const c of columns) vectors[c.name] = toVector(c);
  return arrow.tableToIPC(new arrow.Table(vectors), 'stream');
}

function toVector(c: ColumnInput): arrow.Vector {
  const n = c.values.length;
  const vals = c.values;
  const nullBitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    if (vals[i] === null || vals[i] === undefined) nullCount++;
    else nullBitmap[i >> 3]! |= 1 << (i & 7);
  }
  const base = { length: n, nullCount, nullBitmap: nullCount > 0 ? nullBitmap : undefined };
  const num = (i: number) => Number(vals[i] ?? 0);
  switch (c.type.id) {
    case 'bool':
      return arrow.vectorFromArray(Array.from(vals as ArrayLike<boolean | null>), new arrow.Bool());
    case 'int32':
      return arrow.makeVector(
        arrow.makeData({ ...base, type: new arrow.Int32(), data: Int32Array.from({ length: n }, (_, i) => num(i)) }),
      );
    case 'int64':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Int64(),
          data: BigInt64Array.from({ length: n }, (_, i) => BigInt(vals[i] ?? 0)),
        }),
      );
    case 'float64':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Float64(),
          data: Float64Array.from({ length: n }, (_, i) => num(i)),
        }),
      );
    case 'date':
      return arrow.makeVector(
        arrow.makeData({ ...base, type: new arrow.DateDay(), data: Int32Array.from({ length: n }, (_, i) => num(i)) }),
      );
    case 'timestamp':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.TimestampMicrosecond(c.type.tz),
          data: BigInt64Array.from({ length: n }, (_, i) => BigInt(Math.round(num(i)))),
        }),
      );
    case 'decimal': {
      const words = new Uint32Array(n * 4);
      for (let i = 0; i < n; i++) {
        const v = BigInt.asUintN(128, BigInt(vals[i] ?? 0));
        for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((v >> BigInt(32 * w)) & 0xffffffffn);
      }
      return arrow.makeVector(
        arrow.makeData({ ...base, type: new arrow.Decimal(c.type.scale, c.type.precision, 128), data: words }),
      );
    }
    case 'utf8':
      return arrow.vectorFromArray(Array.from(vals as ArrayLike<string | null>), new arrow.Utf8());
    default:
      throw new NotSupportedError(`cannot write ${typeName(c.type)} columns to Parquet yet`);
  }
}
