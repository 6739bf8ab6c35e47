// `snapshotBytes`: the bytes an accelerated catalog holds in column buffers (values, UTF-8 offsets and bytes,
// validity), the "Arrow bytes" the memory target compares RSS with. Buffers shared by several columns count once.
import type { CatalogSnapshot, MemoryTableEntry } from '../../catalog/snapshot.js';

export function snapshotBytes(snapshot: CatalogSnapshot): number {
  const seen = new Set<ArrayBufferLike>();
  let bytes = 0;
  const add = (a: ArrayBufferView | null | undefined) => {
    if (!a) return;
    // A view of a shared buffer counts its own range; a buffer seen whole counts once.
    if (a.byteLength === a.buffer.byteLength) {
      if (seen.has(a.buffer)) return;
      seen.add(a.buffer);
    }
    bytes += a.byteLength;
  };
  for (const t of snapshot.tables) {
    if (t.kind !== 'memory') continue;
    for (const chunk of (t as MemoryTableEntry).data.chunks) {
      for (const c of chunk.columns) {
        add(c.valid);
        const v = c.values;
        if (v === null || Array.isArray(v)) continue;
        if ('offsets' in v) {
          add(v.offsets);
          add(v.bytes);
        } else add(v as ArrayBufferView);
      }
    }
  }
  return bytes;
}
