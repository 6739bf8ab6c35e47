// The AWS SDK's NodeVersionSupportWarning (its 2027 releases need Node 22) stays off floe's stderr; other warnings
// still print.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

const ENGINE = new URL('../../../../engine/index.js', import.meta.url).href;

it("keeps the SDK's Node version warning off stderr, and only it", () => {
  const script = `
    import { objectStoreFor } from ${JSON.stringify(ENGINE)};
    const config = { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', auth: 'public', timeoutMs: 1000 };
    await objectStoreFor('s3://bucket/key', config).head('s3://bucket/key').catch(() => {});
    process.emitWarning('another warning');
  `;
  const env = { ...process.env };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /NodeVersionSupportWarning/);
  assert.match(run.stderr, /Warning: another warning/);
});
