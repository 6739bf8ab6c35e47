// Where the benchmarks find their inputs and put their outputs, from the built file's place in dist/bench/lib/.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Committed results: one JSON file per run, `<date>-<label>.json`. */
export const RESULTS_DIR = `${REPO_ROOT}bench/results`;
export const TPCH_QUERIES_DIR = `${REPO_ROOT}bench/tpch/queries`;
export const CLICKBENCH_QUERIES_FILE = `${REPO_ROOT}bench/clickbench/queries.sql`;
