// `deathError`: what a query gets when its worker died under it: out of memory names the limit; anything else
// is an internal error with a logged reference.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deathError } from '../../../../server/pool/death-error.js';

test('out of memory names runtime.query.memory_limit; another death is internal with a ref', () => {
  const oom = Object.assign(new Error('Worker terminated due to reaching memory limit'), {
    code: 'ERR_WORKER_OUT_OF_MEMORY',
  });
  assert.deepEqual(deathError(oom, { request: {} }, 512 * 1024 * 1024), {
    kind: 'memory',
    message: 'query exceeded the memory limit (runtime.query.memory_limit=512MiB)',
  });
  assert.equal(
    deathError(oom, { request: {} }, 2 * 1024 ** 3).message,
    'query exceeded the memory limit (runtime.query.memory_limit=2GiB)',
  );
  const logged: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((s: string) => logged.push(String(s)) > 0) as typeof process.stderr.write;
  let died: ReturnType<typeof deathError>;
  try {
    died = deathError(new Error('worker exited with code: 1'), { request: { queryId: 'q-1' } }, undefined);
  } finally {
    process.stderr.write = write;
  }
  assert.equal(died.kind, 'internal');
  assert.match(died.ref ?? '', /^[0-9a-f]{8}$/);
  assert.match(logged.join(''), new RegExp(`query worker died \\(query q-1\\) \\[ref ${died.ref}\\]`));
});
