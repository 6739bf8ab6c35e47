// `packAnswers` / `unpackAnswers`: a batch's whole answers cross from the worker to the main thread as a few typed
// arrays and one buffer of bodies, instead of an object and an ArrayBuffer per query.
//
// Why: a batch of 20 point lookups posted as `{ id, ms, message: { type, head: {…}, body } }` per query cost ~210 µs
// to serialize and read back (node's v8.serialize/deserialize, bodies included), most of it per object and per
// ArrayBuffer; packed, ~40 µs. perf had the worker's postMessage at ~18% of its time serving point lookups.
import type { BatchResult, Finished, Head, PackedAnswers } from './messages.js';

/** The batch's answers: the whole ones packed (their bodies copied into one buffer), the rest as they are. */
export function packAnswers(finished: readonly Finished[]): BatchResult {
  const rest: Finished[] = [];
  let n = 0;
  let bytes = 0;
  for (const f of finished) {
    if (f.message?.type === 'whole') {
      n++;
      bytes += f.message.body.byteLength;
    } else rest.push(f);
  }
  const ids = new Int32Array(n);
  const ms = new Float64Array(n);
  const headOf = new Uint16Array(n);
  const ends = new Int32Array(n + 1);
  const bodies = new ArrayBuffer(bytes);
  const into = new Uint8Array(bodies);
  const heads: Head[] = [];
  let i = 0;
  for (const f of finished) {
    if (f.message?.type !== 'whole') continue;
    const { head, body } = f.message;
    ids[i] = f.id;
    ms[i] = f.ms;
    headOf[i] = headIndex(heads, head);
    into.set(new Uint8Array(body), ends[i]!);
    ends[i + 1] = ends[i]! + body.byteLength;
    i++;
  }
  return { whole: { ids, ms, heads, headOf, ends, bodies }, rest };
}

/** Calls `each` with every packed answer: its id, run time, head and body (a view into the batch's buffer). */
export function unpackAnswers(
  whole: PackedAnswers,
  each: (id: number, ms: number, head: Head, body: Uint8Array) => void,
): void {
  const { ids, ms, heads, headOf, ends, bodies } = whole;
  for (let i = 0; i < ids.length; i++) {
    each(ids[i]!, ms[i]!, heads[headOf[i]!]!, new Uint8Array(bodies, ends[i]!, ends[i + 1]! - ends[i]!));
  }
}

/**
 * `head`'s index in `heads`, added when no equal one is there. The queries of a batch mostly share one head: the
 * same format and cacheability, and the same `tables` array (a cached plan's).
 */
function headIndex(heads: Head[], head: Head): number {
  for (let k = 0; k < heads.length; k++) {
    const h = heads[k]!;
    if (h.format === head.format && h.cacheable === head.cacheable && sameNames(h.tables, head.tables)) return k;
  }
  heads.push(head);
  return heads.length - 1;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => x === b[i]));
}
