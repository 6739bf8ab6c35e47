// `makeTextPool`: dbgen's trick for fast comments: one long seeded text from TPC-H's sentence grammar, and every
// comment is a random slice of it (so comments start and end mid-word, as dbgen's do).
import { makePrng, type Prng } from '../../server/sample/prng.js';
import { ADJECTIVES, ADVERBS, AUXILIARIES, NOUNS, PREPOSITIONS, TERMINATORS, VERBS } from './tpch-dists.js';

/** 2 Mi characters (dbgen uses 300 MB): comments overlap more, but the files still compress no better than dbgen's. */
const TEXT_POOL_CHARS = 1 << 21;
/** Characters of dbgen's V_STR (addresses), with the space and comma real addresses show. */
const ALPHANUMERIC = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, '];
const ADDRESS_POOL_CHARS = 1 << 18;

export interface TextPool {
  /** A slice of the grammar text whose length is uniform in [lo, hi]. */
  text(rng: Prng, lo: number, hi: number): string;
  /** A random alphanumeric string whose length is uniform in [lo, hi] (addresses). */
  chars(rng: Prng, lo: number, hi: number): string;
}

/** The same pool for the same seed, on every machine and in every worker thread. */
export function makeTextPool(seed: number): TextPool {
  const rng = makePrng(seed ^ 0x5eed7e47);
  const parts: string[] = [];
  let length = 0;
  while (length < TEXT_POOL_CHARS) {
    const s = sentence(rng);
    parts.push(s);
    length += s.length + 1;
  }
  const pool = parts.join(' ');
  const address = Array.from({ length: ADDRESS_POOL_CHARS }, () => rng.pick(ALPHANUMERIC)).join('');
  const slice = (source: string) => (r: Prng, lo: number, hi: number) => {
    const n = r.int(lo, hi);
    const at = r.int(0, source.length - n);
    return source.slice(at, at + n);
  };
  return { text: slice(pool), chars: slice(address) };
}

// dbgen's grammar: sentence = N V T | N V P T | N V N T | N P V N T | N P V P T, weighted 3:3:3:1:1.
function sentence(rng: Prng): string {
  const shape = rng.int(0, 10);
  const words =
    shape < 3
      ? [nounPhrase(rng), verbPhrase(rng)]
      : shape < 6
        ? [nounPhrase(rng), verbPhrase(rng), prepositionalPhrase(rng)]
        : shape < 9
          ? [nounPhrase(rng), verbPhrase(rng), nounPhrase(rng)]
          : shape < 10
            ? [nounPhrase(rng), prepositionalPhrase(rng), verbPhrase(rng), nounPhrase(rng)]
            : [nounPhrase(rng), prepositionalPhrase(rng), verbPhrase(rng), prepositionalPhrase(rng)];
  return words.join(' ') + rng.pick(TERMINATORS);
}

// N | J N | J, J N | D J N, weighted 10:20:10:50.
function nounPhrase(rng: Prng): string {
  const r = rng.int(0, 89);
  if (r < 10) return rng.pick(NOUNS);
  if (r < 30) return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  if (r < 40) return `${rng.pick(ADJECTIVES)}, ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  return `${rng.pick(ADVERBS)} ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
}

// V | X V | V D | X V D, weighted 30:1:40:1.
function verbPhrase(rng: Prng): string {
  const r = rng.int(0, 71);
  if (r < 30) return rng.pick(VERBS);
  if (r < 31) return `${rng.pick(AUXILIARIES)} ${rng.pick(VERBS)}`;
  if (r < 71) return `${rng.pick(VERBS)} ${rng.pick(ADVERBS)}`;
  return `${rng.pick(AUXILIARIES)} ${rng.pick(VERBS)} ${rng.pick(ADVERBS)}`;
}

function prepositionalPhrase(rng: Prng): string {
  return `${rng.pick(PREPOSITIONS)} the ${nounPhrase(rng)}`;
}
