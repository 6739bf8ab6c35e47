// `appendTable`: an accelerated table with rows added after its own, sharing every buffer of the old chunks.
import { SharedSlabs } from '../../arrow/shared-slabs.js';
import { dictionaryColumn, encodeDictionary } from '../../arrow/text-dictionary.js';
import { typeName } from '../../plan/types.js';
import { zoneFactsOfField } from './column-facts.js';
import type { MemoryTableData, StoredDictionary } from './memory-table.js';

/**
 * `previous`'s chunks followed by `added`'s, as one table (an append refresh). Nothing of either is copied: the old
 * chunks, their narrow copies and zone facts are the same arrays (the same SharedArrayBuffers), so the old and the
 * new table share the old rows' memory. A text dictionary spans all chunks, so each one of `previous` is extended
 * rather than rebuilt: its values keep their codes (the old chunks' codes stay valid as they are) and `added`'s rows
 * are coded into it, new values after the old; a column whose values then pass the dictionary's limit loses its
 * dictionary (queries read its bytes instead). Throws when the two schemas differ in a column's name or type.
 */
export function appendTable(previous: MemoryTableData, added: MemoryTableData): MemoryTableData {
  const fields = previous.schema.fields;
  const shape = (d: MemoryTableData) => d.schema.fields.map((f) => `${f.name} ${typeName(f.type)}`).join(', ');
  if (shape(previous) !== shape(added))
    throw new Error(`cannot append rows of (${shape(added)}) to a table of (${shape(previous)})`);
  if (previous.chunks.length === 0) return { ...added, schema: previous.schema };
  if (added.chunks.length === 0) return previous;
  const slabs = new SharedSlabs();
  return {
    schema: previous.schema,
    chunks: [...previous.chunks, ...added.chunks],
    dictionaries: fields.map((_, at) => extendDictionary(previous, added, at, slabs)),
    narrow: fields.map((_, at) => {
      const old = previous.narrow?.[at] ?? null;
      const more = added.narrow?.[at] ?? null;
      if (old === null && more === null) return null;
      return [...(old ?? previous.chunks.map(() => null)), ...(more ?? added.chunks.map(() => null))];
    }),
    zones: fields.map((_, at) => [
      ...(previous.zones?.[at] ?? zoneFactsOfField(previous.chunks, at)),
      ...(added.zones?.[at] ?? zoneFactsOfField(added.chunks, at)),
    ]),
  };
}

/**
 * Field `at`'s dictionary over both tables: `previous`'s values first, in their order (coding them first gives
 * value k code k), then the new ones `added`'s rows bring; null when `previous` has none or there are too many.
 */
function extendDictionary(
  previous: MemoryTableData,
  added: MemoryTableData,
  at: number,
  slabs: SharedSlabs,
): StoredDictionary | null {
  const old = previous.dictionaries?.[at] ?? null;
  if (old === null) return null;
  let calls = 0;
  // The old values' own codes (0, 1, 2, ...), the first array asked for, are not kept: a private array.
  const alloc = (n: number) => (calls++ === 0 ? new Uint8Array(n) : slabs.bytes(n));
  const parts = [dictionaryColumn(old.dictionary), ...added.chunks.map((c) => c.columns[at]!)];
  const made = encodeDictionary(parts, undefined, alloc);
  if (made === null) return null;
  return { dictionary: made.dictionary, codes: [...old.codes, ...made.codes.slice(1)] };
}
