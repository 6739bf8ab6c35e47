// The draws behind one chunk of `hits` rows: who (a Zipf-distributed user), where (a Zipf-distributed site, a
// fifth of the traffic on the large counter 62, and a page of it), when (July 2013, in time order) and from where
// (search, internal, link, ad, social, direct). hits-columns.ts turns them into the 105 columns.
import { makePrng, type Prng } from '../../server/sample/prng.js';
import { hash2, pickRank, SEARCH_ENGINES, zipfCdf } from './hits-vocab.js';

/** One unit of work: global rows [first, first + rows) of a table of `total` rows. */
export interface HitsChunk {
  readonly index: number;
  readonly first: number;
  readonly rows: number;
  readonly total: number;
  readonly seed: number;
}

/** 2013-07-01 00:00:00 UTC in seconds; the events span the 31 days of July. */
export const JULY_2013 = 1_372_636_800;
export const SPAN_S = 31 * 86_400;

/** ClickBench's big counter (a fifth of the hits here), and the constants its queries filter on. */
export const BIG_COUNTER = 62;
export const BIG_COUNTER_SHARE = 0.22;
/** Q19's user (given to the user of rank SPECIAL_USER_RANK), Q41's URLHash (counter 62's home page) and Q40's
 * RefererHash (its second page, as an internal referer). */
export const SPECIAL_USER_ID = 435090932899640449n;
export const SPECIAL_USER_RANK = 40;
export const HOME_URL_HASH = 2868770270353813622n;
export const SECOND_PAGE_REFERER_HASH = 3594120000172545465n;

/** Traffic sources: TraficSourceID and the share of hits (search 12% leaves 88% of SearchPhrase empty). */
export const SOURCES = {
  search: [2, 0.12],
  internal: [-1, 0.5],
  link: [1, 0.08],
  ad: [3, 0.03],
  mail: [6, 0.01],
  social: [8, 0.02],
  direct: [0, 0.24],
} as const;
export type Source = keyof typeof SOURCES;
export const SOURCE_NAMES = Object.keys(SOURCES) as Source[];

/** The sizes of the vocabularies at a table size: sites, users, pages per site, search phrases. */
export function hitsScale(total: number) {
  return {
    sites: Math.max(200, Math.round(total / 125)),
    users: Math.max(1000, Math.round(total * 0.17)),
    pages: 5000,
    phrases: Math.max(500, Math.round(total / 15)),
  };
}

/** Per-row draws of one chunk (indexes into the vocabularies). */
export interface HitsDraws {
  readonly n: number;
  /** The global index of the chunk's first row. */
  readonly first: number;
  readonly rng: Prng;
  readonly seed: number;
  readonly user: Int32Array;
  readonly site: Int32Array;
  readonly page: Int32Array;
  /** Index into SOURCE_NAMES. */
  readonly source: Uint8Array;
  /** Search: phrase rank; internal/link: referring page; others: -1. */
  readonly refItem: Int32Array;
  /** Search: index into SEARCH_ENGINES; link: referring site; others: -1. */
  readonly refSite: Int32Array;
  /** Seconds since the epoch, non-decreasing over the whole table. */
  readonly time: Float64Array;
  /** 1 for a refresh: the page and referer of the hit before in the same chunk, when there is one. */
  readonly refresh: Uint8Array;
}

/** Cumulative distributions by table size (the same for every chunk of a table). */
const cdfs = new Map<number, { site: Float64Array; user: Float64Array; page: Float64Array; phrase: Float64Array }>();

function cdfsFor(total: number) {
  let c = cdfs.get(total);
  if (!c) {
    const s = hitsScale(total);
    // Users: exponent 0.62 over 0.17 x rows gives ~16% distinct users and a top user at ~0.3% of the hits.
    c = {
      site: zipfCdf(s.sites - 1, 1.05),
      user: zipfCdf(s.users, 0.62),
      page: zipfCdf(s.pages, 1.0),
      phrase: zipfCdf(s.phrases, 0.9),
    };
    cdfs.set(total, c);
  }
  return c;
}

const ENGINE_CDF = [0.6, 0.85, 0.93, 0.98, 1];

export function drawHits(chunk: HitsChunk): HitsDraws {
  const n = chunk.rows;
  const rng = makePrng(hash2(chunk.seed, chunk.index + 1));
  const c = cdfsFor(chunk.total);
  const d: HitsDraws = {
    n,
    first: chunk.first,
    rng,
    seed: chunk.seed,
    user: new Int32Array(n),
    site: new Int32Array(n),
    page: new Int32Array(n),
    source: new Uint8Array(n),
    refItem: new Int32Array(n).fill(-1),
    refSite: new Int32Array(n).fill(-1),
    time: new Float64Array(n),
    refresh: new Uint8Array(n),
  };
  const shares = SOURCE_NAMES.map((s) => SOURCES[s][1]);
  for (let i = 0; i < n; i++) {
    const g = chunk.first + i;
    d.time[i] = JULY_2013 + Math.floor(((g + rng.next()) * SPAN_S) / chunk.total);
    const user = pickRank(c.user, rng.next());
    d.user[i] = user;
    if (i > 0 && rng.next() < 0.08) {
      copyHit(d, i);
      continue;
    }
    // A user visits their home site (a Zipf draw of its own) 70% of the time.
    const r = rng.next();
    const home = 1 + pickRank(c.site, hash2(chunk.seed, user) / 4294967296);
    d.site[i] = r < BIG_COUNTER_SHARE ? 0 : rng.next() < 0.7 ? home : 1 + pickRank(c.site, rng.next());
    d.page[i] = pickRank(c.page, rng.next());
    let u = rng.next();
    let s = 0;
    while (s < shares.length - 1 && u >= shares[s]!) u -= shares[s++]!;
    d.source[i] = s;
    drawReferer(d, i, SOURCE_NAMES[s]!, c);
  }
  return d;
}

/** A refresh repeats the previous hit's page and referer. */
function copyHit(d: HitsDraws, i: number): void {
  d.refresh[i] = 1;
  d.site[i] = d.site[i - 1]!;
  d.page[i] = d.page[i - 1]!;
  d.source[i] = d.source[i - 1]!;
  d.refItem[i] = d.refItem[i - 1]!;
  d.refSite[i] = d.refSite[i - 1]!;
}

function drawReferer(d: HitsDraws, i: number, source: Source, c: ReturnType<typeof cdfsFor>): void {
  const { rng } = d;
  if (source === 'search') {
    d.refItem[i] = pickRank(c.phrase, rng.next());
    const u = rng.next();
    d.refSite[i] = ENGINE_CDF.findIndex((p) => u < p);
  } else if (source === 'internal') {
    d.refItem[i] = pickRank(c.page, rng.next());
  } else if (source === 'link') {
    d.refSite[i] = 1 + pickRank(c.site, rng.next());
    d.refItem[i] = pickRank(c.page, rng.next());
  }
}

export const engineOf = (d: HitsDraws, i: number) => SEARCH_ENGINES[d.refSite[i]!]!;
