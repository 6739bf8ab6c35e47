// Errors crossing the thread boundary: user errors keep kind and message; faults become a reference id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InternalError, ParseError, PlanError } from '../../../../engine/index.js';
import { toWireError } from '../../../../server/pool/wire-error.js';

describe('toWireError', () => {
  it('keeps the kind and message of errors the user caused', () => {
    assert.deepEqual(toWireError(new ParseError('syntax error at line 1, column 7')), {
      kind: 'parse',
      message: 'syntax error at line 1, column 7',
    });
    assert.deepEqual(toWireError(new PlanError('table "x" does not exist')), {
      kind: 'plan',
      message: 'table "x" does not exist',
    });
  });

  it('hides internal errors and bugs behind a reference id, logging the stack', () => {
    const logged: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => logged.push(s) > 0) as typeof process.stderr.write;
    let wire: ReturnType<typeof toWireError>[];
    try {
      wire = [toWireError(new InternalError('invariant broke')), toWireError(new TypeError('x is undefined'))];
    } finally {
      process.stderr.write = write;
    }
    for (const w of wire) {
      assert.equal(w.kind, 'internal');
      assert.equal(w.message, 'Internal server error');
      assert.match(w.ref ?? '', /^[0-9a-f]{8}$/);
    }
    assert.equal(logged.length, 2);
    assert.match(logged[1] ?? '', new RegExp(`\\[ref ${wire[1]?.ref}\\]: TypeError: x is undefined\\n\\s+at `));
  });
});
