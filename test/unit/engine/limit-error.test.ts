// `limitError`: JavaScript's size limits become the user's "requested length too large"; a negative length (floe's
// own arithmetic gone wrong) stays an internal error, so the fuzzer's oracle still sees it as a 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExecError, isUserError, limitError } from '../../../engine/errors.js';

function rangeErrorOf(f: () => unknown): RangeError {
  try {
    f();
  } catch (e) {
    if (e instanceof RangeError) return e;
  }
  throw new Error('expected a RangeError');
}

describe('limitError', () => {
  it('reports a length past the limit as a user error', () => {
    const e = limitError(rangeErrorOf(() => new Int32Array(2 ** 40)));
    assert.ok(e instanceof ExecError);
    assert.match(e.message, /^requested length too large/);
    assert.equal(isUserError(e), true);
  });

  it('leaves a negative length a RangeError (an internal error)', () => {
    const original = rangeErrorOf(() => new Int32Array(-9));
    const e = limitError(original);
    assert.equal(e, original);
    assert.equal(isUserError(e), false);
  });
});
