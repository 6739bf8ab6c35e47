// Orders and their lineitems, made together: an order's status and total price come from its lines.
import type { ColumnInput } from '../../engine/index.js';
import type { Prng } from '../../server/sample/prng.js';
import {
  type ChunkContext,
  col,
  DATE,
  INT32,
  MONEY,
  map,
  pad9,
  partSupplier,
  retailCents,
  type TpchTable,
  UTF8,
} from './tpch-columns.js';
import { INSTRUCTIONS, PRIORITIES, SHIP_MODES } from './tpch-dists.js';

/** 1992-01-01, 1995-06-17 and 1998-12-31 as days since 1970-01-01 (STARTDATE, CURRENTDATE, ENDDATE). */
const START_DAY = 8035;
const CURRENT_DAY = 9298;
const END_DAY = 10591;

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
export function ordersAndLineitem(indexes: Int32Array, rng: Prng, ctx: ChunkContext): Map<TpchTable, ColumnInput[]> {
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
