// Text predicates over accelerated TPC-H SF0.1 (the columns held as UTF-8 bytes): LIKE shapes, ILIKE,
// comparisons with a literal, and a point lookup whose SELECT * carries o_comment through the filter.
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function likeBench(): Promise<void> {
  const { memory } = await microContext();
  const count = (table: string, where: string) => () => drain(memory, `SELECT count(*) FROM ${table} WHERE ${where}`);
  await microSuite('like', {
    "l_comment LIKE '%special%' (600k rows)": count('lineitem', "l_comment LIKE '%special%'"),
    "o_comment NOT LIKE '%special%requests%' (Q13)": count('orders', "o_comment NOT LIKE '%special%requests%'"),
    "p_type LIKE '%BRASS' (Q2)": count('part', "p_type LIKE '%BRASS'"),
    "p_type LIKE 'PROMO%' (Q14)": count('part', "p_type LIKE 'PROMO%'"),
    "p_name LIKE 'forest%' (Q20)": count('part', "p_name LIKE 'forest%'"),
    "l_comment LIKE '%fur_ly%'": count('lineitem', "l_comment LIKE '%fur_ly%'"),
    "l_comment ILIKE '%SPECIAL%'": count('lineitem', "l_comment ILIKE '%SPECIAL%'"),
    "l_shipinstruct < 'DELIVER IN PERSON'": count('lineitem', "l_shipinstruct < 'DELIVER IN PERSON'"),
    'SELECT * FROM orders WHERE o_orderkey = 4000': () => drain(memory, 'SELECT * FROM orders WHERE o_orderkey = 4000'),
  });
}
