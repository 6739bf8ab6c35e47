// Loads back to back share one loader thread; an idle one ends on time; a dead one is never handed out again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeIdleLoader, leaseLoader, returnLoader } from '../../../catalog/loader-lease.js';

describe('leaseLoader', () => {
  it('hands the returned loader to the next load, and a new one once the idle one is closed', async () => {
    const first = leaseLoader();
    returnLoader(first);
    const second = leaseLoader();
    assert.equal(second, first, 'the idle thread is reused');
    const meanwhile = leaseLoader();
    assert.notEqual(meanwhile, first, 'a loader is leased to one load at a time');
    await meanwhile.close();
    returnLoader(second);
    await closeIdleLoader();
    assert.ok(first.exited, 'closing ends the idle thread');
    const third = leaseLoader();
    assert.notEqual(third, first);
    await third.close();
  });

  it('does not keep a loader whose thread has ended, nor a second idle one', async () => {
    const dead = leaseLoader();
    await dead.close();
    returnLoader(dead);
    const fresh = leaseLoader();
    assert.notEqual(fresh, dead);
    const other = leaseLoader();
    returnLoader(fresh);
    returnLoader(other);
    // Its close starts at once; the thread's exit can take a while on a loaded machine, but less than the 2 s an
    // idle loader would wait (so a second loader kept idle still fails this).
    for (let i = 0; i < 150 && !other.exited; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(other.exited, 'the second idle loader ends at once');
    assert.equal(leaseLoader(), fresh);
    await fresh.close();
  });
});
