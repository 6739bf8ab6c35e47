// What every TPC-H table generator shares: the table names and chunks, the cardinalities at a scale factor,
// the column helpers, and the spec's formulas that tie tables together (retail price, part suppliers).
import type { ColumnInput, DataType } from '../../engine/index.js';
import type { TextPool } from './tpch-text.js';

export type TpchTable = 'region' | 'nation' | 'supplier' | 'part' | 'partsupp' | 'customer' | 'orders' | 'lineitem';
export const TPCH_TABLES: readonly TpchTable[] = [
  'region',
  'nation',
  'supplier',
  'part',
  'partsupp',
  'customer',
  'orders',
  'lineitem',
];

/** One unit of work: rows with 1-based keys [first, first + rows) of `kind`; an `orders` chunk also makes lineitem. */
export interface TpchChunk {
  readonly kind: Exclude<TpchTable, 'lineitem'>;
  readonly index: number;
  readonly first: number;
  readonly rows: number;
}

/** Base cardinalities at the given scale factor (spec 4.2.5; at least one row each). */
export interface TpchCounts {
  readonly supplier: number;
  readonly part: number;
  readonly customer: number;
  readonly orders: number;
}

export function tpchCounts(sf: number): TpchCounts {
  const n = (base: number) => Math.max(1, Math.floor(base * sf));
  return { supplier: n(10_000), part: n(200_000), customer: n(150_000), orders: n(1_500_000) };
}

export interface ChunkContext {
  readonly counts: TpchCounts;
  readonly pool: TextPool;
  /** The chunk's own seed: chunks are independent, so any thread may make any chunk. */
  readonly seed: number;
}

export const INT32: DataType = { id: 'int32' };
export const UTF8: DataType = { id: 'utf8' };
export const DATE: DataType = { id: 'date' };
export const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
export const col = (name: string, type: DataType, values: ColumnInput['values']): ColumnInput => ({
  name,
  type,
  nullable: false,
  values,
});

export const pad9 = (n: number) => String(n).padStart(9, '0');
export const map = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** p_retailprice in cents, a function of the key (spec 4.2.3). */
export const retailCents = (partkey: number) => 90_000 + (Math.floor(partkey / 10) % 20_001) + 100 * (partkey % 1000);

/** The `i`-th (0..3) supplier of a part (spec 4.2.3), as partsupp and lineitem both use it. */
export const partSupplier = (partkey: number, i: number, suppliers: number) =>
  ((partkey + i * (Math.floor(suppliers / 4) + Math.floor((partkey - 1) / suppliers))) % suppliers) + 1;
