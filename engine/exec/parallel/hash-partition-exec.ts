// `HashPartitionExec` keeps the rows of its input whose key columns hash to one partition of `count`: under a
// hash-split aggregate (`hashSplit`) every thread reads the whole input and aggregates its own share of the groups.
// Output order = input order; rows are gathered lazily (a column no operator above reads is never copied).
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, isUtf8Bytes } from '../../arrow/column.js';
import { gatherColumns, textCodesOf } from '../../arrow/gathered-column.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import { hashBytes, hashString, mix32 } from '../hash/hash-keys.js';
import type { PhysicalOperator } from '../operator.js';

const TWO_32 = 4294967296;
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

export class HashPartitionExec implements PhysicalOperator {
  readonly schema: Schema;
  constructor(
    readonly input: PhysicalOperator,
    /** The key columns' positions in the input. */
    readonly keys: readonly number[],
    readonly index: number,
    readonly count: number,
  ) {
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    let hashes = new Int32Array(0);
    for await (const batch of this.input.execute(ctx)) {
      checkCancelled(ctx);
      const n = batch.length;
      if (hashes.length < n) hashes = new Int32Array(n);
      hashes.fill(0, 0, n);
      for (const k of this.keys) hashColumn(batch.columns[k]!, n, hashes);
      const keep = new Int32Array(n);
      let m = 0;
      for (let i = 0; i < n; i++) if ((mix32(hashes[i]!) >>> 0) % this.count === this.index) keep[m++] = i;
      if (m === n) yield batch;
      else if (m > 0) yield makeBatch(batch.schema, gatherColumns(batch.columns, keep, m, false), m);
    }
  }
}

/**
 * Folds each row's value of `col` into `out`: values GROUP BY holds equal hash equal (an int64 as a number or a
 * BigInt alike, 0 and -0, every NaN; text as its UTF-8 bytes, coded or not); NULL adds nothing.
 */
export function hashColumn(col: Column, n: number, out: Int32Array): void {
  const v = col.values;
  const valid = col.valid;
  const add = (i: number, h: number) => {
    if (valid === null || valid[i] === 1) out[i] = Math.imul(out[i]! ^ h, 0x01000193);
  };
  const integer = col.type.id === 'int64' || col.type.id === 'decimal';
  if (v instanceof BigInt64Array) {
    const halves = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
    for (let i = 0; i < n; i++) add(i, mix32(halves[2 * i]! ^ Math.imul(halves[2 * i + 1]!, 0x9e3779b1)));
  } else if (v instanceof Float64Array && integer) {
    for (let i = 0; i < n; i++) {
      const x = v[i]!;
      const hi = Math.floor(x / TWO_32);
      add(i, mix32(((x - hi * TWO_32) | 0) ^ Math.imul(hi | 0, 0x9e3779b1)));
    }
  } else if (v instanceof Float64Array) {
    for (let i = 0; i < n; i++) add(i, floatHash(v[i]!));
  } else if (v instanceof Int32Array || v instanceof Uint8Array) {
    for (let i = 0; i < n; i++) add(i, mix32(v[i]!));
  } else if (Array.isArray(v)) {
    for (let i = 0; i < n; i++) add(i, hashString(v[i]!));
  } else if (v !== null && isUtf8Bytes(v)) {
    const coded = textCodesOf(col);
    const { offsets, bytes } = v;
    if (coded === null) for (let i = 0; i < n; i++) add(i, hashBytes(bytes, offsets[i]!, offsets[i + 1]!));
    else {
      const d = coded.dictionary.values;
      const byCode = Int32Array.from({ length: coded.dictionary.size }, (_, k) =>
        hashBytes(d.bytes, d.offsets[k]!, d.offsets[k + 1]!),
      );
      for (let i = 0; i < n; i++) add(i, byCode[coded.codes[i]!]!);
    }
  }
}

function floatHash(x: number): number {
  if (x === 0) return 0;
  if (Number.isNaN(x)) return 0x7ff80000;
  F64[0] = x;
  return mix32(U32[0]! ^ Math.imul(U32[1]!, 0x9e3779b1));
}
