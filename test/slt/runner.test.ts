// Runs every test/slt/**/*.slt record as one node:test test, on the file-backed and the in-memory engine.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestEngines } from '../helpers/engines.js';
import { writeTestData } from '../helpers/gen-data.js';
import { KNOWN_FAILURES } from './known-failures.js';
import {
  compareQuery,
  parseSlt,
  type QueryOutcome,
  rewriteSlt,
  runQuery,
  runStatement,
  type SltRecord,
  withoutScanDetail,
} from './runner.js';

// Compiled to <outDir>/test/slt/; the .slt sources stay in <repo>/test/slt/.
const SLT_DIR = join(repoRoot(), 'test', 'slt');
const UPDATE = process.env.UPDATE === '1';

const data = await writeTestData();
const engines = await createTestEngines(data, { writable: true });
after(() => data.remove());

/** The nearest folder above this compiled file that holds package.json. */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the compiled test');
    dir = up;
  }
  return dir;
}

function sltFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sltFiles(join(dir, e.name)) : e.name.endsWith('.slt') ? [join(dir, e.name)] : [],
    )
    .sort();
}

/** Why the record fails on either engine, or null when both match it. */
async function checkRecord(rec: SltRecord, onActual: (o: QueryOutcome) => void): Promise<string | null> {
  if (rec.kind === 'statement') {
    for (const [name, engine] of Object.entries(engines)) {
      const err = await runStatement(engine, rec.sql, rec.params);
      if (rec.error === null && err !== null) return `${name}: unexpected error: ${err}`;
      if (rec.error !== null && err === null) return `${name}: expected an error containing "${rec.error}"`;
      if (rec.error !== null && !err!.includes(rec.error)) return `${name}: expected error "${rec.error}", got: ${err}`;
    }
    return null;
  }
  const outcomes: Partial<Record<keyof typeof engines, QueryOutcome>> = {};
  for (const [name, engine] of Object.entries(engines) as [keyof typeof engines, typeof engines.file][]) {
    try {
      outcomes[name] = await runQuery(engine, rec.sql, rec.params, rec.rowsort);
    } catch (e) {
      return `${name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    }
  }
  const { file, memory } = outcomes as Record<keyof typeof engines, QueryOutcome>;
  onActual(file);
  const fileProblem = compareQuery(rec.types, rec.expected, file, rec.rowsort);
  if (fileProblem) return `file: ${fileProblem}`;
  if (/^\s*explain\b/i.test(rec.sql)) {
    // The memory provider reports `chunks=… rows=…` where Parquet reports files and row groups.
    const same = withoutScanDetail(file.lines).join('\n') === withoutScanDetail(memory.lines).join('\n');
    return same ? null : `memory plan differs:\n${memory.lines.join('\n')}`;
  }
  const memoryProblem = compareQuery(rec.types, rec.expected, memory, rec.rowsort);
  return memoryProblem ? `memory: ${memoryProblem}` : null;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();
const known = new Set<string>();
for (const path of sltFiles(SLT_DIR)) {
  const file = relative(SLT_DIR, path);
  const text = readFileSync(path, 'utf8');
  const records = parseSlt(text);
  const updates = new Map<SltRecord, QueryOutcome>();
  describe(file, () => {
    for (const rec of records) {
      const knownFailure = KNOWN_FAILURES.find((k) => k.file === file && oneLine(k.sql) === oneLine(rec.sql));
      if (knownFailure) known.add(`${file}\n${oneLine(rec.sql)}`);
      const title = `${file}:${rec.line} ${oneLine(rec.sql).slice(0, 100)}`;
      test(title, async () => {
        const problem = await checkRecord(rec, (o) => {
          if (UPDATE && !knownFailure) updates.set(rec, o);
        });
        if (knownFailure) {
          assert.ok(problem !== null, `now passes: remove it from KNOWN_FAILURES (${knownFailure.bug})`);
        } else {
          assert.equal(problem, null, problem ?? '');
        }
      });
    }
    if (UPDATE) after(() => writeFileSync(path, rewriteSlt(text, updates)));
  });
}

test('every KNOWN_FAILURES entry names an existing record', () => {
  const stale = KNOWN_FAILURES.filter((k) => !known.has(`${k.file}\n${oneLine(k.sql)}`));
  assert.deepEqual(stale, []);
});
