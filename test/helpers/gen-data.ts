// Seeded, deterministic Parquet test tables (`items`, `lineitem`, `specials`) shared by the slt and differential suites.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ColumnInput, type DataType, writeParquetFile } from '../../engine/index.js';

/** Bump when the generated data changes: expected outputs in .slt files depend on every value. */
export const DATA_VERSION = 1;
export const ITEMS_ROWS = 5_000;
export const ITEMS_ROW_GROUP_ROWS = 1_000;
export const LINEITEM_ROWS = 6_000;
export const LINEITEM_ROW_GROUP_ROWS = 1_500;

const INT32: DataType = { id: 'int32' };
const INT64: DataType = { id: 'int64' };
const FLOAT64: DataType = { id: 'float64' };
const UTF8: DataType = { id: 'utf8' };
const DATE: DataType = { id: 'date' };
const BOOL: DataType = { id: 'bool' };
const TIMESTAMP: DataType = { id: 'timestamp', tz: null };
const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
const RATE: DataType = { id: 'decimal', precision: 12, scale: 4 };

/** Awkward strings: unicode, quotes, LIKE metacharacters, padding, the empty string. */
export const NAMES = [
  'apple',
  'Apple',
  'APPLE pie',
  'banana',
  'cherry',
  'Zoë',
  'naïve café',
  '日本語',
  "O'Brien",
  'say "hi"',
  '',
  '  padded  ',
  '50% off',
  'a_b',
  'back\\slash',
  'x',
  'emoji 🚀',
  'Straße',
] as const;
export const CATEGORIES = ['alpha', 'beta', 'gamma', 'delta'] as const;

/** mulberry32: a small seeded PRNG in [0, 1). */
export function makeRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Days since 1970-01-01 for an ISO date. */
export const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** `items`: one column of every type, ~10% NULLs, int64 values beyond 2^53, five row groups. */
export function makeItems(rows = ITEMS_ROWS): ColumnInput[] {
  const rng = makeRng(20240501);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const maybe = <T>(v: T, pNull = 0.1): T | null => (rng() < pNull ? null : v);
  const firstDay = dayOf('1992-01-01');
  const spanDays = dayOf('1998-12-31') - firstDay;
  const cols = {
    id: [] as number[],
    grp: [] as (number | null)[],
    qty: [] as number[],
    big: [] as (bigint | null)[],
    f: [] as (number | null)[],
    price: [] as (number | null)[],
    rate: [] as (number | null)[],
    name: [] as (string | null)[],
    cat: [] as (string | null)[],
    d: [] as (number | null)[],
    ts: [] as (number | null)[],
    flag: [] as (boolean | null)[],
    nothing: [] as null[],
  };
  for (let i = 0; i < rows; i++) {
    cols.id.push(i + 1);
    cols.grp.push(maybe(int(0, 9)));
    cols.qty.push(int(1, 50));
    // 2% of values lie beyond 2^53 (not exact as doubles); sums stay inside int64.
    const huge = rng() < 0.02;
    const mag = huge ? 2n ** 53n + BigInt(int(1, 2 ** 30)) * 1024n + 1n : BigInt(int(0, 1e12));
    cols.big.push(maybe(rng() < 0.3 ? -mag : mag));
    cols.f.push(maybe((rng() - 0.3) * 10 ** int(0, 6)));
    cols.price.push(maybe(int(-1_000_000, 1_000_000_000)));
    cols.rate.push(maybe(int(0, 1_000_000)));
    cols.name.push(maybe(NAMES[int(0, NAMES.length - 1)]!));
    cols.cat.push(maybe(CATEGORIES[int(0, CATEGORIES.length - 1)]!, 0.05));
    // Dates rise with id (plus jitter) so that min/max statistics prune row groups.
    cols.d.push(maybe(firstDay + Math.min(spanDays, Math.floor((i / rows) * spanDays) + int(0, 20))));
    cols.ts.push(maybe((firstDay + int(0, spanDays)) * 86_400_000_000 + int(0, 86_400_000_000 - 1)));
    cols.flag.push(maybe(rng() < 0.5));
    cols.nothing.push(null);
  }
  return [
    { name: 'id', type: INT32, nullable: false, values: cols.id },
    { name: 'grp', type: INT32, values: cols.grp },
    { name: 'qty', type: INT32, nullable: false, values: cols.qty },
    { name: 'big', type: INT64, values: cols.big },
    { name: 'f', type: FLOAT64, values: cols.f },
    { name: 'price', type: MONEY, values: cols.price },
    { name: 'rate', type: RATE, values: cols.rate },
    { name: 'name', type: UTF8, values: cols.name },
    { name: 'cat', type: UTF8, values: cols.cat },
    { name: 'd', type: DATE, values: cols.d },
    { name: 'ts', type: TIMESTAMP, values: cols.ts },
    { name: 'flag', type: BOOL, values: cols.flag },
    { name: 'nothing', type: INT32, values: cols.nothing },
  ];
}

/** A mini TPC-H `lineitem` (no NULLs, shipdate ascending so Q6's date range prunes row groups and files). */
export function makeLineitem(rows = LINEITEM_ROWS): ColumnInput[] {
  const rng = makeRng(19920101);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)]!;
  const first = dayOf('1992-01-02');
  const span = dayOf('1998-12-01') - first;
  const c = {
    orderkey: [] as bigint[],
    linenumber: [] as number[],
    quantity: [] as number[],
    extendedprice: [] as number[],
    discount: [] as number[],
    tax: [] as number[],
    returnflag: [] as string[],
    linestatus: [] as string[],
    shipdate: [] as number[],
    shipmode: [] as string[],
  };
  let order = 1n;
  let line = 1;
  for (let i = 0; i < rows; i++) {
    if (line > int(1, 7)) {
      order += BigInt(int(1, 4));
      line = 1;
    }
    const qty = int(1, 50);
    const ship = first + Math.floor((i / rows) * span);
    c.orderkey.push(order);
    c.linenumber.push(line++);
    c.quantity.push(qty * 100);
    c.extendedprice.push(qty * int(90_000, 200_000));
    c.discount.push(int(0, 10));
    c.tax.push(int(0, 8));
    // As in TPC-H: lines shipped after 1995-06-17 are still open ('N', 'O').
    const open = ship > dayOf('1995-06-17');
    c.returnflag.push(open ? 'N' : pick(['A', 'R']));
    c.linestatus.push(open ? 'O' : 'F');
    c.shipdate.push(ship);
    c.shipmode.push(pick(['AIR', 'MAIL', 'RAIL', 'SHIP', 'TRUCK', 'REG AIR', 'FOB']));
  }
  return [
    { name: 'l_orderkey', type: INT64, nullable: false, values: c.orderkey },
    { name: 'l_linenumber', type: INT32, nullable: false, values: c.linenumber },
    { name: 'l_quantity', type: MONEY, nullable: false, values: c.quantity },
    { name: 'l_extendedprice', type: MONEY, nullable: false, values: c.extendedprice },
    { name: 'l_discount', type: MONEY, nullable: false, values: c.discount },
    { name: 'l_tax', type: MONEY, nullable: false, values: c.tax },
    { name: 'l_returnflag', type: UTF8, nullable: false, values: c.returnflag },
    { name: 'l_linestatus', type: UTF8, nullable: false, values: c.linestatus },
    { name: 'l_shipdate', type: DATE, nullable: false, values: c.shipdate },
    { name: 'l_shipmode', type: UTF8, nullable: false, values: c.shipmode },
  ];
}

/**
 * `specials`: ten hand-picked rows of edge values: int32/int64 extremes, 2^53 and 2^53 + 1 (equal as doubles),
 * tiny and huge floats, NaN/±Infinity/-0 (`g`), the largest decimal(15,2), dates around the epoch and leap days,
 * and text whose UTF-16 order differs from code point order ('ｚ' U+FF5A < '🚀' U+1F680).
 */
export function makeSpecials(): ColumnInput[] {
  const dates = [
    '2000-02-29',
    '1970-01-01',
    '1969-12-31',
    '2024-12-31',
    '1999-01-01',
    null,
    '2023-03-31',
    '2024-01-31',
  ];
  return [
    { name: 'k', type: INT32, nullable: false, values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
    { name: 'i32', type: INT32, values: [2147483647, -2147483648, 0, -1, 1, null, 100, 7, 5, 5] },
    {
      name: 'i64',
      type: INT64,
      values: [
        9223372036854775807n,
        -9223372036854775808n,
        9007199254740993n,
        -9007199254740993n,
        0n,
        null,
        1n,
        -1n,
        9007199254740992n,
        9007199254740993n,
      ],
    },
    { name: 'f', type: FLOAT64, values: [0.1, 1e-300, 1e300, -2.5, 0.5, null, 123456789.125, 1 / 3, 0.1, 0.2] },
    { name: 'm', type: MONEY, values: [1, -1, 9999999999999, -9999999999999, 0, null, 5, 50, 5, 5] },
    { name: 'd', type: DATE, values: [...dates, null, '2000-02-29'].map((s) => (s === null ? null : dayOf(s))) },
    { name: 's', type: UTF8, values: ['a', 'A', '', ' ', 'ab', null, 'b%', 'B_', 'ｚ', '🚀'] },
    {
      name: 'g',
      type: FLOAT64,
      values: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0, null, 1.5, Number.NaN, 2, -1],
    },
  ];
}

export interface TestData {
  readonly dir: string;
  /** Table name -> the Parquet files holding it. */
  readonly tables: ReadonlyMap<string, readonly string[]>;
  remove(): Promise<void>;
}

/** Writes every test table into a fresh temporary folder; `lineitem` is split over two files. */
export async function writeTestData(): Promise<TestData> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-gen-'));
  const tables = new Map<string, string[]>();
  const write = async (name: string, parts: ColumnInput[][], rowGroupRows: number) => {
    const paths = parts.map((_, i) => join(dir, parts.length === 1 ? `${name}.parquet` : `${name}-${i + 1}.parquet`));
    for (const [i, cols] of parts.entries()) await writeParquetFile(paths[i]!, cols, { rowGroupRows });
    tables.set(name, paths);
  };
  await write('items', [makeItems()], ITEMS_ROW_GROUP_ROWS);
  await write('lineitem', splitRows(makeLineitem(), LINEITEM_ROWS / 2), LINEITEM_ROW_GROUP_ROWS);
  await write('specials', [makeSpecials()], 4);
  return { dir, tables, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The columns cut into two parts at row `at`. */
function splitRows(columns: ColumnInput[], at: number): ColumnInput[][] {
  const part = (from: number, to?: number) =>
    columns.map((c) => ({ ...c, values: Array.prototype.slice.call(c.values, from, to) as ColumnInput['values'] }));
  return [part(0, at), part(at)];
}
