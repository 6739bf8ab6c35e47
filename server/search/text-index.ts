// `TextIndex`: one dataset's BM25 full-text index over its search columns (the only importer of minisearch).
import MiniSearch from 'minisearch';

/** Rows added per step of a build; the thread answers searches between steps (about 10-20 ms each at 5000). */
const BUILD_CHUNK_ROWS = 5000;

/**
 * BM25 with k1 = 1.2, b = 0.75 (MiniSearch's `d` = 0 turns its BM25+ into BM25). MiniSearch counts a column's
 * length in distinct words, sums the score over the query's terms and the columns they occur in, then multiplies
 * it by the number of query terms matched.
 */
const BM25 = { k: 1.2, b: 0.75, d: 0 };

/** One row found: its position in the rows indexed, its score and the columns a query term occurs in. */
export interface IndexHit {
  readonly row: number;
  readonly score: number;
  readonly columns: readonly string[];
}

/** A row as MiniSearch sees it: its position (the id) and the row itself (not copied). */
interface Document {
  readonly id: number;
  readonly row: Readonly<Record<string, unknown>>;
}

/**
 * An inverted index of `rows` (objects holding `columns`, as the JSON format writes them). Terms are words split on
 * spaces and punctuation, lower-cased; a query matches any of its terms (OR) exactly: no prefixes, no fuzziness.
 * Null values index as empty text. Does not keep the rows: the caller holds them and maps `IndexHit.row` back.
 */
export class TextIndex {
  readonly #search: MiniSearch<Document>;

  private constructor(columns: readonly string[]) {
    this.#search = new MiniSearch<Document>({
      fields: [...columns],
      idField: 'id',
      extractField: (doc, field) => (field === 'id' ? doc.id : String(doc.row[field] ?? '')) as string,
      searchOptions: { bm25: BM25 },
    });
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
    const index = new TextIndex(columns);
    for (let start = 0; start < rows.length; start += BUILD_CHUNK_ROWS) {
      if (isStale()) return null;
      const end = Math.min(rows.length, start + BUILD_CHUNK_ROWS);
      for (let row = start; row < end; row++) index.#search.add({ id: row, row: rows[row] as Record<string, unknown> });
      await new Promise((r) => setImmediate(r));
    }
    return isStale() ? null : index;
  }

  /** The `limit` best rows for `text`, best first. */
  search(text: string, limit: number): IndexHit[] {
    const found = this.#search.search(text);
    const hits: IndexHit[] = [];
    for (const r of found.slice(0, limit)) {
      const columns = new Set<string>();
      for (const fields of Object.values(r.match)) for (const f of fields) columns.add(f);
      hits.push({ row: r.id as number, score: r.score, columns: [...columns] });
    }
    return hits;
  }
}
