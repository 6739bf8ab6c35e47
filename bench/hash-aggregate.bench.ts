// HashAggregateExec over accelerated lineitem (SF0.1): few groups with many aggregates (Q1), and many groups.
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function hashAggregateBench(): Promise<void> {
  const { memory } = await microContext();
  const run = (sql: string) => () => drain(memory, sql);
  await microSuite('hash-aggregate', {
    'Q1: 4 groups (2 text keys), 8 aggregates': run(
      `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
         sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
         avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
       FROM lineitem GROUP BY l_returnflag, l_linestatus`,
    ),
    'ungrouped sum + count': run('SELECT sum(l_extendedprice), count(*) FROM lineitem'),
    '20 k groups (int key: l_partkey)': run('SELECT l_partkey, sum(l_quantity) FROM lineitem GROUP BY l_partkey'),
    '150 k groups (int key: l_orderkey)': run(
      'SELECT l_orderkey, sum(l_extendedprice) FROM lineitem GROUP BY l_orderkey',
    ),
    'count(DISTINCT) on 1 k suppliers': run('SELECT count(DISTINCT l_suppkey) FROM lineitem'),
  });
}
