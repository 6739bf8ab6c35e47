// Canonical text of a value (PostgreSQL's output forms), for serializers, EXPLAIN and CAST to text.
import type { DataType } from '../plan/types.js';
import { formatDate, formatDecimal, formatFloat, formatTimestamp } from '../plan/values.js';
import { type Column, decodedStrings, decodeRange, exactAt, strings, utf8BytesOf } from './column.js';

export { formatFloat };

/** Text of row i, or null when the value is NULL. */
export function cellText(col: Column, i: number): string | null {
  if (col.valid !== null && col.valid[i] === 0) return null;
  return valueText(col.type, col, i);
}

function valueText(type: DataType, col: Column, i: number): string | null {
  switch (type.id) {
    case 'null':
      return null;
    case 'bool':
      return (col.values as Uint8Array)[i] ? 'true' : 'false';
    case 'int32':
      return String((col.values as Int32Array)[i]);
    case 'int64':
      return String(exactAt(col, i));
    case 'float64':
      return formatFloat((col.values as Float64Array)[i] as number);
    case 'decimal':
      return formatDecimal(exactAt(col, i), type.scale);
    case 'utf8': {
      // Decoded strings when the column has them; else just this row (a result of a few rows is never decoded
      // whole, and a serializer reads each row once anyway).
      const bytes = decodedStrings(col) === null ? utf8BytesOf(col) : null;
      if (bytes === null) return strings(col)[i] as string;
      return decodeRange(bytes.bytes, bytes.offsets[i] as number, bytes.offsets[i + 1] as number);
    }
    case 'date':
      return formatDate((col.values as Int32Array)[i] as number);
    case 'timestamp':
      return formatTimestamp((col.values as Float64Array)[i] as number);
    case 'interval':
      // Interval columns hold PostgreSQL's text of each value (plan/interval-text.ts).
      return strings(col)[i] as string;
  }
}

/** How a value of this type is written in JSON: bare number, bare boolean or quoted string. */
export function jsonKind(type: DataType): 'number' | 'bool' | 'string' {
  switch (type.id) {
    case 'int32':
    case 'int64':
    case 'decimal':
    case 'float64':
      return 'number';
    case 'bool':
      return 'bool';
    default:
      return 'string';
  }
}
