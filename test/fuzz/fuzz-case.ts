// Case `index` of a seeded run: a grammar query, a mutated test query or a malformed request, as raw bytes.

import { chance, int } from '../generated/expr-gen.js';
import { makeRng } from '../helpers/gen-data.js';
import { loadCorpus } from './corpus.js';
import { httpCase, jsonPost, type RawRequest, rawRequest } from './http-cases.js';
import { mutateSql } from './mutate-sql.js';
import { grammarSql } from './sql-grammar.js';

export type Source = 'grammar' | 'mutation' | 'http';

export interface FuzzCase {
  readonly index: number;
  readonly source: Source;
  /** The HTTP case's shape (`bad-json`, `pipelined`, ...), or `sql` / `json` for a query body. */
  readonly label: string;
  /** The SQL, or the request bytes in printable form. */
  readonly text: string;
  readonly raw: RawRequest;
}

/** Request bytes as one printable line (latin1, escapes for control bytes), cut to `max` characters. */
export function printable(bytes: Buffer, max = 400): string {
  const s = JSON.stringify(bytes.subarray(0, max).toString('latin1'));
  return bytes.length > max ? `${s}… (${bytes.length} bytes)` : s;
}

function sqlRequest(rng: () => number, sql: string): { label: string; raw: RawRequest } {
  if (chance(rng, 0.2)) return { label: 'json', raw: { bytes: jsonPost(JSON.stringify({ sql })) } };
  const headers: [string, string][] = chance(rng, 0.5) ? [['Content-Type', 'text/plain']] : [];
  return { label: 'sql', raw: { bytes: rawRequest('POST', '/v1/sql', headers, sql) } };
}

/** Each case has its own generator, so case `index` of `seed` can be made again alone. */
export function makeCase(seed: number, index: number, allows: (form: string) => boolean): FuzzCase {
  const rng = makeRng((seed * 1_000_003 + index * 7919) >>> 0);
  const roll = int(rng, 0, 99);
  const anySql = () => (chance(rng, 0.5) ? grammarSql(rng, allows) : mutateSql(rng, loadCorpus()));
  if (roll < 45) {
    const sql = grammarSql(rng, allows);
    return { index, source: 'grammar', text: sql, ...sqlRequest(rng, sql) };
  }
  if (roll < 80) {
    const sql = mutateSql(rng, loadCorpus());
    return { index, source: 'mutation', text: sql, ...sqlRequest(rng, sql) };
  }
  const { label, raw } = httpCase(rng, allows, anySql);
  return { index, source: 'http', label, text: printable(raw.bytes), raw };
}
