// SortExec over accelerated tables (SF0.1): a full sort by a decimal, by text, and top-k with LIMIT.
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function sortBench(): Promise<void> {
  const { memory } = await microContext();
  const run = (sql: string) => () => drain(memory, sql);
  await microSuite('sort', {
    'lineitem by decimal DESC (600 k rows)': run(
      'SELECT l_orderkey, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC',
    ),
    'orders by date, then int key (150 k rows)': run(
      'SELECT o_orderkey, o_orderdate FROM orders ORDER BY o_orderdate, o_orderkey',
    ),
    'customer by text (15 k rows)': run('SELECT c_custkey, c_name FROM customer ORDER BY c_name DESC'),
    'top 10 of lineitem (LIMIT)': run(
      'SELECT l_orderkey, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC LIMIT 10',
    ),
  });
}
