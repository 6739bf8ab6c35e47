// Differential: the 22 TPC-H queries (validation parameters, Q15 as a CTE) over generated SF0.1 data vs DuckDB,
// file-backed and accelerated. The data comes from bench/'s seeded generator, in a temporary folder.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTpch } from '../../bench/data/tpch-gen.js';
import { TPCH_QUERIES_DIR as QUERIES_DIR } from '../../bench/lib/paths.js';
import type { TestData } from '../helpers/gen-data.js';
import { type DiffCase, differentialSuite } from './harness.js';

const SF = 0.1;

async function tpchData(): Promise<TestData> {
  const root = await mkdtemp(join(tmpdir(), 'floe-tpch-'));
  const data = await generateTpch({ sf: SF, dir: root });
  return { dir: root, tables: data.tables, remove: () => rm(root, { recursive: true, force: true }) };
}

const files = (await readdir(QUERIES_DIR)).filter((f) => /^q\d\d\.sql$/.test(f)).sort();
const cases: DiffCase[] = await Promise.all(
  files.map(async (f) => ({ sql: (await readFile(join(QUERIES_DIR, f), 'utf8')).replace(/^--.*\n/gm, '').trim() })),
);

differentialSuite('tpch22', cases, tpchData);
