// The text of the hits generator: site domains, page paths, titles, search phrases and phone models, each a pure
// function of its rank (so any chunk makes the same text), plus the hashes and the Zipf sampler the rows draw with.

/** murmur3's 32-bit finaliser: a well-mixed hash of a 32-bit integer. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A hash of two integers in [0, 2^32). */
export const hash2 = (a: number, b: number) => mix32(Math.imul(a, 0x9e3779b1) ^ mix32(b + 0x7f4a7c15));

/** A uniform number in [0, 1) from two integers. */
export const unit2 = (a: number, b: number) => hash2(a, b) / 4294967296;

/** Cumulative probabilities of ranks 0..n-1 under Zipf's law with exponent `s` (rank k weighs 1/(k+1)^s). */
export function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cdf[k] = total += (k + 1) ** -s;
  for (let k = 0; k < n; k++) cdf[k]! /= total;
  return cdf;
}

/** The rank whose cumulative probability first reaches `u` (binary search). */
export function pickRank(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A 64-bit hash of `text` as two 32-bit words (two FNV-1a lanes, finalised), written at `out[2 * i]` (low) and
 * `out[2 * i + 1]` (high) of an Int32Array over a BigInt64Array; the sign bit is cleared (ClickBench's hashes
 * are positive BIGINTs).
 */
export function hashText(text: string, out: Int32Array, i: number): void {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let c = 0; c < text.length; c++) {
    const ch = text.charCodeAt(c);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x5bd1e995);
  }
  out[2 * i] = mix32(a ^ b);
  out[2 * i + 1] = mix32(b + 0x27d4eb2f) & 0x7fffffff;
}

const SYLLABLES = 'ka ro mi ne to sa li vo de ra mo ni ku pe zo ta le bi go fa du ve si ma no ri te lo va ze'.split(
  ' ',
);
const TLDS = ['ru', 'ru', 'ru', 'com', 'net', 'org', 'ua', 'by', 'kz', 'info'];
const SECTIONS = 'news catalog forum blog photo video auto sport weather music games shop search mail maps'.split(' ');
const WORDS = (
  'buy cheap new free online download watch movie film music video photo news weather map price sale car auto ' +
  'house flat rent job work school game games phone mobile android iphone windows recipe travel hotel tickets ' +
  'football hockey bank credit loan insurance dress shoes kids toys garden books translate dictionary lyrics ' +
  'смотреть скачать бесплатно онлайн новости погода карта купить цена фильм игры работа квартира авто'
).split(' ');
const GOOGLE_WORDS = ['Google Chrome', 'Google Maps', 'Google Translate', 'Google Play', 'Google Earth'];

/** Site rank 0 is the large counter; a site whose rank is 5 mod 29 is a Google property. */
export const isGoogleSite = (site: number) => site % 29 === 5;

/** The domain of site `site` (rank 0 is the largest). */
export function siteDomain(site: number): string {
  const h = mix32(site + 1);
  const name = `${SYLLABLES[h % 30]}${SYLLABLES[(h >>> 5) % 30]}${site % 7 === 3 ? SYLLABLES[(h >>> 10) % 30] : ''}`;
  if (isGoogleSite(site)) return `${SECTIONS[(h >>> 15) % SECTIONS.length]}.google.${site % 2 === 0 ? 'ru' : 'com'}`;
  return `${name}${site}.${TLDS[(h >>> 20) % TLDS.length]}`;
}

/** The path of page `page` of `site`: `/` for the home page (rank 0). */
export function pagePath(site: number, page: number): string {
  if (page === 0) return '/';
  const h = hash2(site, page);
  const section = SECTIONS[h % SECTIONS.length];
  if (page % 3 === 0) return `/${section}/${page}`;
  return `/${section}/${WORDS[(h >>> 8) % 60]}-${WORDS[(h >>> 16) % 60]}-${page}.html`;
}

/** The title of page `page` of `site`: empty for about 8% of pages; about 3% of the others mention Google. */
export function pageTitle(site: number, page: number): string {
  const h = hash2(page + 17, site);
  if (h % 100 < 8) return '';
  const words = `${WORDS[(h >>> 7) % WORDS.length]} ${WORDS[(h >>> 14) % WORDS.length]}`;
  const google = isGoogleSite(site) || (h >>> 21) % 100 < 3;
  const topic = google ? `${GOOGLE_WORDS[(h >>> 24) % GOOGLE_WORDS.length]} ${words}` : words;
  return `${topic[0]!.toUpperCase()}${topic.slice(1)} - ${siteDomain(site)}`;
}

/** Search phrase number `phrase`: two to four words. */
export function searchPhrase(phrase: number): string {
  const h = mix32(phrase * 2 + 1);
  const h2 = mix32(phrase * 2 + 2);
  const n = 2 + (h % 3);
  const words = [WORDS[(h >>> 4) % WORDS.length], WORDS[(h >>> 12) % WORDS.length]];
  if (n > 2) words.push(WORDS[(h2 >>> 3) % WORDS.length]);
  if (n > 3) words.push(String(h2 % 1000));
  return words.join(' ');
}

/** [SearchEngineID, referer prefix before the encoded phrase], most used first. */
export const SEARCH_ENGINES: readonly (readonly [number, string])[] = [
  [2, 'http://yandex.ru/yandsearch?lr=213&text='],
  [3, 'http://www.google.ru/search?hl=ru&q='],
  [5, 'http://go.mail.ru/search?q='],
  [1, 'http://nova.rambler.ru/search?query='],
  [14, 'http://www.bing.com/search?q='],
];

export const SOCIAL_NETWORKS = ['vkontakte', 'odnoklassniki', 'facebook', 'twitter', 'livejournal'];
export const SOCIAL_DOMAINS = ['vk.com', 'odnoklassniki.ru', 'www.facebook.com', 'twitter.com', 'livejournal.com'];

/** Phone models by popularity; MobilePhone is the model's index + 1. */
export const PHONE_MODELS = (
  'iPad,iPhone,Galaxy S4,Galaxy S III,Lumia 920,Galaxy Note II,HTC One,Xperia Z,Nexus 4,Galaxy Tab 2,' +
  'Galaxy Ace,Optimus G,Galaxy Mini,Desire HD,Xperia S,Nokia N8,Kindle Fire,Nexus 7,One X,Galaxy Y'
).split(',');

/** Common screen sizes [width, height], most common first. */
export const RESOLUTIONS: readonly (readonly [number, number])[] = [
  [1366, 768],
  [1920, 1080],
  [1280, 1024],
  [1280, 800],
  [1440, 900],
  [1600, 900],
  [1024, 768],
  [1680, 1050],
  [1920, 1200],
  [360, 640],
  [320, 480],
  [768, 1024],
];
