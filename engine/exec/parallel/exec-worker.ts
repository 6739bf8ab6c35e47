// Entry of an `ExecPool` helper thread: runs one fragment at a time over tables rebuilt from shared memory.
import { parentPort } from 'node:worker_threads';
import type { TableProvider } from '../../catalog.js';
import { EngineError, InternalError } from '../../errors.js';
import { createMapCatalog } from '../../map-catalog.js';
import { rebuildSharedTable } from '../../storage/rebuild-shared-table.js';
import { collectGarbage } from './collect-garbage.js';
import {
  type FragmentReply,
  type FragmentRequest,
  type FragmentTable,
  type HelperMessage,
  transferList,
} from './messages.js';
import { runFragment } from './run-fragment.js';

/**
 * Tables by the name the statement looked them up by: the latest version sent (a refresh sends a new id). The
 * pool mirrors this map per helper (`ExecPool`), so it sends a table's data only when the helper lacks it.
 */
const tables = new Map<string, { id: string; provider: TableProvider }>();
const running = new Map<number, AbortController>();
let chain: Promise<void> = Promise.resolve();

function providerOf({ name, id, kind, data }: FragmentTable): TableProvider {
  const known = tables.get(name);
  if (known?.id === id) return known.provider;
  const same = [...tables.values()].find((t) => t.id === id);
  if (same === undefined && data === undefined) throw new InternalError(`parallel query: table ${name} was not sent`);
  const provider = same?.provider ?? rebuildSharedTable(kind, data);
  tables.set(name, { id, provider });
  return provider;
}

async function run(request: FragmentRequest): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  let reply: FragmentReply;
  try {
    const map = new Map(request.tables.map((t) => [t.name, providerOf(t)]));
    const batches = await runFragment(request, createMapCatalog(map), controller.signal);
    reply = { id: request.id, batches };
    parentPort!.postMessage(reply, transferList(batches));
    return;
  } catch (e) {
    const kind = e instanceof EngineError ? e.kind : 'internal';
    reply = { id: request.id, error: { kind, message: e instanceof Error ? e.message : String(e) } };
  } finally {
    running.delete(request.id);
  }
  parentPort!.postMessage(reply);
}

/** Drops the tables not in `ids`, then lets their memory go (fragments arrive as plan data: no plan holds a provider). */
function retain(ids: ReadonlySet<string>): void {
  let dropped = false;
  for (const [name, t] of tables) {
    if (ids.has(t.id)) continue;
    tables.delete(name);
    dropped = true;
  }
  if (!dropped) return;
  collectGarbage();
}

parentPort!.on('message', (m: HelperMessage) => {
  if ('cancel' in m) running.get(m.cancel)?.abort();
  // In turn with the fragments: one sent before it still finds its tables.
  else if ('retain' in m) chain = chain.then(() => retain(new Set(m.retain)));
  else chain = chain.then(() => run(m));
});
