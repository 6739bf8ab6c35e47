// Differential: text predicates on UTF-8 bytes (LIKE / ILIKE / NOT LIKE shapes, ESCAPE, comparisons with
// literals and between columns, starts_with, length) and text passing through filters into projections,
// sorts, groups and joins, over non-ASCII, empty and NULL values, vs DuckDB.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ColumnInput, type DataType, writeParquetFile } from '../../engine/index.js';
import type { TestData } from '../helpers/gen-data.js';
import { makeRng } from '../helpers/gen-data.js';
import { type DiffCase, differentialSuite } from './harness.js';

const INT32: DataType = { id: 'int32' };
const UTF8: DataType = { id: 'utf8' };

/** Single words whose byte patterns exercise the matcher: multi-byte code points, case, LIKE metacharacters. */
const WORDS = [
  'special',
  'Special',
  'SPECIAL',
  'requests',
  'Requests',
  'café',
  'CAFÉ',
  'Café',
  'naïve',
  '日本',
  '日本語',
  '本',
  '😀',
  '🚀',
  'ｚ',
  'Zoë',
  'Straße',
  'a_b',
  'a%b',
  'a\\b',
  'furiously',
  'fur ly',
  'abc',
  'ab',
  'b',
  'z',
  '',
  ' ',
];

/** `words`: 3,000 rows of one to four words (some empty, ~8% NULL), in three row groups; `w2` for column pairs. */
function makeWords(rows = 3_000): ColumnInput[] {
  const rng = makeRng(424242);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const phrase = () =>
    Array.from({ length: int(1, 4) }, () => WORDS[int(0, WORDS.length - 1)]!).join(rng() < 0.7 ? ' ' : '');
  const id: number[] = [];
  const grp: number[] = [];
  const w: (string | null)[] = [];
  const w2: (string | null)[] = [];
  for (let i = 0; i < rows; i++) {
    id.push(i + 1);
    grp.push(int(0, 5));
    const a = rng() < 0.08 ? null : phrase();
    w.push(a);
    w2.push(rng() < 0.08 ? null : rng() < 0.3 ? a : phrase());
  }
  return [
    { name: 'id', type: INT32, nullable: false, values: id },
    { name: 'grp', type: INT32, nullable: false, values: grp },
    { name: 'w', type: UTF8, values: w },
    { name: 'w2', type: UTF8, values: w2 },
  ];
}

/** `tags`: one row per word (join keys on text, non-ASCII included). */
function makeTags(): ColumnInput[] {
  return [
    { name: 'tag', type: UTF8, nullable: false, values: [...WORDS] },
    { name: 'label', type: UTF8, nullable: false, values: WORDS.map((t, i) => `${i}:${t}`) },
  ];
}

async function writeTextData(): Promise<TestData> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-text-'));
  const words = join(dir, 'words.parquet');
  const tags = join(dir, 'tags.parquet');
  await writeParquetFile(words, makeWords(), { rowGroupRows: 1_000 });
  await writeParquetFile(tags, makeTags(), { rowGroupRows: 10 });
  const tables = new Map([
    ['words', [words]],
    ['tags', [tags]],
  ]);
  return { dir, tables, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A count per pattern; DuckDB has no default escape character, so its spelling names PostgreSQL's backslash. */
const like = (predicate: string, duckdb = predicate): DiffCase => ({
  sql: `SELECT count(*), count(DISTINCT w) FROM words WHERE ${predicate}`,
  duckdb: `SELECT count(*), count(DISTINCT w) FROM words WHERE ${duckdb}`,
});
const escaped = (op: string, pattern: string): DiffCase =>
  like(`w ${op} '${pattern}'`, `w ${op} '${pattern}' ESCAPE '\\'`);

const cases: DiffCase[] = [
  // LIKE shapes: exact, prefix, suffix, contains, chains, `_` (one code point), and their negations.
  like("w LIKE 'special'"),
  like("w LIKE ''"),
  like("w LIKE 'special%'"),
  like("w LIKE '%requests'"),
  like("w LIKE '%special%'"),
  like("w NOT LIKE '%special%requests%'"),
  like("w LIKE '%special%requests%'"),
  like("w LIKE 'special%requests%'"),
  like("w LIKE '%a%b%c%'"),
  like("w LIKE 'a%b'"),
  like("w LIKE '%%'"),
  like("w LIKE '%'"),
  like("w LIKE '_'"),
  like("w LIKE '__'"),
  like("w LIKE 'caf_'"),
  like("w LIKE '%caf_%'"),
  like("w LIKE '%_本_%'"),
  like("w LIKE '日本%'"),
  like("w LIKE '%日本語%'"),
  like("w LIKE '%😀'"),
  like("w LIKE '%😀_%'"),
  like("w LIKE '_😀%'"),
  like("w NOT LIKE '%é%'"),
  like("w LIKE '%fur_ly%'"),
  like("w NOT LIKE '%ｚ%'"),
  // ILIKE: ASCII folding on bytes, non-ASCII rows and patterns through decoded strings.
  like("w ILIKE '%SPECIAL%'"),
  like("w ILIKE 'special'"),
  like("w NOT ILIKE '%requests%'"),
  like("w ILIKE '%sp_cial%'"),
  like("w ILIKE '%café%'"),
  like("w ILIKE 'CAF%'"),
  like("w ILIKE '%straße%'"),
  // ESCAPE: PostgreSQL's default backslash and an explicit escape character.
  escaped('LIKE', '%a\\_b%'),
  escaped('LIKE', '%a\\%b%'),
  escaped('LIKE', '%\\\\%'),
  escaped('NOT LIKE', '%\\_%'),
  escaped('ILIKE', 'A\\_B%'),
  like("w LIKE '%a!_b%' ESCAPE '!'"),
  like("w LIKE '%a!%b' ESCAPE '!'"),
  // Comparisons with literals (code point order), including non-ASCII literals and the empty string.
  like("w < 'special'"),
  like("w >= 'café'"),
  like("w > 'ｚ'"),
  like("w <= '😀'"),
  like("w < '日本'"),
  like("w > ''"),
  like("w <> 'special'"),
  like("'special' > w"),
  like("w = ''"),
  like("w = '日本語'"),
  // The text side an expression (held as JS strings): the string path, evaluated once.
  like("upper(w) = 'SPECIAL'"),
  like("lower(w) >= 'café'"),
  like("'b' > lower(w)"),
  like("lower(w) LIKE '%caf_%'"),
  // Column against column.
  like('w = w2'),
  like('w <> w2'),
  like('w < w2'),
  like('w >= w2'),
  // starts_with and length on bytes.
  like("starts_with(w, 'café')"),
  like("starts_with(w, '')"),
  // DuckDB's octet_length takes BLOBs; strlen is its byte length of text.
  {
    sql: 'SELECT length(w), octet_length(w), count(*) FROM words GROUP BY 1, 2',
    duckdb: 'SELECT length(w), strlen(w), count(*) FROM words GROUP BY 1, 2',
  },
  // length of rows a filter gathered, read where they lie (NULL rows kept NULL); the tag column is ASCII only.
  { sql: 'SELECT id, length(w), length(w2) FROM words WHERE grp = 2 AND id % 3 = 0' },
  {
    sql: "SELECT grp, sum(length(w)), max(length(w2)), count(length(w)) FROM words WHERE w2 <> 'special' GROUP BY grp",
  },
  { sql: "SELECT length(tag), length(label), count(*) FROM tags WHERE tag <> 'x' GROUP BY 1, 2" },
  // Text carried through a filter on another column: projection, sort, group, join, outer join.
  { sql: 'SELECT id, w, w2 FROM words WHERE grp = 3 AND id % 7 = 0' },
  { sql: 'SELECT w, id FROM words WHERE grp = 1 ORDER BY w, id' },
  { sql: 'SELECT w, id FROM words WHERE grp = 2 ORDER BY w DESC NULLS LAST, id LIMIT 40' },
  { sql: 'SELECT w, count(*), min(w2), max(w2) FROM words WHERE grp < 2 GROUP BY w' },
  { sql: "SELECT id, w FROM words WHERE w LIKE '%日本%' ORDER BY id LIMIT 25" },
  { sql: 'SELECT t.label, count(*) FROM words w JOIN tags t ON w.w = t.tag WHERE w.grp = 4 GROUP BY t.label' },
  { sql: 'SELECT w.id, w.w, t.label FROM words w LEFT JOIN tags t ON w.w = t.tag WHERE w.grp = 0 AND w.id < 500' },
  {
    sql: `SELECT t.tag, count(w.id) FROM tags t LEFT JOIN (SELECT * FROM words WHERE grp = 5) w
          ON w.w2 = t.tag GROUP BY t.tag`,
  },
  { sql: "SELECT coalesce(w, w2, '-'), greatest(w, w2), least(w, w2) FROM words WHERE grp = 3 AND id < 400" },
  { sql: "SELECT CASE WHEN w LIKE '%é%' THEN w ELSE w2 END FROM words WHERE grp = 1" },
  { sql: 'SELECT DISTINCT w FROM words WHERE grp = 2 AND w IS NOT NULL ORDER BY w LIMIT 30' },
  { sql: 'SELECT w FROM words WHERE id = 1234' },
  // substring on UTF-8 bytes: code points (é, 日本, emoji), a start of 0, zero and long counts, NULLs, IN (no
  // negative start: DuckDB counts it from the end, PostgreSQL and floe do not)
  {
    sql: 'SELECT id, substring(w, 2, 3), substring(w, 0, 2), substring(w, 4), substr(w, 1, 0) FROM words WHERE id < 300 ORDER BY id',
  },
  { sql: 'SELECT substring(w, 1, 2) AS p, count(*) FROM words GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20' },
  { sql: "SELECT count(*) FROM words WHERE substring(w, 1, 1) IN ('a', 'é', '日', 'B')" },
  // substring(w, 1, L) against L-byte ASCII literals is a filter step on the first L bytes (short values, words
  // starting with a multi-byte character, NOT IN, =, <>, after another step); one- and two-byte lists by table.
  { sql: "SELECT count(*), count(w) FROM words WHERE substring(w, 1, 2) IN ('ab', 'sp', 'Za', 'b ', 'fu')" },
  { sql: "SELECT count(*) FROM words WHERE substring(w, 1, 2) NOT IN ('ab', 'sp', 'ca')" },
  { sql: "SELECT count(*) FROM words WHERE substring(w, 1, 3) = 'spe' AND grp < 3" },
  { sql: "SELECT count(*) FROM words WHERE grp > 1 AND substr(w, 1, 1) <> 'a'" },
  { sql: "SELECT count(*) FROM words WHERE w IN ('b', 'z', ' ') OR grp = 0" },
  { sql: "SELECT id FROM words WHERE w IN ('ab', '本', 'b ') AND grp = 2 ORDER BY id" },
  { sql: "SELECT count(*) FROM words WHERE w NOT IN ('ab', 'b', 'z')" },
  { sql: 'SELECT id, substring(w, id % 5, id % 3) FROM words WHERE id < 200 ORDER BY id' },
];

differentialSuite('text', cases, writeTextData);
