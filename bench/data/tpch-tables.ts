// `generateChunk`: the rows of one slice of one TPC-H table (orders with their lineitems), following the spec's
// keys, formulas and value distributions (TPC-H 4.2.3); comments are slices of the grammar text pool.
import type { ColumnInput, DataType } from '../../engine/index.js';
import { makePrng, type Prng } from '../../server/sample/prng.js';
import {
  COLORS,
  CONTAINER_KINDS,
  CONTAINER_SIZES,
  INSTRUCTIONS,
  NATIONS,
  PRIORITIES,
  REGIONS,
  SEGMENTS,
  SHIP_MODES,
  TYPE_FINISHES,
  TYPE_METALS,
  TYPE_SIZES,
} from './tpch-dists.js';
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

const INT32: DataType = { id: 'int32' };
const UTF8: DataType = { id: 'utf8' };
const DATE: DataType = { id: 'date' };
const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
const col = (name: string, type: DataType, values: ColumnInput['values']): ColumnInput => ({
  name,
  type,
  nullable: false,
  values,
});

/** 1992-01-01, 1995-06-17 and 1998-12-31 as days since 1970-01-01 (STARTDATE, CURRENTDATE, ENDDATE). */
const START_DAY = 8035;
const CURRENT_DAY = 9298;
const END_DAY = 10591;

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

const pad9 = (n: number) => String(n).padStart(9, '0');
const phone = (rng: Prng, nation: number) =>
  `${nation + 10}-${rng.int(100, 999)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;
const map = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

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

/** p_retailprice in cents, a function of the key (spec 4.2.3). */
export const retailCents = (partkey: number) => 90_000 + (Math.floor(partkey / 10) % 20_001) + 100 * (partkey % 1000);

/** The `i`-th (0..3) supplier of a part (spec 4.2.3), as partsupp and lineitem both use it. */
export const partSupplier = (partkey: number, i: number, suppliers: number) =>
  ((partkey + i * (Math.floor(suppliers / 4) + Math.floor((partkey - 1) / suppliers))) % suppliers) + 1;

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

/** Order keys are sparse: of every 32 keys only the first 8 are used (spec 4.2.3, dbgen's mk_sparse). */
export const orderKey = (index: number) => ((index >> 3) << 5) | (index & 7);

/**
 * A third of the customers (keys divisible by 3) never order, which Q13 and Q22 count. As in dbgen, a draw
 * of such a key moves to its neighbour (+1, or -1 at the end), so keys ≡ 1 (mod 3) get twice the orders of
 * keys ≡ 2: Q13's distribution of orders per customer depends on it.
 */
function orderingCustomer(key: number, customers: number): number {
  let delta = 1;
  while (key % 3 === 0) {
    key = Math.min(key + delta, customers);
    delta = -delta;
  }
  return key;
}

/** `indexes` are 1-based order numbers; each order gets 1-7 lineitems, and its status and total from them. */
function ordersAndLineitem(indexes: Int32Array, rng: Prng, ctx: ChunkContext): Map<TpchTable, ColumnInput[]> {
  const n = indexes.length;
  const { counts, pool } = ctx;
  const o = {
    key: indexes.map(orderKey),
    cust: new Int32Array(n),
    status: new Array<string>(n),
    total: new Int32Array(n),
    date: new Int32Array(n),
  };
  const cap = n * 7;
  const l = {
    order: new Int32Array(cap),
    part: new Int32Array(cap),
    supp: new Int32Array(cap),
    line: new Int32Array(cap),
    qty: new Int32Array(cap),
    price: new Int32Array(cap),
    disc: new Int32Array(cap),
    tax: new Int32Array(cap),
    flag: [] as string[],
    status: [] as string[],
    ship: new Int32Array(cap),
    commit: new Int32Array(cap),
    receipt: new Int32Array(cap),
    instruct: [] as string[],
    mode: [] as string[],
    comment: [] as string[],
  };
  let m = 0;
  for (let i = 0; i < n; i++) {
    o.cust[i] = orderingCustomer(rng.int(1, counts.customer), counts.customer);
    const date = rng.int(START_DAY, END_DAY - 151);
    o.date[i] = date;
    let total = 0;
    let shipped = 0;
    const lines = rng.int(1, 7);
    for (let k = 0; k < lines; k++, m++) {
      const partkey = rng.int(1, counts.part);
      const qty = rng.int(1, 50);
      const price = qty * retailCents(partkey);
      const disc = rng.int(0, 10);
      const tax = rng.int(0, 8);
      const ship = date + rng.int(1, 121);
      const receipt = ship + rng.int(1, 30);
      l.order[m] = o.key[i]!;
      l.part[m] = partkey;
      l.supp[m] = partSupplier(partkey, rng.int(0, 3), counts.supplier);
      l.line[m] = k + 1;
      l.qty[m] = qty * 100;
      l.price[m] = price;
      l.disc[m] = disc;
      l.tax[m] = tax;
      l.ship[m] = ship;
      l.commit[m] = date + rng.int(30, 90);
      l.receipt[m] = receipt;
      l.flag.push(receipt <= CURRENT_DAY ? (rng.next() < 0.5 ? 'R' : 'A') : 'N');
      l.status.push(ship > CURRENT_DAY ? 'O' : 'F');
      l.instruct.push(rng.pick(INSTRUCTIONS));
      l.mode.push(rng.pick(SHIP_MODES));
      l.comment.push(pool.text(rng, 10, 43));
      // dbgen's integer arithmetic in cents: price × (1 − discount) × (1 + tax), truncating each step.
      total += Math.floor((Math.floor((price * (100 - disc)) / 100) * (100 + tax)) / 100);
      if (ship <= CURRENT_DAY) shipped++;
    }
    o.total[i] = total;
    o.status[i] = shipped === lines ? 'F' : shipped === 0 ? 'O' : 'P';
  }
  const cut = (a: Int32Array) => a.subarray(0, m);
  const orders = [
    col('o_orderkey', INT32, o.key),
    col('o_custkey', INT32, o.cust),
    col('o_orderstatus', UTF8, o.status),
    col('o_totalprice', MONEY, o.total),
    col('o_orderdate', DATE, o.date),
    col(
      'o_orderpriority',
      UTF8,
      map(n, () => rng.pick(PRIORITIES)),
    ),
    col(
      'o_clerk',
      UTF8,
      map(n, () => `Clerk#${pad9(rng.int(1, Math.max(1000, Math.floor(counts.supplier / 10))))}`),
    ),
    col('o_shippriority', INT32, new Int32Array(n)),
    col(
      'o_comment',
      UTF8,
      map(n, () => pool.text(rng, 19, 78)),
    ),
  ];
  const lineitem = [
    col('l_orderkey', INT32, cut(l.order)),
    col('l_partkey', INT32, cut(l.part)),
    col('l_suppkey', INT32, cut(l.supp)),
    col('l_linenumber', INT32, cut(l.line)),
    col('l_quantity', MONEY, cut(l.qty)),
    col('l_extendedprice', MONEY, cut(l.price)),
    col('l_discount', MONEY, cut(l.disc)),
    col('l_tax', MONEY, cut(l.tax)),
    col('l_returnflag', UTF8, l.flag),
    col('l_linestatus', UTF8, l.status),
    col('l_shipdate', DATE, cut(l.ship)),
    col('l_commitdate', DATE, cut(l.commit)),
    col('l_receiptdate', DATE, cut(l.receipt)),
    col('l_shipinstruct', UTF8, l.instruct),
    col('l_shipmode', UTF8, l.mode),
    col('l_comment', UTF8, l.comment),
  ];
  return new Map([
    ['orders', orders],
    ['lineitem', lineitem],
  ]);
}
