// The text columns of one chunk of `hits` that follow from a hit's site, page and traffic source: URL, Referer,
// Title, SearchPhrase, SocialNetwork and UTMSource (a refresh repeats the URL of the hit before it).
import { engineOf, type HitsDraws, SOURCE_NAMES } from './hits-rows.js';
import { hash2, pagePath, pageTitle, SOCIAL_DOMAINS, SOCIAL_NETWORKS, searchPhrase, siteDomain } from './hits-vocab.js';

export interface HitsTexts {
  readonly url: string[];
  readonly referer: string[];
  readonly title: string[];
  readonly phrase: string[];
  readonly social: string[];
  readonly utmSource: string[];
}

/** Memoises `f` by an integer key (domains, phrases): each is made once per chunk. */
function memo<T>(f: (k: number) => T): (k: number) => T {
  const seen = new Map<number, T>();
  return (k) => {
    let v = seen.get(k);
    if (v === undefined) {
      v = f(k);
      seen.set(k, v);
    }
    return v;
  };
}

export function makeHitsTexts(d: HitsDraws): HitsTexts {
  const { n, rng } = d;
  const domain = memo(siteDomain);
  const phrase = memo(searchPhrase);
  const encoded = memo((k) => encodeURIComponent(phrase(k)));
  const page = (site: number, p: number) => `http://${domain(site)}${pagePath(site, p)}`;
  const t: HitsTexts = { url: [], referer: [], title: [], phrase: [], social: [], utmSource: [] };
  for (let i = 0; i < n; i++) {
    const site = d.site[i]!;
    const p = d.page[i]!;
    const source = SOURCE_NAMES[d.source[i]!]!;
    if (d.refresh[i] === 1) {
      t.url.push(t.url[i - 1]!);
      t.referer.push(t.referer[i - 1]!);
    } else {
      // A quarter of the views of inner pages carry an item id: URLs are of high cardinality, as in ClickBench.
      const query = p > 0 && rng.next() < 0.25 ? `?id=${rng.int(1, 1_000_000)}` : '';
      t.url.push(page(site, p) + query);
      t.referer.push(refererOf(d, i, source, page, encoded));
    }
    t.title.push(pageTitle(site, p));
    t.phrase.push(source === 'search' ? phrase(d.refItem[i]!) : '');
    t.social.push(source === 'social' ? SOCIAL_NETWORKS[d.user[i]! % 5]! : '');
    t.utmSource.push(source === 'ad' ? (rng.next() < 0.7 ? 'yandex' : 'google') : '');
  }
  return t;
}

function refererOf(
  d: HitsDraws,
  i: number,
  source: (typeof SOURCE_NAMES)[number],
  page: (site: number, p: number) => string,
  encoded: (k: number) => string,
): string {
  switch (source) {
    case 'search':
      return engineOf(d, i)[1] + encoded(d.refItem[i]!);
    case 'internal':
      return page(d.site[i]!, d.refItem[i]!);
    case 'link':
      return page(d.refSite[i]!, d.refItem[i]!);
    case 'ad':
      return `http://an.yandex.ru/count/${hash2(i, d.user[i]!).toString(36)}`;
    case 'mail':
      return `http://e.mail.ru/message/${hash2(d.user[i]!, 6) % 100_000}/`;
    case 'social':
      return `http://${SOCIAL_DOMAINS[d.user[i]! % 5]}/feed`;
    case 'direct':
      return '';
  }
}
