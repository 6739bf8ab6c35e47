// JoinExec over accelerated TPC-H SF0.1: hash build and probe on one and two keys, a semi join, a left join.
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function hashJoinBench(): Promise<void> {
  const { memory } = await microContext();
  const run = (sql: string) => () => drain(memory, sql);
  await microSuite('hash-join', {
    'lineitem ⋈ orders (600k probe, 150k build)': run(
      'SELECT count(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey',
    ),
    'lineitem ⋈ partsupp on two keys': run(
      'SELECT count(*) FROM lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey',
    ),
    'orders semi join lineitem (EXISTS)': run(
      'SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey)',
    ),
    'customer left join orders': run(
      'SELECT count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey',
    ),
  });
}
