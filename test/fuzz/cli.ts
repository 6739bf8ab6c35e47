// `npm run fuzz -- [--minutes N] [--cases N] [--seed S]`: a long fuzz run against a fresh server; exits 1 on failures.
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { makeTempDir } from '../helpers/fixtures.js';
import { FuzzTarget } from './fuzz-target.js';
import { excludedForms } from './known-failures.js';
import { formatReport, runFuzz } from './run-fuzz.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      cases: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      deadline: { type: 'string', default: '10' },
    },
  });

  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const excluded = excludedForms();
  const target = new FuzzTarget(await makeTempDir('floe-fuzz-'));
  await target.start();
  console.log(
    `fuzzing seed ${seed} for ${values.minutes} min${values.cases ? ` or ${values.cases} cases` : ''} (excluded forms: ${[...excluded].join(', ') || 'none'})`,
  );
  let lastPrint = Date.now();
  const report = await runFuzz(target, {
    seed,
    cases: values.cases === undefined ? undefined : Number(values.cases),
    until: Date.now() + Number(values.minutes) * 60_000,
    concurrency: Number(values.concurrency),
    deadlineMs: Number(values.deadline) * 1000,
    batch: 50,
    allows: (form) => !excluded.has(form),
    progress: (r) => {
      if (Date.now() - lastPrint < 30_000) return;
      lastPrint = Date.now();
      const c = r.counts;
      console.log(
        `  ${c.cases} cases, ${c.ok200} 2xx, ${c.client4xx} 4xx, ${c['5xx']} 5xx, ${c.hang} hangs, ${c.crash} crashes, ${r.failures.size} distinct failures`,
      );
    },
  });
  await target.stop();
  await rm(target.dataDir, { recursive: true, force: true });
  console.log(formatReport(report));
  const unknown = [...report.failures.values()].filter((f) => f.known === null);
  process.exitCode = unknown.length > 0 ? 1 : 0;
}

// `node --test dist/test/` loads every file under test/: the CLI runs only when started as a command.
if (process.env.NODE_TEST_CONTEXT === undefined) await main();
