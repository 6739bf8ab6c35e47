// GET /v1/models' failures that real HTTP cannot provoke: an unexpected error is a 500 with a ref (the stack only
// in the log), and no models runtime yet is Spice's 500 `App not initialized` (contract §7.4).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleListModels } from '../../../../server/http/models-route.js';
import type { HttpRequest, HttpResponse } from '../../../../server/http/uws-app.js';
import type { Models } from '../../../../server/models/models.js';

/** A uWS response that records what the route wrote. */
function recorder() {
  const out = { status: '200 OK', headers: new Map<string, string>(), body: '' };
  const text = (v: unknown) => (typeof v === 'string' ? v : new TextDecoder().decode(v as Uint8Array));
  const res = {
    onAborted: () => res,
    cork: (f: () => void) => {
      f();
      return res;
    },
    writeStatus: (s: unknown) => {
      out.status = text(s);
      return res;
    },
    writeHeader: (k: unknown, v: unknown) => {
      out.headers.set(text(k).toLowerCase(), text(v));
      return res;
    },
    end: (body: unknown) => {
      out.body = body === undefined ? '' : text(body);
      return res;
    },
  };
  return { res: res as unknown as HttpResponse, out };
}

const req = { getQuery: () => undefined } as unknown as HttpRequest;

describe('GET /v1/models failures', () => {
  it('an unexpected error: 500 with a ref, no stack', () => {
    const { res, out } = recorder();
    const broken = {
      list: () => {
        throw new TypeError('boom');
      },
    } as unknown as Models;
    const logged: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((line: string) => logged.push(String(line)) > 0) as typeof process.stderr.write;
    try {
      handleListModels(res, req, { models: () => broken });
    } finally {
      process.stderr.write = write;
    }
    assert.equal(out.status, '500 Internal Server Error');
    assert.equal(out.headers.get('content-type'), 'application/json');
    const ref = /^Internal server error \(ref ([0-9a-f]{8})\)$/.exec(JSON.parse(out.body).message)?.[1];
    assert.ok(ref, out.body);
    assert.ok(!out.body.includes('boom'));
  });

  it('no models runtime: 500 App not initialized', () => {
    const { res, out } = recorder();
    handleListModels(res, req, { models: () => null });
    assert.equal(out.status, '500 Internal Server Error');
    assert.deepEqual(JSON.parse(out.body), { message: 'App not initialized' });
  });
});
