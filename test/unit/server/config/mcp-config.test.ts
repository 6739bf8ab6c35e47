// runtime.mcp: session_timeout and allowed_hosts, validated, with Host-form normalisation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MCP_CONFIG, hostOnly } from '../../../../server/config/mcp-config.js';
import { loadRuntime, runtimeProblem } from '../../../helpers/manifest-runtime.js';

describe('mcp config', () => {
  it('defaults to a 1 hour session time-out and no extra hosts', () => {
    assert.deepEqual(loadRuntime({}).mcp, DEFAULT_MCP_CONFIG);
    assert.equal(DEFAULT_MCP_CONFIG.sessionTimeoutMs, 3_600_000);
    assert.equal(DEFAULT_MCP_CONFIG.maxResultBytes, 64 * 1024 * 1024);
  });

  it('reads session_timeout as a duration and allowed_hosts as host names, without a warning', () => {
    const m = loadRuntime({ mcp: { session_timeout: '30s', allowed_hosts: ['Floe.Example.com:8090', '[::2]', '*'] } });
    assert.deepEqual(m.mcp, {
      sessionTimeoutMs: 30_000,
      allowedHosts: ['floe.example.com', '::2', '*'],
      maxResultBytes: 64 * 1024 * 1024,
      maxSessions: 1000,
    });
    assert.equal(loadRuntime({ mcp: { max_sessions: 5 } }).mcp.maxSessions, 5);
    assert.equal(loadRuntime({ mcp: { max_result_size: '16MiB' } }).mcp.maxResultBytes, 16 * 1024 * 1024);
    assert.deepEqual(m.warnings, []);
  });

  it('refuses a bad duration, a bad host name and unknown keys', () => {
    assert.match(
      runtimeProblem({ mcp: { session_timeout: 'soon' } }),
      /runtime\.mcp\.session_timeout: invalid duration/,
    );
    assert.match(runtimeProblem({ mcp: { session_timeout: '0s' } }), /invalid duration '0s'/);
    assert.match(runtimeProblem({ mcp: { max_sessions: 0 } }), /runtime\.mcp\.max_sessions/);
    assert.match(runtimeProblem({ mcp: { max_result_size: 'huge' } }), /runtime\.mcp\.max_result_size: invalid size/);
    assert.match(runtimeProblem({ mcp: { allowed_hosts: ['a b'] } }), /runtime\.mcp\.allowed_hosts\[0\]: 'a b' is not/);
    assert.match(runtimeProblem({ mcp: { allowed_origins: [] } }), /runtime\.mcp\.allowed_origins: unknown key/);
  });

  it('hostOnly strips the port and IPv6 brackets', () => {
    for (const [host, expected] of [
      ['localhost:8090', 'localhost'],
      ['LOCALHOST', 'localhost'],
      ['[::1]:8090', '::1'],
      ['[::1]', '::1'],
      ['::1', '::1'],
      ['127.0.0.1:1', '127.0.0.1'],
      ['', ''],
    ]) {
      assert.equal(hostOnly(host as string), expected, host);
    }
  });
});
