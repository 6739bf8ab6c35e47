// The built-in TPC-H sample's tables as the fuzzer's grammar sees them: column name -> expression kind.
import type { Kind } from '../generated/expr-gen.js';

type Columns = Readonly<Record<string, Kind>>;

/** The sample's eight tables (server/sample/tpch-sample.ts); MONEY columns are numeric(15,2). */
export const SAMPLE_TABLES: Readonly<Record<string, Columns>> = {
  region: { r_regionkey: 'int', r_name: 'text', r_comment: 'text' },
  nation: { n_nationkey: 'int', n_name: 'text', n_regionkey: 'int', n_comment: 'text' },
  supplier: {
    s_suppkey: 'int',
    s_name: 'text',
    s_address: 'text',
    s_nationkey: 'int',
    s_phone: 'text',
    s_acctbal: 'num',
    s_comment: 'text',
  },
  part: {
    p_partkey: 'int',
    p_name: 'text',
    p_mfgr: 'text',
    p_brand: 'text',
    p_type: 'text',
    p_size: 'int',
    p_container: 'text',
    p_retailprice: 'num',
    p_comment: 'text',
  },
  partsupp: { ps_partkey: 'int', ps_suppkey: 'int', ps_availqty: 'int', ps_supplycost: 'num', ps_comment: 'text' },
  customer: {
    c_custkey: 'int',
    c_name: 'text',
    c_address: 'text',
    c_nationkey: 'int',
    c_phone: 'text',
    c_acctbal: 'num',
    c_mktsegment: 'text',
    c_comment: 'text',
  },
  orders: {
    o_orderkey: 'int',
    o_custkey: 'int',
    o_totalprice: 'num',
    o_orderdate: 'date',
    o_orderpriority: 'text',
    o_clerk: 'text',
    o_shippriority: 'int',
    o_comment: 'text',
  },
  lineitem: {
    l_orderkey: 'int',
    l_partkey: 'int',
    l_suppkey: 'int',
    l_linenumber: 'int',
    l_quantity: 'num',
    l_extendedprice: 'num',
    l_discount: 'num',
    l_tax: 'num',
    l_returnflag: 'text',
    l_linestatus: 'text',
    l_shipdate: 'date',
    l_commitdate: 'date',
    l_receiptdate: 'date',
    l_shipinstruct: 'text',
    l_shipmode: 'text',
    l_comment: 'text',
  },
};

/** Join paths between sample tables (left column = right column), for joins that stay small. */
export const SAMPLE_JOINS: readonly [string, string, string, string][] = [
  ['nation', 'n_regionkey', 'region', 'r_regionkey'],
  ['supplier', 's_nationkey', 'nation', 'n_nationkey'],
  ['customer', 'c_nationkey', 'nation', 'n_nationkey'],
  ['orders', 'o_custkey', 'customer', 'c_custkey'],
  ['lineitem', 'l_orderkey', 'orders', 'o_orderkey'],
  ['lineitem', 'l_partkey', 'part', 'p_partkey'],
  ['partsupp', 'ps_partkey', 'part', 'p_partkey'],
  ['partsupp', 'ps_suppkey', 'supplier', 's_suppkey'],
];

/** Tables small enough to cross join (at most 25 × 25 rows... and 10 suppliers). */
export const SMALL_TABLES = ['region', 'nation', 'supplier'] as const;
