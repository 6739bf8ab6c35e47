// Manifests that differ only in their `runtime` section, and the problem a refused manifest reports.
import assert from 'node:assert/strict';
import { type Manifest, ManifestError, parseManifest } from '../../server/config/manifest.js';

export const MANIFEST_BASE = { version: 'v1', kind: 'Spicepod', name: 'm' };

/** Parses a manifest with this `runtime` section (relative paths from `/base`, `${env:…}` from `env`). */
export function loadRuntime(runtime: object, env: NodeJS.ProcessEnv = {}): Manifest {
  return parseManifest({ ...MANIFEST_BASE, runtime }, '/base', env);
}

/** The `ManifestError` message of a refused `runtime` section; fails the test when it is accepted. */
export function runtimeProblem(runtime: object, env: NodeJS.ProcessEnv = {}): string {
  return manifestProblem(() => loadRuntime(runtime, env));
}

/** The `ManifestError` message `parse` throws; fails the test when it parses. */
export function manifestProblem(parse: () => unknown): string {
  try {
    parse();
  } catch (e) {
    assert.ok(e instanceof ManifestError, `expected ManifestError, got ${e}`);
    return e.message;
  }
  assert.fail('expected the manifest to be refused');
}
