// Claim slots: for each hand-out of a query exactly one side wins, the worker (runs it) or the main thread (takes it back).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLAIM_SLOTS, claimTicket, stealTicket } from '../../../../server/pool/claims.js';

test('a claimed ticket cannot be taken back, a taken-back ticket cannot be claimed', () => {
  const claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  assert.equal(claimTicket(claims, 7), true);
  assert.equal(stealTicket(claims, 7), false);
  assert.equal(stealTicket(claims, 8), true);
  assert.equal(claimTicket(claims, 8), false);
  // The next hand-out of the same query has a new ticket, which the worker may claim.
  assert.equal(claimTicket(claims, 9), true);
});

test('a slot reused by a later ticket starts free for it, whichever side held it before', () => {
  const claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  assert.equal(stealTicket(claims, 5), true);
  assert.equal(claimTicket(claims, 5 + CLAIM_SLOTS), true);
  assert.equal(claimTicket(claims, 6), true);
  assert.equal(stealTicket(claims, 6 + CLAIM_SLOTS), true);
  assert.equal(claimTicket(claims, 6 + CLAIM_SLOTS), false);
  assert.equal(claimTicket(claims, 0x7fffffff), true);
  assert.equal(stealTicket(claims, 0x7fffffff), false);
});
