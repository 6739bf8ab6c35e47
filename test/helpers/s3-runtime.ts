// S3 datasets through the whole runtime in tests: versioned objects on s3rver, floe serving them, the state HTTP reports.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { writeVersion } from './dataset-files.js';
import { makeTempDir } from './fixtures.js';
import { get, post } from './http.js';
import type { S3TestServer } from './s3-server.js';
import type { TestServer } from './test-server.js';

/** Fast retries: a dataset that failed loads again within a fraction of a second once its source is back. */
export const FAST_RETRY = { initialMs: 100, maxMs: 300 };
export const NO_CACHE = { caching: { sql_results: { enabled: false } } };

/** Uploads to `location` a Parquet object of `rows` rows (id 0..rows-1, version = `version`). */
export async function putVersion(s3: S3TestServer, location: string, version: number, rows: number): Promise<void> {
  const path = await writeVersion(join(await makeTempDir('floe-s3-version-'), 'v.parquet'), version, rows);
  await s3.upload(location, path);
}

/** `SELECT count(*), min(version), max(version)` of `table`, asserting a 200. */
export async function versionCounts(srv: TestServer, table: string): Promise<{ n: number; lo: number; hi: number }> {
  const res = await post(srv.sql, `SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM ${table}`);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text)[0];
}

/** One dataset of `GET /v1/datasets?status=true`, as HTTP reports it. */
export interface ListedDataset {
  readonly name: string;
  readonly status: string;
  readonly error: { category: string; type: string; code: string } | null;
  readonly error_message: string | null;
}

/** The datasets `GET /v1/datasets?status=true` lists, by name. */
export async function listedDatasets(srv: TestServer): Promise<Map<string, ListedDataset>> {
  const res = await get(`${srv.base}/v1/datasets?status=true`);
  assert.equal(res.status, 200, res.text);
  return new Map((JSON.parse(res.text) as ListedDataset[]).map((d) => [d.name, d]));
}

/** `name` as `GET /v1/datasets?status=true` lists it (fails when it is not listed). */
export async function listed(srv: TestServer, name: string): Promise<ListedDataset> {
  const d = (await listedDatasets(srv)).get(name);
  assert.ok(d !== undefined, `${name} is not listed`);
  return d;
}

/** POSTs an on-demand refresh of `name` (body: the overrides, as JSON) and asserts the 201. */
export async function refreshOverHttp(srv: TestServer, name: string, body?: Record<string, unknown>): Promise<void> {
  const url = `${srv.base}/v1/datasets/${name}/acceleration/refresh`;
  const res =
    body === undefined
      ? await post(url, '')
      : await post(url, JSON.stringify(body), { 'Content-Type': 'application/json' });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(JSON.parse(res.text), { message: `Dataset refresh triggered for ${name}.` });
}

/** Reports (as a test diagnostic) the time since the previous phase ended: what each phase costs in CI. */
export function phaseTimer(t: Pick<TestContext, 'diagnostic'>): (phase: string) => void {
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    t.diagnostic(`${phase}: ${Math.round(now - last)} ms`);
    last = now;
  };
}
