// createHostGuard: the DNS-rebinding check (Host against local names and runtime.mcp.allowed_hosts, Origin too).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHostGuard } from '../../../../server/mcp/host-guard.js';

describe('host guard', () => {
  const guard = createHostGuard(['floe.example.com'], ['https://app.example.com', '*']);

  it('accepts the local names with or without a port, and listed hosts', () => {
    for (const host of [
      'localhost',
      'localhost:8090',
      '127.0.0.1:8090',
      '[::1]:8090',
      'LocalHost',
      'floe.example.com:443',
    ]) {
      assert.equal(guard(host, ''), null, host);
    }
  });

  it('refuses other hosts (and none) naming runtime.mcp.allowed_hosts', () => {
    for (const host of ['evil.example', 'evil.example:8090', '127.0.0.2', '[::2]:1', '', 'localhost.evil.example']) {
      assert.match(guard(host, '') ?? '', /^Forbidden: Host '.*' is not allowed; .*runtime\.mcp\.allowed_hosts$/, host);
    }
    assert.match(guard('x'.repeat(500), '') ?? '', /x{100}…'/);
  });

  it('accepts no Origin, local origins and listed origins; refuses others naming runtime.cors.allowed_origins', () => {
    for (const origin of [
      '',
      'http://localhost:3000',
      'https://127.0.0.1',
      'http://[::1]:5173',
      'https://APP.example.com',
    ]) {
      assert.equal(guard('localhost', origin), null, origin);
    }
    for (const origin of ['https://evil.example', 'null', 'file://localhost', 'http://app.example.com', 'junk']) {
      assert.match(guard('localhost', origin) ?? '', /Origin '.*' is not allowed; .*runtime\.cors\.allowed_origins/);
    }
  });

  it("['*'] turns the Host check off, not the Origin check", () => {
    const open = createHostGuard(['*'], []);
    assert.equal(open('anything.example:1', ''), null);
    assert.notEqual(open('anything.example', 'https://evil.example'), null);
  });
});
