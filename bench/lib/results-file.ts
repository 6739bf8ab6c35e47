// Results files: `bench/results/<YYYY-MM-DD>-<label>.json`, pretty-printed so that diffs of committed runs read well.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineFacts } from './machine.js';
import { RESULTS_DIR } from './paths.js';

/** What every results file starts with. */
export interface ResultsHeader<Kind extends string> {
  readonly kind: Kind;
  readonly formatVersion: 1;
  readonly label: string;
  /** ISO time the run started. */
  readonly date: string;
  readonly machine: MachineFacts;
}

/** Writes `results` as `<dir>/<date>-<label>.json` (replacing a run of the same label that day); returns the path. */
export function saveResults(label: string, results: object, dir = RESULTS_DIR): string {
  if (!/^[\w.-]+$/.test(label)) throw new Error(`label must be letters, digits, '.', '-' or '_': ${label}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${new Date().toISOString().slice(0, 10)}-${label}.json`);
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

/** The results file at `path`; throws unless its kind is `kind` (or one of them). */
export function readResults<T extends { kind: string }>(path: string, kind: T['kind'] | readonly T['kind'][]): T {
  const r = JSON.parse(readFileSync(path, 'utf8')) as T;
  const kinds: readonly string[] = typeof kind === 'string' ? [kind] : kind;
  if (!kinds.includes(r.kind)) throw new Error(`${path} holds a '${r.kind}' result, not '${kinds.join("' or '")}'`);
  return r;
}
