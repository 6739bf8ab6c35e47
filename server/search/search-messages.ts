// The messages between the search thread (`search-worker.ts`) and the main thread (`SearchThread`): plain data.

/** One hit as every front end returns it. */
export interface SearchHit {
  readonly dataset: string;
  readonly score: number;
  /** The dataset's row id columns and their values (Spice's `primary_key`). */
  readonly primaryKey: Readonly<Record<string, unknown>>;
  /** The indexed columns a query term occurs in, with their whole text. */
  readonly matches: Readonly<Record<string, string>>;
}

/** Index `body` (a JSON array of row objects, moved) as `dataset`'s new index; the old one serves until it is done. */
export interface BuildMessage {
  readonly op: 'build';
  readonly id: number;
  readonly dataset: string;
  readonly body: ArrayBuffer;
  readonly columns: readonly string[];
  readonly rowId: readonly string[];
}

/** The `limit` best hits for `text` over `datasets` (those with an index), best first. */
export interface SearchMessage {
  readonly op: 'search';
  readonly id: number;
  readonly datasets: readonly string[];
  readonly text: string;
  readonly limit: number;
}

export type SearchRequestMessage = BuildMessage | SearchMessage;

/** A build answers the rows indexed; a search its hits. */
export type SearchAnswerMessage =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string };
