// `SearchService`: full-text search over the datasets' marked columns: indexes built at load and refresh, searches.
import { typeName } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { DatasetConfig } from '../config/acceleration-config.js';
import type { SearchConfig } from '../config/search-config.js';
import type { DatasetStatus } from '../datasets/datasets.js';
import { readDatasetSchema } from '../iceberg/dataset-schema.js';
import { collectAnswer, quoteIdent } from '../nsql/collect-answer.js';
import type { QueryService } from '../runtime/query-service.js';
import type { SearchHit } from './search-messages.js';
import { SearchThread } from './search-thread.js';

export type { SearchHit } from './search-messages.js';

/** The request is wrong (an unknown dataset, one without search): HTTP 400, an MCP `isError` result. */
export class SearchRequestError extends Error {}

/** The index asked for is not built (its dataset is loading, or the build failed): HTTP 503. */
export class SearchUnavailableError extends Error {}

/** Who the indexing queries run as: they only read, and never touch the results cache. */
const INDEXER: Principal = Object.freeze({ id: 'floe:search-index', canWrite: false });

export interface SearchQuery {
  readonly text: string;
  /** Datasets to search (names matched case-insensitively); absent: every dataset whose index is built. */
  readonly datasets?: readonly string[];
  readonly limit: number;
}

interface Searchable {
  readonly name: string;
  readonly config: SearchConfig;
  /** The build running (one per dataset at a time), and whether data changed again meanwhile. */
  building: Promise<void> | null;
  again: boolean;
  indexed: boolean;
  /** Why the last build failed (the index built before, if any, still serves). */
  error: string | null;
}

export interface SearchServiceOptions {
  readonly service: QueryService;
  readonly datasets: readonly DatasetConfig[];
  readonly log?: (line: string) => void;
}

/**
 * Keeps one BM25 index per dataset with `search` (built on the search thread from a SELECT of its row id and
 * indexed columns through the query service) and answers searches. A dataset's index is built when it becomes
 * Ready (first load, each refresh or reload) once the service has started; the new index replaces the old one
 * only when complete, so searches meanwhile read the old one. The columns are checked when the index is built:
 * a missing or non-text column fails the build (logged; searches of that dataset say why).
 */
export class SearchService {
  readonly #service: QueryService;
  readonly #log: (line: string) => void;
  readonly #searchable: readonly Searchable[];
  readonly #thread = new SearchThread(() => this.#threadLost());
  #started = false;
  #closed = false;

  constructor(options: SearchServiceOptions) {
    this.#service = options.service;
    this.#log = options.log ?? (() => {});
    this.#searchable = options.datasets.flatMap((d) =>
      d.search === undefined
        ? []
        : [{ name: d.name, config: d.search, building: null, again: false, indexed: false, error: null }],
    );
  }

  /** The datasets with full-text search, in manifest order. */
  get searchable(): readonly string[] {
    return this.#searchable.map((s) => s.name);
  }

  /** From now on indexes are built: now for the datasets `isReady` names, then on each `datasetChanged`. */
  start(isReady: (name: string) => boolean): void {
    this.#started = true;
    for (const s of this.#searchable) if (isReady(s.name)) this.#rebuild(s);
  }

  /** A dataset's status changed: Ready means new data is serving (the first load, a refresh, a reload). */
  datasetChanged(name: string, status: DatasetStatus): void {
    const s = this.#find(name);
    if (s !== undefined && status === 'Ready' && this.#started) this.#rebuild(s);
  }

  /** Resolves once no build runs (tests wait on it after a refresh). */
  async idle(): Promise<void> {
    for (;;) {
      const running = this.#searchable.map((s) => s.building).filter((b) => b !== null);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  /** The best `query.limit` hits, best first. Throws `SearchRequestError`, `SearchUnavailableError`. */
  async search(query: SearchQuery): Promise<SearchHit[]> {
    if (this.#searchable.length === 0) {
      throw new SearchRequestError(
        'no dataset has full-text search: mark text columns with full_text_search: {enabled: true, row_id: [...]}',
      );
    }
    const targets = query.datasets === undefined ? this.#searchable : query.datasets.map((n) => this.#target(n));
    const ready = targets.filter((s) => s.indexed);
    if (query.datasets !== undefined && ready.length < targets.length) {
      throw new SearchUnavailableError(this.#notReady(targets.find((s) => !s.indexed) as Searchable));
    }
    if (ready.length === 0) throw new SearchUnavailableError('no search index is ready yet: the datasets are loading');
    return this.#thread.search(
      ready.map((s) => s.name),
      query.text,
      query.limit,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#thread.close();
  }

  /** The search thread died with every index: each one built before is built again on a new thread. */
  #threadLost(): void {
    this.#log('floe: the search thread stopped; building the search indexes again');
    for (const s of this.#searchable) {
      if (!s.indexed) continue;
      s.indexed = false;
      this.#rebuild(s);
    }
  }

  #find(name: string): Searchable | undefined {
    return this.#searchable.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  #target(name: string): Searchable {
    const s = this.#find(name);
    if (s !== undefined) return s;
    throw new SearchRequestError(
      `dataset '${name}' has no full-text search; the searchable datasets are: ${this.searchable.join(', ')}`,
    );
  }

  #notReady(s: Searchable): string {
    if (s.error !== null) return `the search index of ${s.name} is not available: ${s.error}`;
    return `the search index of ${s.name} is not ready yet: the dataset is loading`;
  }

  #rebuild(s: Searchable): void {
    if (this.#closed) return;
    if (s.building !== null) {
      s.again = true;
      return;
    }
    s.building = this.#build(s).finally(() => {
      s.building = null;
      if (s.again) {
        s.again = false;
        this.#rebuild(s);
      }
    });
  }

  async #build(s: Searchable): Promise<void> {
    const started = performance.now();
    try {
      const select = await this.#selectFor(s);
      const signal = new AbortController().signal;
      // A whole table's text: never stored in (nor served from) the results cache.
      const { body } = await collectAnswer(this.#service, select, 'json', INDEXER, signal, { bypass: true });
      const rows = await this.#thread.build(s.name, body, s.config.columns, s.config.rowId);
      s.indexed = true;
      s.error = null;
      this.#log(
        `floe: dataset ${s.name}: search index built (${rows} rows, ${Math.round(performance.now() - started)} ms)`,
      );
    } catch (e) {
      if (this.#closed) return;
      s.error = (e as Error).message;
      this.#log(`floe: dataset ${s.name}: search index not built: ${s.error}`);
    }
  }

  /** `SELECT <row id>, <indexed columns> FROM <dataset>`, after checking they exist and the indexed ones are text. */
  async #selectFor(s: Searchable): Promise<string> {
    const fields = await readDatasetSchema(this.#service, s.name, INDEXER);
    const types = new Map(fields.map((f) => [f.name, typeName(f.type)]));
    const known = () => fields.map((f) => f.name).join(', ');
    for (const column of [...s.config.rowId, ...s.config.columns]) {
      if (!types.has(column)) throw new Error(`column '${column}' does not exist; the columns are: ${known()}`);
    }
    for (const column of s.config.columns) {
      const type = types.get(column);
      if (type !== 'text') throw new Error(`column '${column}' is ${type}: full-text search indexes text columns only`);
    }
    const columns = [...new Set([...s.config.rowId, ...s.config.columns])];
    return `SELECT ${columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(s.name)}`;
  }
}
