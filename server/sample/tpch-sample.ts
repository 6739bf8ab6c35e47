// `makeTpchSample`: small deterministic TPC-H tables (region 5, nation 25, ... lineitem ~6000 rows).
import { makePrng, type Prng } from './prng.js';
import { DATE, INT32, MONEY, makeSampleTable, type SampleTable, UTF8 } from './sample-table.js';

export const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];
// TPC-H's fixed nation list: [name, region key].
export const NATIONS: readonly (readonly [string, number])[] = [
  ['ALGERIA', 0],
  ['ARGENTINA', 1],
  ['BRAZIL', 1],
  ['CANADA', 1],
  ['EGYPT', 4],
  ['ETHIOPIA', 0],
  ['FRANCE', 3],
  ['GERMANY', 3],
  ['INDIA', 2],
  ['INDONESIA', 2],
  ['IRAN', 4],
  ['IRAQ', 4],
  ['JAPAN', 2],
  ['JORDAN', 4],
  ['KENYA', 0],
  ['MOROCCO', 0],
  ['MOZAMBIQUE', 0],
  ['PERU', 1],
  ['CHINA', 2],
  ['ROMANIA', 3],
  ['SAUDI ARABIA', 4],
  ['VIETNAM', 2],
  ['RUSSIA', 3],
  ['UNITED KINGDOM', 3],
  ['UNITED STATES', 1],
];
const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD', 'MACHINERY'];
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];
const SHIP_MODES = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const INSTRUCTIONS = ['COLLECT COD', 'DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN'];
const CONTAINERS = ['SM BOX', 'SM CASE', 'MED BAG', 'MED BOX', 'LG CASE', 'LG PACK', 'JUMBO JAR', 'WRAP DRUM'];
const TYPES = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'];
const FINISHES = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'];
const METALS = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'];
const COLORS = ['almond', 'azure', 'blush', 'chartreuse', 'firebrick', 'khaki', 'lavender', 'navy', 'olive', 'peru'];
const WORDS = ['carefully', 'final', 'deposits', 'furiously', 'ironic', 'packages', 'quickly', 'regular', 'requests'];

const COUNTS = { supplier: 10, part: 200, customer: 150, orders: 1500 };
/** 1992-01-01 as days since 1970-01-01; order dates fall in the 7 years after it. */
const START_DAY = 8035;

/** All eight TPC-H tables, generated from a fixed seed (the same bytes on every run and machine). */
export function makeTpchSample(seed = 42): SampleTable[] {
  const rng = makePrng(seed);
  return [region(rng), nation(rng), supplier(rng), part(rng), partsupp(rng), customer(rng), ...ordersAndLineitem(rng)];
}

function comment(rng: Prng): string {
  return Array.from({ length: rng.int(3, 7) }, () => rng.pick(WORDS)).join(' ');
}

const key = (i: number) => i + 1;
const phone = (rng: Prng, nation: number) =>
  `${10 + nation}-${rng.int(100, 999)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;

function region(rng: Prng): SampleTable {
  return makeSampleTable('region', REGIONS.length, [
    ['r_regionkey', INT32, (i) => i],
    ['r_name', UTF8, (i) => REGIONS[i] as string],
    ['r_comment', UTF8, () => comment(rng)],
  ]);
}

function nation(rng: Prng): SampleTable {
  return makeSampleTable('nation', NATIONS.length, [
    ['n_nationkey', INT32, (i) => i],
    ['n_name', UTF8, (i) => NATIONS[i]?.[0] as string],
    ['n_regionkey', INT32, (i) => NATIONS[i]?.[1] as number],
    ['n_comment', UTF8, () => comment(rng)],
  ]);
}

function supplier(rng: Prng): SampleTable {
  const nations = Array.from({ length: COUNTS.supplier }, () => rng.int(0, 24));
  return makeSampleTable('supplier', COUNTS.supplier, [
    ['s_suppkey', INT32, key],
    ['s_name', UTF8, (i) => `Supplier#${String(key(i)).padStart(9, '0')}`],
    ['s_address', UTF8, () => `${rng.int(1, 999)} ${rng.pick(COLORS)} street`],
    ['s_nationkey', INT32, (i) => nations[i] as number],
    ['s_phone', UTF8, (i) => phone(rng, nations[i] as number)],
    ['s_acctbal', MONEY, () => rng.int(-99_999, 999_999)],
    ['s_comment', UTF8, () => comment(rng)],
  ]);
}

function part(rng: Prng): SampleTable {
  return makeSampleTable('part', COUNTS.part, [
    ['p_partkey', INT32, key],
    ['p_name', UTF8, () => `${rng.pick(COLORS)} ${rng.pick(COLORS)} ${rng.pick(COLORS)}`],
    ['p_mfgr', UTF8, (i) => `Manufacturer#${(i % 5) + 1}`],
    ['p_brand', UTF8, (i) => `Brand#${(i % 5) + 1}${(i % 7) + 1}`],
    ['p_type', UTF8, () => `${rng.pick(TYPES)} ${rng.pick(FINISHES)} ${rng.pick(METALS)}`],
    ['p_size', INT32, () => rng.int(1, 50)],
    ['p_container', UTF8, () => rng.pick(CONTAINERS)],
    // TPC-H: retail price = (90000 + (key/10) mod 20001 + 100 * (key mod 1000)) / 100
    ['p_retailprice', MONEY, (i) => 90_000 + (Math.floor(key(i) / 10) % 20_001) + 100 * (key(i) % 1000)],
    ['p_comment', UTF8, () => comment(rng)],
  ]);
}

function partsupp(rng: Prng): SampleTable {
  const perPart = 4;
  return makeSampleTable('partsupp', COUNTS.part * perPart, [
    ['ps_partkey', INT32, (i) => Math.floor(i / perPart) + 1],
    ['ps_suppkey', INT32, (i) => ((Math.floor(i / perPart) + (i % perPart) * 3) % COUNTS.supplier) + 1],
    ['ps_availqty', INT32, () => rng.int(1, 9999)],
    ['ps_supplycost', MONEY, () => rng.int(100, 100_000)],
    ['ps_comment', UTF8, () => comment(rng)],
  ]);
}

function customer(rng: Prng): SampleTable {
  const nations = Array.from({ length: COUNTS.customer }, () => rng.int(0, 24));
  return makeSampleTable('customer', COUNTS.customer, [
    ['c_custkey', INT32, key],
    ['c_name', UTF8, (i) => `Customer#${String(key(i)).padStart(9, '0')}`],
    ['c_address', UTF8, () => `${rng.int(1, 999)} ${rng.pick(COLORS)} avenue`],
    ['c_nationkey', INT32, (i) => nations[i] as number],
    ['c_phone', UTF8, (i) => phone(rng, nations[i] as number)],
    ['c_acctbal', MONEY, () => rng.int(-99_999, 999_999)],
    ['c_mktsegment', UTF8, () => rng.pick(SEGMENTS)],
    ['c_comment', UTF8, () => comment(rng)],
  ]);
}

interface Line {
  order: number;
  number: number;
  part: number;
  quantity: number;
  price: number;
  discount: number;
  tax: number;
  ship: number;
}

function ordersAndLineitem(rng: Prng): SampleTable[] {
  const lines: Line[] = [];
  const orderDates: number[] = [];
  const totals: number[] = [];
  for (let o = 0; o < COUNTS.orders; o++) {
    const date = START_DAY + rng.int(0, 2405);
    let total = 0;
    for (let n = 1, count = rng.int(1, 7); n <= count; n++) {
      const partKey = rng.int(1, COUNTS.part);
      const quantity = rng.int(1, 50);
      const line = { order: o + 1, number: n, part: partKey, quantity, price: quantity * (90_000 + partKey * 100) };
      const full = { ...line, discount: rng.int(0, 10), tax: rng.int(0, 8), ship: date + rng.int(1, 121) };
      lines.push(full);
      total += Math.round((full.price * (100 - full.discount) * (100 + full.tax)) / 10_000);
    }
    orderDates.push(date);
    totals.push(total);
  }
  return [orders(rng, orderDates, totals), lineitem(rng, lines)];
}

function orders(rng: Prng, dates: readonly number[], totals: readonly number[]): SampleTable {
  return makeSampleTable('orders', dates.length, [
    ['o_orderkey', INT32, key],
    ['o_custkey', INT32, () => rng.int(1, COUNTS.customer)],
    [
      'o_orderstatus',
      UTF8,
      (i) => ((dates[i] as number) < START_DAY + 1200 ? 'F' : (dates[i] as number) > START_DAY + 1300 ? 'O' : 'P'),
    ],
    ['o_totalprice', MONEY, (i) => totals[i] as number],
    ['o_orderdate', DATE, (i) => dates[i] as number],
    ['o_orderpriority', UTF8, () => rng.pick(PRIORITIES)],
    ['o_clerk', UTF8, () => `Clerk#${String(rng.int(1, 1000)).padStart(9, '0')}`],
    ['o_shippriority', INT32, () => 0],
    ['o_comment', UTF8, () => comment(rng)],
  ]);
}

function lineitem(rng: Prng, lines: readonly Line[]): SampleTable {
  const at = (i: number) => lines[i] as Line;
  const shipped = (i: number) => at(i).ship <= START_DAY + 1260;
  return makeSampleTable('lineitem', lines.length, [
    ['l_orderkey', INT32, (i) => at(i).order],
    ['l_partkey', INT32, (i) => at(i).part],
    ['l_suppkey', INT32, (i) => ((at(i).part + at(i).number) % COUNTS.supplier) + 1],
    ['l_linenumber', INT32, (i) => at(i).number],
    ['l_quantity', MONEY, (i) => at(i).quantity * 100],
    ['l_extendedprice', MONEY, (i) => at(i).price],
    ['l_discount', MONEY, (i) => at(i).discount],
    ['l_tax', MONEY, (i) => at(i).tax],
    ['l_returnflag', UTF8, (i) => (shipped(i) ? rng.pick(['R', 'A']) : 'N')],
    ['l_linestatus', UTF8, (i) => (shipped(i) ? 'F' : 'O')],
    ['l_shipdate', DATE, (i) => at(i).ship],
    ['l_commitdate', DATE, (i) => at(i).ship + rng.int(-30, 30)],
    ['l_receiptdate', DATE, (i) => at(i).ship + rng.int(1, 30)],
    ['l_shipinstruct', UTF8, () => rng.pick(INSTRUCTIONS)],
    ['l_shipmode', UTF8, () => rng.pick(SHIP_MODES)],
    ['l_comment', UTF8, () => comment(rng)],
  ]);
}
