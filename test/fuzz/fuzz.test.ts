// The bounded fuzz run of `npm test`: 1,500 seeded cases (grammar, mutations, malformed HTTP) against a real
// server; no 5xx, hang, crash, stack trace or empty 4xx message beyond the KNOWN_FAILURES fixed elsewhere.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { makeTempDir } from '../helpers/fixtures.js';
import { FuzzTarget } from './fuzz-target.js';
import { excludedForms } from './known-failures.js';
import { formatReport, runFuzz } from './run-fuzz.js';

/** FLOE_FUZZ_CASES / FLOE_FUZZ_SEED run more, or others; `npm run fuzz` is the long run. */
const CASES = Number(process.env.FLOE_FUZZ_CASES ?? 1500);
const SEED = Number(process.env.FLOE_FUZZ_SEED ?? 1);
const EXCLUDED = excludedForms();

let target: FuzzTarget;
before(async () => {
  target = new FuzzTarget(await makeTempDir('floe-fuzz-'));
  await target.start();
});
after(async () => {
  await target.stop();
  await rm(target.dataDir, { recursive: true, force: true });
});

test(`fuzz: ${CASES} cases of seed ${SEED} answer 200 or 4xx, in time, and the server stays up`, async () => {
  const report = await runFuzz(target, {
    seed: SEED,
    cases: CASES,
    concurrency: 4,
    // Generous: npm test shares two cores with other suites; a request never answered still fails.
    deadlineMs: 30_000,
    batch: 50,
    allows: (form) => !EXCLUDED.has(form),
  });
  const unknown = [...report.failures.values()].filter((f) => f.known === null);
  assert.equal(unknown.length, 0, formatReport(report));
  // The three sources all ran, and most queries got past the parser (the grammar is not all garbage).
  assert.equal(report.counts.cases, CASES);
  assert.ok(report.counts.ok200 > CASES * 0.15, formatReport(report));
});
