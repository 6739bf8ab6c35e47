// `textRanks`: a text sort key as integers, each row's rank among the column's distinct values.
import { sliceColumn } from '../../arrow/batch.js';
import { type Column, makeColumn } from '../../arrow/column.js';
import { textCodesOf } from '../../arrow/gathered-column.js';
import { rowComparator } from '../../arrow/kernels/compare-rows.js';
import { type CodedText, dictionaryColumn } from '../../arrow/text-dictionary.js';
import { INT32, UTF8 } from '../../plan/types.js';
import { makeKeyIndex } from '../hash/key-index.js';

const PROBE_ROWS = 4096;
/** Ranking stops when more than this share of the rows seen hold distinct values. */
const MAX_DISTINCT_SHARE = 1 / 8;

/**
 * `col` (text) as an int32 column of ranks in code point order (equal text, equal rank; validity kept), so a sort
 * compares integers: a sort's text keys usually repeat (q16's brands and types: 18k rows, 175 values, where
 * byte comparisons of 'Brand#..' were most of the sort). Null when the values are mostly distinct (found on
 * the first rows): ranking would only add a hash per row.
 */
export function textRanks(col: Column): Column | null {
  const n = col.length;
  const coded = textCodesOf(col);
  if (coded !== null) return dictionaryRanks(col, coded);
  const index = makeKeyIndex([UTF8], true);
  const probe = Math.min(n, PROBE_ROWS);
  const head = index.insert([probe === n ? col : sliceColumn(col, 0, probe)], probe);
  if (index.size > probe * MAX_DISTINCT_SHARE) return null;
  const ids = new Int32Array(n);
  ids.set(head);
  if (probe < n) ids.set(index.insert([sliceColumn(col, probe, n)], n - probe), probe);
  if (index.size > n * MAX_DISTINCT_SHARE) return null;
  // The distinct values (NULL is one of them: its rank is never read, the comparator orders NULLs by validity).
  const distinct = index.column(0, UTF8);
  const cmp = rowComparator(distinct, { ascending: true, nullsFirst: true });
  const order = Array.from({ length: index.size }, (_, k) => k).sort(cmp);
  const rankOf = new Int32Array(index.size);
  for (let r = 0; r < order.length; r++) rankOf[order[r]!] = r;
  for (let i = 0; i < n; i++) ids[i] = rankOf[ids[i]!]!;
  return makeColumn(INT32, ids, col.valid, n);
}

/**
 * Ranks of a column with a dictionary attached (a table's coded text, a GROUP BY key of few values): the
 * dictionary's values are sorted once and each row's rank read by its code, no hash per row. NULL rows keep their
 * validity (their code is any).
 */
function dictionaryRanks(col: Column, coded: CodedText): Column {
  const d = coded.dictionary;
  const cmp = rowComparator(dictionaryColumn(d), { ascending: true, nullsFirst: true });
  const order = Array.from({ length: d.size }, (_, k) => k).sort(cmp);
  const rankOf = new Int32Array(d.size);
  for (let r = 0; r < order.length; r++) rankOf[order[r]!] = r;
  const n = col.length;
  const codes = coded.codes;
  const ranks = new Int32Array(n);
  for (let i = 0; i < n; i++) ranks[i] = rankOf[codes[i]!]!;
  return makeColumn(INT32, ranks, col.valid, n);
}
