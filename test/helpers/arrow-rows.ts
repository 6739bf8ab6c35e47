// Arrow tables read back by apache-arrow, as the canonical cell text floe and the oracles print (for format tests).
import * as arrow from 'apache-arrow';
import type { ResultRows } from '../../bench/lib/result-rows.js';
import { formatInterval } from '../../engine/plan/interval-text.js';
import { formatDate, formatTimestamp } from '../../engine/plan/values.js';

/**
 * A cell as floe's `cellText` spells it, read from the Arrow buffers themselves (decimals from their 128-bit words,
 * dates as days, timestamps as microseconds, intervals as months/days/nanoseconds): null for NULL, booleans as
 * booleans when `booleans`, else `true`/`false`.
 */
export function arrowCellText(col: arrow.Vector, i: number, booleans = false): string | boolean | null {
  const type = col.type as arrow.DataType;
  if (type.typeId === arrow.Type.Null || !col.isValid(i)) return null;
  const data = col.data[0]!;
  switch (type.typeId) {
    case arrow.Type.Decimal: {
      const words = data.values as Uint32Array;
      let v = 0n;
      for (let w = 3; w >= 0; w--) v = (v << 32n) | BigInt(words[i * 4 + w]!);
      return scaledText(BigInt.asIntN(128, v), (type as arrow.Decimal).scale);
    }
    case arrow.Type.Date:
      return formatDate((data.values as Int32Array)[i]!);
    case arrow.Type.Timestamp:
      return formatTimestamp(Number((data.values as BigInt64Array)[i]!));
    case arrow.Type.Interval: {
      const w = data.values as Int32Array;
      const nanos = new BigInt64Array(w.buffer, w.byteOffset + i * 16 + 8, 1)[0]!;
      return formatInterval({ months: w[i * 4]!, days: w[i * 4 + 1]!, micros: Number(nanos / 1000n) });
    }
    case arrow.Type.Bool:
      return booleans ? (col.get(i) as boolean) : String(col.get(i));
    default:
      return String(col.get(i));
  }
}

function scaledText(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${text}` : text;
}

/** Every row of `table` as an object of `arrowCellText` values (booleans kept as booleans, as JSON has them). */
export function arrowObjects(table: arrow.Table): Record<string, string | boolean | null>[] {
  const rows: Record<string, string | boolean | null>[] = [];
  for (const batch of table.batches) {
    const cols = batch.schema.fields.map((_, c) => batch.getChildAt(c)!);
    for (let i = 0; i < batch.numRows; i++) {
      const row: Record<string, string | boolean | null> = {};
      batch.schema.fields.forEach((f, c) => {
        row[f.name] = arrowCellText(cols[c]!, i, true);
      });
      rows.push(row);
    }
  }
  return rows;
}

/** `table` as text rows that `compareRows` compares with an oracle's. */
export function arrowTextRows(table: arrow.Table): ResultRows {
  const rows: (string | null)[][] = [];
  for (const batch of table.batches) {
    const cols = batch.schema.fields.map((_, c) => batch.getChildAt(c)!);
    for (let i = 0; i < batch.numRows; i++) rows.push(cols.map((c) => arrowCellText(c, i) as string | null));
  }
  return {
    names: table.schema.fields.map((f) => f.name),
    floats: table.schema.fields.map((f) => f.type.typeId === arrow.Type.Float),
    rows,
  };
}

/** DuckDB's name for an Arrow field's type (`DECIMAL(15,2)`, `TIMESTAMP WITH TIME ZONE`, ...). */
export function duckTypeOf(type: arrow.DataType): string {
  switch (type.typeId) {
    case arrow.Type.Int:
      return (type as arrow.Int).bitWidth === 64
        ? 'BIGINT'
        : (type as arrow.Int).bitWidth === 16
          ? 'SMALLINT'
          : 'INTEGER';
    case arrow.Type.Float:
      return 'DOUBLE';
    case arrow.Type.Decimal:
      return `DECIMAL(${(type as arrow.Decimal).precision},${(type as arrow.Decimal).scale})`;
    case arrow.Type.Utf8:
      return 'VARCHAR';
    case arrow.Type.Date:
      return 'DATE';
    case arrow.Type.Timestamp:
      return (type as arrow.Timestamp).timezone ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP';
    case arrow.Type.Bool:
      return 'BOOLEAN';
    case arrow.Type.Interval:
      return 'INTERVAL';
    default:
      return String(type);
  }
}
