// The mutation corpus: SQL of the repo's own tests (.slt records and differential cases), read from test/ sources.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSlt } from '../slt/runner.js';

/** The repository's test/ folder: this file runs from dist/test/fuzz/, the sources sit in test/. */
const TEST_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test');

/** `sql: '...'` (or "..." / `...`) in a differential case file, with the quote's escapes undone. */
const SQL_FIELD = /\bsql:\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

function unquote(body: string): string {
  return body.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

function sltQueries(): string[] {
  const dir = join(TEST_DIR, 'slt');
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    if (f.endsWith('.slt')) out.push(...parseSlt(readFileSync(join(dir, f), 'utf8')).map((r) => r.sql));
  }
  return out;
}

function differentialQueries(): string[] {
  const dir = join(TEST_DIR, 'differential');
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.test.ts')) continue;
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(SQL_FIELD)) {
      if (!m[2]!.includes('${')) out.push(unquote(m[2]!));
    }
  }
  return out;
}

let corpus: readonly string[] | null = null;

/** Every test query (deduplicated, in a fixed order so that a seed makes the same cases). */
export function loadCorpus(): readonly string[] {
  corpus ??= [...new Set([...sltQueries(), ...differentialQueries()])].filter((s) => s.trim() !== '');
  return corpus;
}
