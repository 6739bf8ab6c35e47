// The search thread's entry: holds every dataset's `TextIndex` and its rows, builds new ones, answers searches.
import { parentPort } from 'node:worker_threads';
import type {
  BuildMessage,
  SearchAnswerMessage,
  SearchHit,
  SearchMessage,
  SearchRequestMessage,
} from './search-messages.js';
import { TextIndex } from './text-index.js';

interface Indexed {
  readonly index: TextIndex;
  /** The row id and indexed columns' values by column (the parsed row objects are not kept). */
  readonly values: ReadonlyMap<string, readonly unknown[]>;
  readonly rowId: readonly string[];
}

const indexes = new Map<string, Indexed>();
/** The newest build asked for per dataset: an older one still running is dropped at its next step. */
const latest = new Map<string, number>();

async function build(m: BuildMessage): Promise<number> {
  latest.set(m.dataset, m.id);
  const rows = JSON.parse(Buffer.from(m.body).toString('utf8')) as Record<string, unknown>[];
  const index = await TextIndex.build(m.columns, rows, () => latest.get(m.dataset) !== m.id);
  if (index === null) throw new Error(`the index of ${m.dataset} was replaced by a newer build`);
  const values = new Map([...new Set([...m.rowId, ...m.columns])].map((c) => [c, rows.map((r) => r[c] ?? null)]));
  // The swap: searches from now on read the new values and index; the old ones are garbage.
  indexes.set(m.dataset, { index, values, rowId: m.rowId });
  return rows.length;
}

function search(m: SearchMessage): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const dataset of m.datasets) {
    const indexed = indexes.get(dataset);
    if (indexed === undefined) continue;
    for (const hit of indexed.index.search(m.text, m.limit)) {
      const value = (c: string) => indexed.values.get(c)?.[hit.row] ?? null;
      const primaryKey = Object.fromEntries(indexed.rowId.map((c) => [c, value(c)]));
      const matches = Object.fromEntries(hit.columns.map((c) => [c, String(value(c) ?? '')]));
      hits.push({ dataset, score: hit.score, primaryKey, matches });
    }
  }
  // Scores of different datasets are compared as they are (each dataset's BM25 uses its own term statistics).
  return hits.sort((a, b) => b.score - a.score).slice(0, m.limit);
}

parentPort?.on('message', (m: SearchRequestMessage) => {
  const answer = (value: Promise<unknown>) =>
    value.then(
      (v) => parentPort?.postMessage({ id: m.id, ok: true, value: v } satisfies SearchAnswerMessage),
      (e: unknown) =>
        parentPort?.postMessage({ id: m.id, ok: false, message: (e as Error).message } satisfies SearchAnswerMessage),
    );
  if (m.op === 'build') void answer(build(m));
  else void answer(Promise.resolve().then(() => search(m)));
});
