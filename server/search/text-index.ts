// `TextIndex`: one dataset's BM25 full-text index over its search columns: typed-array postings per column and term.

/** Rows added per step of a build; the thread answers searches between steps (a few ms each). */
const BUILD_CHUNK_ROWS = 5000;

/** BM25's parameters: term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;

/** Words: runs of letters, digits and combining marks (any script), lower-cased. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** One row found: its position in the rows indexed, its score and the columns a query word occurs in. */
export interface IndexHit {
  readonly row: number;
  readonly score: number;
  readonly columns: readonly string[];
}

/** A column's postings: for each term, the rows holding it and how often; each row's length in words. */
interface ColumnIndex {
  readonly name: string;
  readonly postings: Map<string, { rows: Int32Array; counts: Uint16Array }>;
  readonly lengths: Uint32Array;
  readonly averageLength: number;
}

/** Postings while building: plain arrays, packed into typed arrays at the end. */
interface Growing {
  readonly rows: number[];
  readonly counts: number[];
}

/**
 * An inverted index of `rows` (objects holding `columns`, as the JSON format writes them). A query matches any of
 * its words (OR), exactly (no prefixes, stemming or fuzziness); a row's score is BM25 (k1 = 1.2, b = 0.75, the
 * IDF `ln(1 + (N - n + 0.5) / (n + 0.5))`) summed over the query's words and the columns they occur in, each
 * column with its own document frequencies and average length. Null values index as empty text. Does not keep
 * the rows: the caller maps `IndexHit.row` back to them.
 */
export class TextIndex {
  readonly #columns: readonly ColumnIndex[];
  readonly #rowCount: number;
  /** Scores of one search, reset after it (one thread searches at a time). */
  readonly #scores: Float64Array;

  private constructor(columns: readonly ColumnIndex[], rowCount: number) {
    this.#columns = columns;
    this.#rowCount = rowCount;
    this.#scores = new Float64Array(rowCount);
  }

  get rowCount(): number {
    return this.#rowCount;
  }

  /**
   * Builds the index in steps of `BUILD_CHUNK_ROWS`, yielding to the event loop between them (searches of the index
   * still serving are answered meanwhile). `isStale` is asked between steps: true drops the build (resolves null).
   */
  static async build(
    columns: readonly string[],
    rows: readonly Readonly<Record<string, unknown>>[],
    isStale: () => boolean = () => false,
  ): Promise<TextIndex | null> {
    const growing = columns.map(() => new Map<string, Growing>());
    const lengths = columns.map(() => new Uint32Array(rows.length));
    for (let start = 0; start < rows.length; start += BUILD_CHUNK_ROWS) {
      if (isStale()) return null;
      const end = Math.min(rows.length, start + BUILD_CHUNK_ROWS);
      for (let row = start; row < end; row++) {
        columns.forEach((c, i) => {
          (lengths[i] as Uint32Array)[row] = addText(growing[i] as Map<string, Growing>, row, rows[row]?.[c]);
        });
      }
      await new Promise((r) => setImmediate(r));
    }
    if (isStale()) return null;
    const packed = columns.map((name, i) =>
      packColumn(name, growing[i] as Map<string, Growing>, lengths[i] as Uint32Array),
    );
    return new TextIndex(packed, rows.length);
  }

  /** The `limit` best rows for `text`, best first (equal scores: the earlier row first). */
  search(text: string, limit: number): IndexHit[] {
    const words = [...new Set(tokenize(text))];
    const scores = this.#scores;
    const touched: number[] = [];
    for (const column of this.#columns) {
      for (const word of words) {
        const p = column.postings.get(word);
        if (p !== undefined) this.#score(column, p.rows, p.counts, touched);
      }
    }
    const best = topRows(touched, scores, limit);
    const hits = best.map((row) => ({ row, score: scores[row] as number, columns: this.#matched(row, words) }));
    for (const row of touched) scores[row] = 0;
    return hits;
  }

  #score(column: ColumnIndex, rows: Int32Array, counts: Uint16Array, touched: number[]): void {
    const n = rows.length;
    const idf = Math.log(1 + (this.#rowCount - n + 0.5) / (n + 0.5));
    const norm = K1 / column.averageLength;
    const scores = this.#scores;
    for (let i = 0; i < n; i++) {
      const row = rows[i] as number;
      const tf = counts[i] as number;
      const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B) + norm * B * (column.lengths[row] as number));
      if (scores[row] === 0) touched.push(row);
      scores[row] = (scores[row] as number) + s;
    }
  }

  /** The columns holding one of `words` in `row` (asked only for the hits returned). */
  #matched(row: number, words: readonly string[]): string[] {
    return this.#columns.filter((c) => words.some((w) => hasRow(c.postings.get(w)?.rows, row))).map((c) => c.name);
  }
}

/** Adds `value`'s words to `postings` as row `row`; returns its length in words. */
function addText(postings: Map<string, Growing>, row: number, value: unknown): number {
  if (value === null || value === undefined) return 0;
  const words = tokenize(String(value));
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const [w, count] of counts) {
    let p = postings.get(w);
    if (p === undefined) {
      p = { rows: [], counts: [] };
      postings.set(w, p);
    }
    p.rows.push(row);
    p.counts.push(Math.min(count, 0xffff));
  }
  return words.length;
}

function packColumn(name: string, growing: Map<string, Growing>, lengths: Uint32Array): ColumnIndex {
  const postings = new Map<string, { rows: Int32Array; counts: Uint16Array }>();
  for (const [w, p] of growing) postings.set(w, { rows: Int32Array.from(p.rows), counts: Uint16Array.from(p.counts) });
  let total = 0;
  for (const l of lengths) total += l;
  // An empty column everywhere: any positive average keeps the length term finite.
  return { name, postings, lengths, averageLength: total / Math.max(1, lengths.length) || 1 };
}

/** Rows ascend in a posting list: binary search. */
function hasRow(rows: Int32Array | undefined, row: number): boolean {
  if (rows === undefined) return false;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = rows[mid] as number;
    if (v === row) return true;
    if (v < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The `limit` rows of `touched` with the highest scores, best first, ties by row; one pass with a sorted buffer. */
function topRows(touched: readonly number[], scores: Float64Array, limit: number): number[] {
  const best: number[] = [];
  const better = (a: number, b: number) =>
    (scores[a] as number) > (scores[b] as number) || (scores[a] === scores[b] && a < b);
  for (const row of touched) {
    if (best.length === limit && !better(row, best[limit - 1] as number)) continue;
    let i = best.length === limit ? limit - 1 : best.length;
    while (i > 0 && better(row, best[i - 1] as number)) {
      best[i] = best[i - 1] as number;
      i--;
    }
    best[i] = row;
  }
  return best;
}
