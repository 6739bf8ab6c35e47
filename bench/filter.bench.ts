// FilterExec over accelerated lineitem (SF0.1): decimal ranges (Q6), a date range, text IN, and LIKE.
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function filterBench(): Promise<void> {
  const { memory } = await microContext();
  const keep = (where: string) => () => drain(memory, `SELECT l_orderkey FROM lineitem WHERE ${where}`);
  await microSuite('filter', {
    'Q6 predicate (date range, decimal BETWEEN, decimal <)': keep(
      `l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
       AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`,
    ),
    'int32 equality (1 in ~4 rows)': keep('l_linenumber = 1'),
    "text IN ('MAIL', 'SHIP')": keep("l_shipmode IN ('MAIL', 'SHIP')"),
    "LIKE '%special%'": keep("l_comment LIKE '%special%'"),
  });
}
