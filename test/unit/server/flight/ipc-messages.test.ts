// IpcMessageSplitter over arbitrary chunk boundaries, the flatbuffer body length, and Flight SQL's LIKE patterns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as arrow from 'apache-arrow';
import { frameIpcMessage, IpcMessageSplitter, messageBodyLength } from '../../../../server/flight/ipc-messages.js';
import { matchesLike } from '../../../../server/flight/sql-metadata.js';

/** An IPC stream of three record batches (ints, text with NULLs). */
function threeBatches(): Uint8Array {
  const batches = [0, 1, 2].map(
    (b) =>
      new arrow.Table({
        id: arrow.vectorFromArray(
          Array.from({ length: 1000 }, (_, i) => b * 1000 + i),
          new arrow.Int32(),
        ),
        label: arrow.vectorFromArray(
          Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? null : `row-${b}-${i}`)),
          new arrow.Utf8(),
        ),
      }).batches[0]!,
  );
  return arrow.tableToIPC(new arrow.Table(batches), 'stream');
}

describe('IpcMessageSplitter', () => {
  it('cuts a stream fed in chunks of any size into the same messages', () => {
    const stream = threeBatches();
    const whole = new IpcMessageSplitter().push(stream);
    assert.equal(whole.length, 4, 'schema + 3 record batches (the end marker is not a message)');
    for (const size of [1, 7, 64, 1000, 4096]) {
      const splitter = new IpcMessageSplitter();
      const messages = [];
      for (let at = 0; at < stream.length; at += size) messages.push(...splitter.push(stream.subarray(at, at + size)));
      assert.equal(splitter.pending, 0);
      assert.equal(messages.length, 4, `chunks of ${size}`);
      const framed = Buffer.concat(messages.map(frameIpcMessage));
      const table = arrow.tableFromIPC(framed);
      assert.equal(table.numRows, 3000);
      assert.equal(table.getChild('id')?.get(2999), 2999);
      assert.equal(table.getChild('label')?.get(7), null);
    }
  });

  it('reads bodyLength from the flatbuffer (0 for the schema message)', () => {
    const [schema, batch] = new IpcMessageSplitter().push(threeBatches());
    assert.equal(messageBodyLength(schema!.header), 0);
    assert.equal(messageBodyLength(batch!.header), batch!.body.length);
    assert.ok(batch!.body.length > 4000);
  });

  it('keeps a truncated tail pending', () => {
    const stream = threeBatches();
    const splitter = new IpcMessageSplitter();
    assert.equal(splitter.push(stream.subarray(0, stream.length - 20)).length, 3);
    assert.ok(splitter.pending > 0);
  });
});

describe('matchesLike (Flight SQL filter patterns)', () => {
  const cases: [string, string | undefined, boolean][] = [
    ['people', undefined, true],
    ['people', '%', true],
    ['people', 'peo%', true],
    ['people', 'peop_e', true],
    ['people', 'people_', false],
    ['people', 'PEOPLE', false],
    ['a_b', 'a\\_b', true],
    ['axb', 'a\\_b', false],
    ['100%', '100\\%', true],
    ['a.b', 'a.b', true],
    ['axb', 'a.b', false],
    ['', '', true],
    ['x', '', false],
  ];
  for (const [text, pattern, expected] of cases) {
    it(`${JSON.stringify(text)} LIKE ${JSON.stringify(pattern)} is ${expected}`, () => {
      assert.equal(matchesLike(text, pattern), expected);
    });
  }
});
