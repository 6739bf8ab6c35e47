// `makeHitsColumns`: the 105 columns of one chunk of `hits` from its draws (hits-rows.ts). A user's device,
// region and browser come from a hash of the user (the same in every chunk); most flags and rare fields are
// mostly zero or empty, as in ClickBench's data.
import type { ColumnInput, DataType } from '../../engine/index.js';
import {
  BIG_COUNTER,
  engineOf,
  type HitsDraws,
  HOME_URL_HASH,
  SECOND_PAGE_REFERER_HASH,
  SOURCE_NAMES,
  SOURCES,
  SPECIAL_USER_ID,
  SPECIAL_USER_RANK,
} from './hits-rows.js';
import { HITS_COLUMNS, type HitsType } from './hits-schema.js';
import { makeHitsTexts } from './hits-texts.js';
import { hash2, hashText, PHONE_MODELS, pickRank, RESOLUTIONS, zipfCdf } from './hits-vocab.js';

type Values = ColumnInput['values'];

const TYPES: Record<HitsType, DataType> = {
  SMALLINT: { id: 'int32' },
  INTEGER: { id: 'int32' },
  BIGINT: { id: 'int64' },
  TEXT: { id: 'utf8' },
  CHAR: { id: 'utf8' },
  DATE: { id: 'date' },
  TIMESTAMP: { id: 'timestamp', tz: null },
};

/** Region ranks: 229 (Moscow) and 2 (Saint Petersburg) first, as in ClickBench's data. */
const REGION_CDF = zipfCdf(2500, 1.1);
const PHONE_CDF = zipfCdf(PHONE_MODELS.length, 1.0);
const MICROS = 1_000_000;

/** The columns in HITS_COLUMNS order (SMALLINTs as int32: hits-gen.ts casts them when it writes the file). */
export function makeHitsColumns(d: HitsDraws): ColumnInput[] {
  const { n, rng } = d;
  const salt = Math.imul(d.seed, 0x27d4eb2d);
  /** Attribute `k` of row i's user, a hash in [0, 2^32). */
  const uh = (i: number, k: number) => hash2(d.user[i]! ^ salt, k);
  // Plain loops: Int32Array.from with a callback was a third of the column time (profile, 100 k rows).
  const perHit = (f: (i: number) => number) => {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = f(i);
    return out;
  };
  const perUser = (k: number, f: (h: number, i: number) => number) => perHit((i) => f(uh(i, k), i));
  const rare = (p: number, f: () => number) => perHit(() => (rng.next() < p ? f() : 0));
  const texts = makeHitsTexts(d);
  const sourceId = perHit((i) => SOURCES[SOURCE_NAMES[d.source[i]!]!][0]);
  const is = (i: number, name: string) => SOURCE_NAMES[d.source[i]!] === name;
  const mobile = perUser(30, (h) => (h % 100 < 10 ? 1 + pickRank(PHONE_CDF, (h >>> 8) / 16777216) : 0));
  const resolution = (i: number) => {
    const h = uh(i, 31);
    if (h % 100 < 2) return [0, 0] as const;
    if (mobile[i]! > 0) return RESOLUTIONS[9 + (h % 3)]!;
    return RESOLUTIONS[Math.min(8, pickRank(PHONE_CDF, (h >>> 8) / 16777216))]!;
  };
  const resW = perHit((i) => resolution(i)[0]);
  const resH = perHit((i) => resolution(i)[1]);
  const clientIP = perUser(32, (h) => h | 0);
  const tz = perUser(33, (h) => (h % 100 < 75 ? 4 : (h % 27) - 12));
  const timeMicros = (offset: (i: number) => number) =>
    Float64Array.from({ length: n }, (_, i) => (d.time[i]! + offset(i)) * MICROS);
  const hashes = (texts: readonly string[], special: (i: number) => bigint | null) => {
    const out = new BigInt64Array(n);
    const words = new Int32Array(out.buffer);
    for (let i = 0; i < n; i++) {
      const s = special(i);
      if (s === null) hashText(texts[i]!, words, i);
      else out[i] = s;
    }
    return out;
  };
  /** A positive 63-bit hash of (a(i), b(i)) per row, written as two 32-bit words (no BigInt per row). */
  const hash63 = (a: (i: number) => number, b: number, special?: (i: number) => bigint | null) => {
    const out = new BigInt64Array(n);
    const words = new Int32Array(out.buffer);
    for (let i = 0; i < n; i++) {
      const s = special?.(i) ?? null;
      if (s !== null) out[i] = s;
      else {
        words[2 * i] = hash2(b, a(i));
        words[2 * i + 1] = hash2(a(i), b) & 0x7fffffff;
      }
    }
    return out;
  };
  const empty = () => new Array<string>(n).fill('');
  const pickText = (k: number, items: readonly string[], weights: (h: number) => number) =>
    Array.from({ length: n }, (_, i) => items[weights(uh(i, k))]!);

  const columns: Record<string, () => Values> = {
    WatchID: () => hash63((i) => d.first + i, salt ^ 0x5bd1),
    JavaEnable: () => perUser(1, (h) => (h % 10 < 4 ? 1 : 0)),
    Title: () => texts.title,
    GoodEvent: () => perHit(() => (rng.next() < 0.995 ? 1 : 0)),
    EventTime: () => timeMicros(() => 0),
    EventDate: () => perHit((i) => Math.floor(d.time[i]! / 86_400)),
    CounterID: () => perHit((i) => (d.site[i] === 0 ? BIG_COUNTER : BIG_COUNTER + 13 * d.site[i]!)),
    ClientIP: () => clientIP,
    RegionID: () => perUser(2, (h) => regionId(pickRank(REGION_CDF, h / 4294967296))),
    UserID: () =>
      hash63(
        (i) => d.user[i]! ^ salt,
        0x1234567,
        (i) => (d.user[i] === SPECIAL_USER_RANK ? SPECIAL_USER_ID : null),
      ),
    CounterClass: () => perHit((i) => hash2(d.site[i]!, 3) % 3),
    OS: () => perUser(4, (h) => [2, 56, 44, 3, 91, 106, 117][h % 7]!),
    UserAgent: () => perUser(5, (h) => [7, 3, 2, 4, 6, 70, 113][h % 7]!),
    URL: () => texts.url,
    Referer: () => texts.referer,
    IsRefresh: () => d.refresh,
    RefererCategoryID: () => perHit((i) => (texts.referer[i] === '' ? 0 : hash2(d.refSite[i]!, 6) % 12)),
    RefererRegionID: () => perHit((i) => (texts.referer[i] === '' ? 0 : regionId(hash2(d.refItem[i]!, 7) % 40))),
    URLCategoryID: () => perHit((i) => hash2(d.site[i]!, 8) % 12),
    URLRegionID: () => perHit((i) => regionId(hash2(d.site[i]!, 9) % 40)),
    ResolutionWidth: () => resW,
    ResolutionHeight: () => resH,
    ResolutionDepth: () => perUser(10, (h) => (h % 10 < 7 ? 32 : 24)),
    FlashMajor: () => perUser(11, (h) => (h % 10 < 3 ? 0 : 10 + (h % 2))),
    FlashMinor: () => perUser(12, (h) => h % 4),
    FlashMinor2: () => pickText(13, ['', '', '', '0', '1', '3', '12'], (h) => h % 7),
    NetMajor: () => perUser(14, (h) => (h % 10 < 8 ? 0 : 4)),
    NetMinor: () => perUser(15, (h) => (h % 10 < 8 ? 0 : h % 6)),
    UserAgentMajor: () => perUser(16, (h) => [0, 22, 23, 24, 25, 26, 9, 10, 11][h % 9]!),
    UserAgentMinor: () => pickText(17, ['', '0', '1', '4', '1271', 'D0'], (h) => h % 6),
    CookieEnable: () => perUser(18, (h) => (h % 100 < 98 ? 1 : 0)),
    JavascriptEnable: () => perUser(19, (h) => (h % 100 < 97 ? 1 : 0)),
    IsMobile: () => perHit((i) => (mobile[i]! > 0 ? 1 : 0)),
    MobilePhone: () => mobile,
    MobilePhoneModel: () => Array.from(mobile, (m) => (m === 0 ? '' : PHONE_MODELS[m - 1]!)),
    Params: () => Array.from({ length: n }, () => (rng.next() < 0.01 ? `ref=${rng.int(1, 999)}` : '')),
    IPNetworkID: () => perUser(20, (h) => h % 4_000_000),
    TraficSourceID: () => sourceId,
    SearchEngineID: () => perHit((i) => (is(i, 'search') ? engineOf(d, i)[0] : 0)),
    SearchPhrase: () => texts.phrase,
    AdvEngineID: () => perHit((i) => (is(i, 'ad') ? [2, 4, 13, 27, 3, 31, 48][hash2(i, d.user[i]!) % 7]! : 0)),
    IsArtifical: () => rare(0.005, () => 1),
    WindowClientWidth: () => perHit((i) => Math.max(0, resW[i]! - rng.int(0, 400))),
    WindowClientHeight: () => perHit((i) => Math.max(0, resH[i]! - rng.int(80, 480))),
    ClientTimeZone: () => tz,
    ClientEventTime: () => timeMicros((i) => (uh(i, 21) % 100 < 80 ? 0 : (uh(i, 22) % 600) - 300)),
    SilverlightVersion1: () => perUser(23, (h) => (h % 10 < 7 ? 0 : 5)),
    SilverlightVersion2: () => perUser(24, (h) => (h % 10 < 7 ? 0 : 1)),
    SilverlightVersion3: () => perUser(25, (h) => (h % 10 < 7 ? 0 : 20416 + (h % 400))),
    SilverlightVersion4: () => perUser(26, (h) => (h % 10 < 7 ? 0 : 1)),
    PageCharset: () => Array.from(d.site, (s) => ['utf-8', 'utf-8', 'windows-1251', ''][hash2(s, 27) % 4]!),
    CodeVersion: () => perHit((i) => 500 + (hash2(d.site[i]!, 28) % 300)),
    IsLink: () => rare(0.03, () => 1),
    IsDownload: () => rare(0.01, () => 1),
    IsNotBounce: () => perHit(() => (rng.next() < 0.4 ? 1 : 0)),
    FUniqID: () =>
      hash63(
        (i) => d.user[i]! ^ salt,
        0x4242,
        (i) => (uh(i, 34) % 2 === 0 ? 0n : null),
      ),
    OriginalURL: () => Array.from(texts.url, (u) => (rng.next() < 0.05 ? u : '')),
    HID: () => perHit(() => (rng.next() * 4294967296) | 0),
    IsOldCounter: () => perHit((i) => (hash2(d.site[i]!, 35) % 20 === 0 ? 1 : 0)),
    IsEvent: () => rare(0.03, () => 1),
    IsParameter: () => rare(0.01, () => 1),
    DontCountHits: () => rare(0.02, () => 1),
    WithHash: () => rare(0.01, () => 1),
    HitColor: () => Array.from({ length: n }, () => 'EEEEEEFFFD5'[rng.int(0, 10)]!),
    LocalEventTime: () => timeMicros((i) => (tz[i]! - 4) * 3600),
    Age: () => perUser(36, (h) => (h % 10 < 4 ? 0 : 16 + (h % 40))),
    Sex: () => perUser(37, (h) => h % 3),
    Income: () => perUser(38, (h) => h % 5),
    Interests: () => perUser(39, (h) => (h % 10 < 5 ? 0 : h % 16000)),
    Robotness: () => perUser(40, (h) => (h % 100 < 97 ? 0 : 1 + (h % 5))),
    RemoteIP: () => perHit((i) => (uh(i, 41) % 10 === 0 ? uh(i, 42) | 0 : clientIP[i]!)),
    WindowName: () => perHit(() => (rng.next() < 0.7 ? -1 : rng.int(1, 2_000_000_000))),
    OpenerName: () => perHit(() => (rng.next() < 0.9 ? -1 : rng.int(1, 2_000_000_000))),
    HistoryLength: () => perHit(() => Math.floor(-Math.log(1 - rng.next()) * 6)),
    BrowserLanguage: () => pickText(43, ['ru', 'ru', 'ru', 'ru', 'en', 'uk', 'be', 'de', ''], (h) => h % 9),
    BrowserCountry: () => pickText(44, ['ru', 'ru', 'ru', 'ua', 'by', 'kz', 'us', 'de', ''], (h) => h % 9),
    SocialNetwork: () => texts.social,
    SocialAction: () => Array.from({ length: n }, () => (rng.next() < 0.005 ? 'like' : '')),
    HTTPError: () => rare(0.005, () => [404, 500, 502][rng.int(0, 2)]!),
    SendTiming: () => timing(0.3, 40),
    DNSTiming: () => timing(0.6, 15),
    ConnectTiming: () => timing(0.5, 30),
    ResponseStartTiming: () => timing(0.2, 200),
    ResponseEndTiming: () => timing(0.2, 400),
    FetchTiming: () => timing(0.2, 600),
    SocialSourceNetworkID: () => perHit((i) => (is(i, 'social') ? 1 + (d.user[i]! % 5) : 0)),
    SocialSourcePage: () => Array.from(texts.social, (s) => (s === '' ? '' : `/${s}/feed`)),
    ParamPrice: () =>
      BigInt64Array.from(
        rare(0.01, () => rng.int(100, 100_000)),
        BigInt,
      ),
    ParamOrderID: () => Array.from({ length: n }, () => (rng.next() < 0.005 ? String(rng.int(1, 9_999_999)) : '')),
    ParamCurrency: () => Array.from({ length: n }, () => (rng.next() < 0.01 ? 'RUB' : '')),
    ParamCurrencyID: () => rare(0.01, () => 1),
    OpenstatServiceName: () => Array.from({ length: n }, () => (rng.next() < 0.002 ? 'direct.yandex.ru' : '')),
    OpenstatCampaignID: () => empty(),
    OpenstatAdID: () => empty(),
    OpenstatSourceID: () => empty(),
    UTMSource: () => texts.utmSource,
    UTMMedium: () => Array.from(texts.utmSource, (s) => (s === '' ? '' : 'cpc')),
    UTMCampaign: () => Array.from(texts.utmSource, (s) => (s === '' ? '' : `campaign${rng.int(1, 50)}`)),
    UTMContent: () => empty(),
    UTMTerm: () => empty(),
    FromTag: () => empty(),
    HasGCLID: () => perHit((i) => (is(i, 'ad') && rng.next() < 0.3 ? 1 : 0)),
    RefererHash: () =>
      hashes(texts.referer, (i) =>
        is(i, 'internal') && d.site[i] === 0 && d.refItem[i] === 1 ? SECOND_PAGE_REFERER_HASH : null,
      ),
    URLHash: () => hashes(texts.url, (i) => (d.site[i] === 0 && d.page[i] === 0 ? HOME_URL_HASH : null)),
    CLID: () => rare(0.05, () => rng.int(1, 2_000_000)),
  };

  /** Milliseconds: zero for a share of hits, else exponentially distributed around `mean`. */
  function timing(zeros: number, mean: number): Int32Array {
    return perHit(() => (rng.next() < zeros ? 0 : Math.floor(-Math.log(1 - rng.next()) * mean)));
  }

  return HITS_COLUMNS.map(([name, type]) => ({ name, type: TYPES[type], nullable: false, values: columns[name]!() }));
}

/** RegionID of a region rank: 229 and 2 first, then ids spread over 1..10000. */
const regionId = (rank: number) => (rank === 0 ? 229 : rank === 1 ? 2 : 3 + (hash2(rank, 0x71) % 10_000));
