// SessionTable: idle expiry (restarted by each find, postponed while busy), principal binding, closeAll.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionTable } from '../../../../server/mcp/session-table.js';

const ALICE = { id: 'key:0', canWrite: false };
const BOB = { id: 'key:1', canWrite: false };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function table(
  idleMs: number,
  bindToPrincipal = true,
  busy: (v: string) => boolean = () => false,
  maxSessions?: number,
) {
  const closed: string[] = [];
  const sessions = new SessionTable<string>(
    { idleMs, bindToPrincipal, maxSessions },
    async (v) => {
      closed.push(v);
    },
    busy,
  );
  return { sessions, closed };
}

describe('SessionTable', () => {
  it('finds a session with its principal only when bound; with anyone when not', () => {
    const bound = table(10_000).sessions;
    bound.add('a', 'A', ALICE);
    assert.equal(bound.find('a', ALICE), 'A');
    assert.equal(bound.find('a', BOB), undefined);
    assert.equal(bound.find('b', ALICE), undefined);
    const open = table(10_000, false).sessions;
    open.add('a', 'A', ALICE);
    assert.equal(open.find('a', BOB), 'A');
  });

  it('expires a session nobody names for idleMs; a find restarts its clock', async () => {
    const { sessions, closed } = table(300);
    sessions.add('a', 'A', ALICE);
    sessions.add('b', 'B', ALICE);
    for (let i = 0; i < 5; i++) {
      await sleep(75);
      assert.equal(sessions.find('a', ALICE), 'A');
    }
    assert.deepEqual(closed, ['B']);
    assert.equal(sessions.find('b', ALICE), undefined);
    await sleep(400);
    assert.deepEqual(closed, ['B', 'A']);
    assert.equal(sessions.size, 0);
  });

  it('past maxSessions, opening one closes the least recently named idle session', () => {
    const { sessions, closed } = table(10_000, true, () => false, 3);
    sessions.add('a', 'A', ALICE);
    sessions.add('b', 'B', ALICE);
    sessions.add('c', 'C', ALICE);
    assert.equal(sessions.find('a', ALICE), 'A'); // a is now the most recently named
    sessions.add('d', 'D', ALICE);
    assert.deepEqual(closed, ['B']);
    assert.equal(sessions.find('b', ALICE), undefined);
    assert.equal(sessions.size, 3);
  });

  it('eviction skips a session with a call running', () => {
    const { sessions, closed } = table(10_000, true, (v) => v === 'A', 2);
    sessions.add('a', 'A', ALICE);
    sessions.add('b', 'B', ALICE);
    sessions.add('c', 'C', ALICE);
    assert.deepEqual(closed, ['B']);
    assert.equal(sessions.find('a', ALICE), 'A');
  });

  it('a busy session is not expired until its calls end', async () => {
    let busy = true;
    const { sessions, closed } = table(50, true, () => busy);
    sessions.add('a', 'A', ALICE);
    await sleep(150);
    assert.deepEqual(closed, []);
    busy = false;
    await sleep(120);
    assert.deepEqual(closed, ['A']);
  });

  it('closeAll closes every session, and one added later at once; delete forgets without closing', async () => {
    const { sessions, closed } = table(10_000);
    sessions.add('a', 'A', ALICE);
    sessions.add('b', 'B', BOB);
    sessions.delete('b');
    await sessions.closeAll();
    assert.deepEqual(closed, ['A']);
    sessions.add('c', 'C', ALICE);
    assert.deepEqual(closed, ['A', 'C']);
    assert.equal(sessions.size, 0);
  });
});
