// Tool failures: the agent's errors are `isError` results; floe's own faults (kind `internal`) are JSON-RPC -32603.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../../../server/mcp/mcp-server.js';
import { queryErrorResult } from '../../../../server/mcp/tool-result.js';
import { QueryFailedError } from '../../../../server/nsql/collect-answer.js';
import type { WireError } from '../../../../server/pool/messages.js';
import type { QueryService } from '../../../../server/runtime/query-service.js';

/** A query service whose every query fails with `error`. */
function failingService(error: WireError): QueryService {
  return {
    run: (_request, sink) => {
      queueMicrotask(() => sink.error(error));
      return () => {};
    },
    admitted: 0,
    waiting: 0,
  };
}

async function sqlCall(error: WireError) {
  const server = createMcpServer({
    service: failingService(error),
    datasets: () => [],
    principal: { id: 'test', canWrite: false },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  try {
    return await client.callTool({ name: 'sql', arguments: { query: 'SELECT 1' } });
  } finally {
    await client.close();
  }
}

describe('tool failures', () => {
  it('user errors, time-outs and overloads are isError results with kind and message', async () => {
    for (const kind of ['plan', 'parse', 'timeout', 'overloaded', 'forbidden', 'memory', 'rate_limited']) {
      const result = (await sqlCall({ kind, message: `it went wrong (${kind})` })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      assert.equal(result.isError, true, kind);
      assert.equal(result.content[0]?.text, `query failed (${kind}): it went wrong (${kind})`);
    }
  });

  it('an internal failure (a bug, a worker that died) is -32603 with the reference, over the protocol', async () => {
    await assert.rejects(sqlCall({ kind: 'internal', message: 'Internal server error', ref: 'ab12cd' }), (e) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, ErrorCode.InternalError);
      assert.match(e.message, /Internal server error \(ref ab12cd\)/);
      return true;
    });
  });

  it('queryErrorResult rethrows what is not a failed query', () => {
    const bug = new TypeError('x is undefined');
    assert.throws(() => queryErrorResult(bug), bug);
    assert.throws(
      () => queryErrorResult(new QueryFailedError({ kind: 'internal', message: 'Internal server error' })),
      (e) => e instanceof McpError && e.code === -32603 && !/ref/.test(e.message),
    );
  });
});
