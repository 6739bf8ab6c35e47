// Per-engine dialect variants of the TPC-H queries: `queries/<engine>/qNN.sql` replaces `queries/qNN.sql` for that
// engine only, where the standard text fails on a syntax the engine lacks (the answer must stay the same).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TPCH_QUERIES_DIR } from '../lib/paths.js';
import type { EngineName } from './engine-names.js';

/** The variant texts of `engine` by query id (`q07` …); empty when it has none. */
export function loadVariants(engine: EngineName, dir: string = TPCH_QUERIES_DIR): Map<string, string> {
  const folder = join(dir, engine);
  if (!existsSync(folder)) return new Map();
  const files = readdirSync(folder).filter((f) => /^q\d\d\.sql$/.test(f));
  return new Map(files.sort().map((f) => [f.slice(0, 3), readFileSync(join(folder, f), 'utf8')] as const));
}

/** What `engine` runs for each query: its variant when it has one (`variant: true`), else the standard text. */
export function queriesFor(
  standard: ReadonlyMap<string, string>,
  variants: ReadonlyMap<string, string>,
): Map<string, { sql: string; variant: boolean }> {
  const unknown = [...variants.keys()].filter((id) => !/^q(0[1-9]|1\d|2[0-2])$/.test(id));
  if (unknown.length > 0) throw new Error(`variants of no TPC-H query: ${unknown.join(', ')}`);
  return new Map(
    [...standard].map(([id, sql]) => {
      const v = variants.get(id);
      return [id, v === undefined ? { sql, variant: false } : { sql: v, variant: true }] as const;
    }),
  );
}
