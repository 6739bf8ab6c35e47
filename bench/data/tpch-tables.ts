// `generateChunk`: the rows of one slice of one TPC-H table (orders with their lineitems), following the spec's
// keys, formulas and value distributions (TPC-H 4.2.3); comments are slices of the grammar text pool.
import type { ColumnInput } from '../../engine/index.js';
import { makePrng, type Prng } from '../../server/sample/prng.js';
import {
  type ChunkContext,
  col,
  INT32,
  MONEY,
  map,
  pad9,
  partSupplier,
  retailCents,
  type TpchChunk,
  type TpchTable,
  UTF8,
} from './tpch-columns.js';
import {
  COLORS,
  CONTAINER_KINDS,
  CONTAINER_SIZES,
  NATIONS,
  REGIONS,
  SEGMENTS,
  TYPE_FINISHES,
  TYPE_METALS,
  TYPE_SIZES,
} from './tpch-dists.js';
import { ordersAndLineitem } from './tpch-orders.js';
import type { TextPool } from './tpch-text.js';

/** The columns of every table the chunk fills (one, or orders and lineitem). */
export function generateChunk(chunk: TpchChunk, ctx: ChunkContext): Map<TpchTable, ColumnInput[]> {
  const rng = makePrng(ctx.seed);
  const keys = Int32Array.from({ length: chunk.rows }, (_, i) => chunk.first + i);
  switch (chunk.kind) {
    case 'region':
      return new Map([['region', region(rng, ctx.pool)]]);
    case 'nation':
      return new Map([['nation', nation(rng, ctx.pool)]]);
    case 'supplier':
      return new Map([['supplier', supplier(keys, rng, ctx.pool)]]);
    case 'part':
      return new Map([['part', part(keys, rng, ctx.pool)]]);
    case 'partsupp':
      return new Map([['partsupp', partsupp(keys, rng, ctx)]]);
    case 'customer':
      return new Map([['customer', customer(keys, rng, ctx.pool)]]);
    case 'orders':
      return ordersAndLineitem(keys, rng, ctx);
  }
}

const phone = (rng: Prng, nation: number) =>
  `${nation + 10}-${rng.int(100, 999)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;

function region(rng: Prng, pool: TextPool): ColumnInput[] {
  return [
    col(
      'r_regionkey',
      INT32,
      Int32Array.from(REGIONS, (_, i) => i),
    ),
    col('r_name', UTF8, [...REGIONS]),
    col(
      'r_comment',
      UTF8,
      map(REGIONS.length, () => pool.text(rng, 31, 115)),
    ),
  ];
}

function nation(rng: Prng, pool: TextPool): ColumnInput[] {
  return [
    col(
      'n_nationkey',
      INT32,
      Int32Array.from(NATIONS, (_, i) => i),
    ),
    col(
      'n_name',
      UTF8,
      NATIONS.map(([name]) => name),
    ),
    col(
      'n_regionkey',
      INT32,
      Int32Array.from(NATIONS, ([, region]) => region),
    ),
    col(
      'n_comment',
      UTF8,
      map(NATIONS.length, () => pool.text(rng, 31, 114)),
    ),
  ];
}

function supplier(keys: Int32Array, rng: Prng, pool: TextPool): ColumnInput[] {
  const n = keys.length;
  const nations = Int32Array.from(keys, () => rng.int(0, 24));
  const comments = map(n, () => pool.text(rng, 25, 100));
  // Q16's complaints: about 5 in 10,000 suppliers say "Customer … Complaints" (and as many "… Recommends").
  const special = Math.max(1, Math.round((n * 5) / 10_000));
  for (let k = 0; k < 2 * special && k < n; k++) {
    const row = rng.int(0, n - 1);
    comments[row] = customerRemark(rng, comments[row]!, k < special ? 'Complaints' : 'Recommends');
  }
  return [
    col('s_suppkey', INT32, keys),
    col(
      's_name',
      UTF8,
      map(n, (i) => `Supplier#${pad9(keys[i]!)}`),
    ),
    col(
      's_address',
      UTF8,
      map(n, () => pool.chars(rng, 10, 40)),
    ),
    col('s_nationkey', INT32, nations),
    col(
      's_phone',
      UTF8,
      map(n, (i) => phone(rng, nations[i]!)),
    ),
    col(
      's_acctbal',
      MONEY,
      Int32Array.from(keys, () => rng.int(-99_999, 999_999)),
    ),
    col('s_comment', UTF8, comments),
  ];
}

/** dbgen overwrites part of the comment: "Customer " at a random place, the word some characters later. */
function customerRemark(rng: Prng, comment: string, word: string): string {
  const head = 'Customer ';
  const gap = rng.int(0, comment.length - head.length - word.length);
  const at = rng.int(0, comment.length - head.length - word.length - gap);
  const tail = at + head.length + gap;
  return comment.slice(0, at) + head + comment.slice(at + head.length, tail) + word + comment.slice(tail + word.length);
}

function part(keys: Int32Array, rng: Prng, pool: TextPool): ColumnInput[] {
  const n = keys.length;
  const mfgr = Int32Array.from(keys, () => rng.int(1, 5));
  return [
    col('p_partkey', INT32, keys),
    col(
      'p_name',
      UTF8,
      map(n, () => partName(rng)),
    ),
    col(
      'p_mfgr',
      UTF8,
      map(n, (i) => `Manufacturer#${mfgr[i]}`),
    ),
    col(
      'p_brand',
      UTF8,
      map(n, (i) => `Brand#${mfgr[i]}${rng.int(1, 5)}`),
    ),
    col(
      'p_type',
      UTF8,
      map(n, () => `${rng.pick(TYPE_SIZES)} ${rng.pick(TYPE_FINISHES)} ${rng.pick(TYPE_METALS)}`),
    ),
    col(
      'p_size',
      INT32,
      Int32Array.from(keys, () => rng.int(1, 50)),
    ),
    col(
      'p_container',
      UTF8,
      map(n, () => `${rng.pick(CONTAINER_SIZES)} ${rng.pick(CONTAINER_KINDS)}`),
    ),
    col('p_retailprice', MONEY, Int32Array.from(keys, retailCents)),
    col(
      'p_comment',
      UTF8,
      map(n, () => pool.text(rng, 5, 22)),
    ),
  ];
}

/** Five distinct colours. */
function partName(rng: Prng): string {
  const picked: string[] = [];
  while (picked.length < 5) {
    const c = rng.pick(COLORS);
    if (!picked.includes(c)) picked.push(c);
  }
  return picked.join(' ');
}

/** `keys` are part keys: four rows each, one per supplier of the part. */
function partsupp(keys: Int32Array, rng: Prng, ctx: ChunkContext): ColumnInput[] {
  const n = keys.length * 4;
  const partkeys = Int32Array.from({ length: n }, (_, i) => keys[i >> 2]!);
  return [
    col('ps_partkey', INT32, partkeys),
    col(
      'ps_suppkey',
      INT32,
      partkeys.map((p, i) => partSupplier(p, i & 3, ctx.counts.supplier)),
    ),
    col(
      'ps_availqty',
      INT32,
      Int32Array.from({ length: n }, () => rng.int(1, 9999)),
    ),
    col(
      'ps_supplycost',
      MONEY,
      Int32Array.from({ length: n }, () => rng.int(100, 100_000)),
    ),
    col(
      'ps_comment',
      UTF8,
      map(n, () => ctx.pool.text(rng, 49, 198)),
    ),
  ];
}

function customer(keys: Int32Array, rng: Prng, pool: TextPool): ColumnInput[] {
  const n = keys.length;
  const nations = Int32Array.from(keys, () => rng.int(0, 24));
  return [
    col('c_custkey', INT32, keys),
    col(
      'c_name',
      UTF8,
      map(n, (i) => `Customer#${pad9(keys[i]!)}`),
    ),
    col(
      'c_address',
      UTF8,
      map(n, () => pool.chars(rng, 10, 40)),
    ),
    col('c_nationkey', INT32, nations),
    col(
      'c_phone',
      UTF8,
      map(n, (i) => phone(rng, nations[i]!)),
    ),
    col(
      'c_acctbal',
      MONEY,
      Int32Array.from(keys, () => rng.int(-99_999, 999_999)),
    ),
    col(
      'c_mktsegment',
      UTF8,
      map(n, () => rng.pick(SEGMENTS)),
    ),
    col(
      'c_comment',
      UTF8,
      map(n, () => pool.text(rng, 29, 116)),
    ),
  ];
}
