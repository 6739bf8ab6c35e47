// `node dist/bench/search.js`: full-text search on TPC-H comments: floe's TextIndex, minisearch, flexsearch, SQL.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../server/main.js';
import { TextIndex } from '../server/search/text-index.js';

const USAGE = `usage: node --expose-gc dist/bench/search.js --dir DIR [--table orders|lineitem] [--runs 20]
  DIR holds the TPC-H tables as <table>/*.parquet (e.g. .floe/bench-data/tpch-sf1-seed1-v1, from npm run bench -- gen).
  Each engine runs in its own child process: index build time, RSS growth (after a GC) and the median of --runs
  searches (top 10). textindex: floe's own BM25 index (server/search/text-index.ts) on the corpus in memory;
  minisearch and flexsearch when installed (optional imports: floe does not depend on them); server: floe with
  the dataset accelerated, the index built through the server (SELECT -> search thread), POST /v1/search over
  HTTP, and an ILIKE scan of the column (what any SQL-side relevance ranking must read at least).`;

/** One and two word queries from the TPC-H comment grammar (common adverbs, rarer nouns). */
const QUERIES = [
  'furiously',
  'slyly final',
  'carefully regular',
  'blithely',
  'quickly express',
  'fluffily ironic',
  'pending deposits',
  'unusual',
  'bold requests',
  'special packages',
  'accounts',
  'instructions',
  'theodolites',
  'pinto beans',
  'foxes',
  'asymptotes',
  'dependencies sleep',
  'excuses',
  'platelets',
  'dugouts',
];

const TEXT_COLUMN = { orders: ['o_orderkey', 'o_comment'], lineitem: ['l_orderkey', 'l_comment'] } as const;
type Table = keyof typeof TEXT_COLUMN;

interface Figures {
  readonly engine: string;
  readonly rows: number;
  readonly buildMs: number;
  readonly rssGrowthMiB: number;
  /** JS heap + ArrayBuffers after a GC: what the index holds (RSS keeps pages a build used and freed). */
  readonly heapGrowthMiB?: number;
  readonly medianQueryMs: number;
  readonly note?: string;
}

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    table: { type: 'string', default: 'orders' },
    runs: { type: 'string', default: '20' },
    engine: { type: 'string' },
  },
});
const table = values.table as Table;
const runs = Number(values.runs);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage.rss() / 2 ** 20;
}

interface Memory {
  readonly rss: number;
  readonly heap: number;
}

function memory(): Memory {
  const rss = rssMiB();
  const m = process.memoryUsage();
  return { rss, heap: (m.heapUsed + m.arrayBuffers) / 2 ** 20 };
}

function growthSince(before: Memory): { rssGrowthMiB: number; heapGrowthMiB: number } {
  const now = memory();
  return { rssGrowthMiB: now.rss - before.rss, heapGrowthMiB: now.heap - before.heap };
}

async function readCorpus(dir: string): Promise<{ ids: number[]; texts: string[] }> {
  const [key, text] = TEXT_COLUMN[table];
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  const reader = await duck.runAndReadAll(
    `SELECT ${key}::INTEGER, ${text} FROM read_parquet('${join(dir, table)}/*.parquet')`,
  );
  const [ids, texts] = reader.getColumns() as [number[], string[]];
  duck.closeSync();
  return { ids, texts };
}

async function timeQueries(search: (q: string) => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await search(QUERIES[i % QUERIES.length] as string);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function textIndexFigures(dir: string): Promise<Figures> {
  const { ids, texts } = await readCorpus(dir);
  const [key, column] = TEXT_COLUMN[table];
  const rows = texts.map((t, i) => ({ [key]: ids[i], [column]: t }));
  const before = memory();
  const started = performance.now();
  const index = (await TextIndex.build([column], rows)) as TextIndex;
  const buildMs = performance.now() - started;
  const { rssGrowthMiB: growth, heapGrowthMiB } = growthSince(before);
  const medianQueryMs = await timeQueries((q) => index.search(q, 10));
  return {
    engine: 'floe TextIndex (BM25, typed arrays)',
    rows: rows.length,
    buildMs,
    rssGrowthMiB: growth,
    heapGrowthMiB,
    medianQueryMs,
  };
}

/** An optional package: the bench still runs once it is uninstalled. */
async function optional(name: string): Promise<Record<string, unknown> | null> {
  return import(name).catch(() => null);
}

async function minisearchFigures(dir: string): Promise<Figures> {
  const mod = await optional('minisearch');
  if (mod === null)
    return { engine: 'minisearch', rows: 0, buildMs: 0, rssGrowthMiB: 0, medianQueryMs: 0, note: 'not installed' };
  type Mini = { addAll(d: object[]): void; search(q: string): unknown[] };
  const MiniSearch = mod.default as new (o: object) => Mini;
  const { ids, texts } = await readCorpus(dir);
  const before = memory();
  const started = performance.now();
  const index = new MiniSearch({ fields: ['t'], searchOptions: { bm25: { k: 1.2, b: 0.75, d: 0 } } });
  const docs = texts.map((t, i) => ({ id: ids[i], t }));
  for (let i = 0; i < docs.length; i += 10_000) index.addAll(docs.slice(i, i + 10_000));
  const buildMs = performance.now() - started;
  const { rssGrowthMiB: growth, heapGrowthMiB } = growthSince(before);
  const medianQueryMs = await timeQueries((q) => index.search(q).slice(0, 10));
  return {
    engine: 'minisearch 7.2.0 (BM25)',
    rows: texts.length,
    buildMs,
    rssGrowthMiB: growth,
    heapGrowthMiB,
    medianQueryMs,
  };
}

type FlexIndex = { add(id: number, text: string): void; search(q: string, o: object): unknown };

async function flexsearchFigures(dir: string): Promise<Figures> {
  const flex = (await optional('flexsearch')) as { Index: new (o: object) => FlexIndex } | null;
  if (flex === null)
    return { engine: 'flexsearch', rows: 0, buildMs: 0, rssGrowthMiB: 0, medianQueryMs: 0, note: 'not installed' };
  const { ids, texts } = await readCorpus(dir);
  const before = memory();
  const started = performance.now();
  const index = new flex.Index({ tokenize: 'strict' });
  for (let i = 0; i < texts.length; i++) index.add(ids[i] as number, texts[i] as string);
  const buildMs = performance.now() - started;
  const { rssGrowthMiB: growth, heapGrowthMiB } = growthSince(before);
  const medianQueryMs = await timeQueries((q) => index.search(q, { limit: 10 }));
  const note = 'no BM25: results ranked by term position/context, no score';
  return {
    engine: 'flexsearch 0.8.212',
    rows: texts.length,
    buildMs,
    rssGrowthMiB: growth,
    heapGrowthMiB,
    medianQueryMs,
    note,
  };
}

async function floeFigures(dir: string): Promise<Figures> {
  const [key, column] = TEXT_COLUMN[table];
  let builtMs = 0;
  let rows = 0;
  const before = rssMiB();
  const server = await startServer({
    manifest: {
      version: 'v1',
      kind: 'Spicepod',
      name: 'search-bench',
      datasets: [
        {
          name: table,
          from: `file:${join(dir, table)}`,
          acceleration: { enabled: true },
          columns: [{ name: column, full_text_search: { enabled: true, row_id: [key] } }],
        },
      ],
      runtime: { caching: { sql_results: { enabled: false } } },
    },
    port: 0,
    workers: 1,
    log: (line) => {
      const m = /search index built \((\d+) rows, (\d+) ms\)/.exec(line);
      if (m) [rows, builtMs] = [Number(m[1]), Number(m[2])];
    },
  });
  const loaded = rssMiB();
  await server.search.idle();
  const growth = rssMiB() - loaded;
  const base = `http://127.0.0.1:${server.port}`;
  const searchMs = await timeQueries((q) =>
    fetch(`${base}/v1/search`, { method: 'POST', body: JSON.stringify({ text: q, limit: 10 }) }).then((r) => r.text()),
  );
  const scanMs = await timeQueries((q) => {
    const like = q
      .split(' ')
      .map((w) => `${column} ILIKE '%${w}%'`)
      .join(' OR ');
    return fetch(`${base}/v1/sql`, { method: 'POST', body: `SELECT count(*) FROM ${table} WHERE ${like}` }).then((r) =>
      r.text(),
    );
  });
  await server.close();
  const note =
    `POST /v1/search median ${searchMs.toFixed(2)} ms over HTTP; ILIKE scan of the column (1 worker) median ` +
    `${scanMs.toFixed(1)} ms; dataset load took the server to ${(loaded - before).toFixed(0)} MiB more`;
  return {
    engine: 'floe server: index via SQL + search thread',
    rows,
    buildMs: builtMs,
    rssGrowthMiB: growth,
    medianQueryMs: searchMs,
    note,
  };
}

async function main(): Promise<void> {
  if (values.dir === undefined || !(table in TEXT_COLUMN)) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const engines: Record<string, (dir: string) => Promise<Figures>> = {
    textindex: textIndexFigures,
    minisearch: minisearchFigures,
    flexsearch: flexsearchFigures,
    server: floeFigures,
  };
  const run = engines[values.engine ?? ''];
  if (run !== undefined) {
    process.stdout.write(`${JSON.stringify(await run(values.dir))}\n`);
    return;
  }
  // Each engine alone in a child, so one's memory does not count against the next.
  const self = fileURLToPath(import.meta.url);
  for (const engine of Object.keys(engines)) {
    const args = [
      '--expose-gc',
      self,
      '--dir',
      values.dir,
      '--table',
      table,
      '--runs',
      String(runs),
      '--engine',
      engine,
    ];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
    const f = JSON.parse(out.trim().split('\n').at(-1) as string) as Figures;
    console.log(
      `${f.engine}: ${f.rows} rows, build ${(f.buildMs / 1000).toFixed(1)} s, RSS +${f.rssGrowthMiB.toFixed(0)} MiB, ` +
        (f.heapGrowthMiB === undefined ? '' : `heap + buffers +${f.heapGrowthMiB.toFixed(0)} MiB, `) +
        `median query ${f.medianQueryMs.toFixed(2)} ms${f.note ? ` (${f.note})` : ''}`,
    );
  }
}

await main();
