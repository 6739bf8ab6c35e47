// The row-by-row tests of a dynamic join filter's key set (`KeySet`): loops over a bitmap of dense integer keys
// (generated per input kind and form, so each stays monomorphic) and an open-addressing set of the other keys.

/**
 * A loop writing to `out` the rows of `v` whose valid value `x` has bit `x - lo` of `bits` set, returning how many
 * (`span` ≤ 2^28 bits). `int32Offset`, for an int32 column with |lo| ≤ 2^30: `(x - lo) >>> 0` is the offset and
 * one unsigned comparison with `span` rejects everything outside (a value below `lo` wraps to ≥ 2^30); otherwise
 * `d | 0 === x - lo` also rejects fractions, NaN and values past int32. `branchless`: every index is written and
 * the count advances by the row's 0/1 (a row outside tests bit 0 of word 0, masked off) — sorted keys against one
 * in ten, in a micro-benchmark, ~3 ns a row against 4.5-6 for the branchy loop (inside queries both cost about
 * twice that); about even when almost nothing passes. Two loops, on validity or not: a per-row
 * `valid === null ? 1 : valid[i]` made the branch-free loop 1.5x slower (V8 does not unswitch it).
 */
function bitsLoop(int32Offset: boolean, branchless: boolean): BitsLoop {
  const inRange = int32Offset
    ? 'const d = (v[i] - lo) >>> 0; const inside = d < span ? 1 : 0;'
    : 'const x = v[i] - lo; const d = x | 0; const inside = (d === x ? 1 : 0) & ((d >>> 0) < span ? 1 : 0);';
  const loop = (checkValid: boolean) => {
    const valid = checkValid ? ' & valid[i]' : '';
    const keep = branchless
      ? `const ok = inside${valid}; const j = d & -ok; out[k] = i; k += (bits[j >>> 5] >>> (j & 31)) & ok;`
      : `if ((inside${valid}) !== 0 && (bits[d >>> 5] & (1 << (d & 31))) !== 0) out[k++] = i;`;
    return `for (let i = 0; i < n; i++) { ${inRange} ${keep} }`;
  };
  const body = `let k = 0; if (valid === null) { ${loop(false)} } else { ${loop(true)} } return k;`;
  return new Function('v', 'valid', 'n', 'lo', 'span', 'bits', 'out', body) as BitsLoop;
}

type BitsLoop = (
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  n: number,
  lo: number,
  span: number,
  bits: Int32Array,
  out: Int32Array,
) => number;

// One compiled loop per input kind and form, so each stays monomorphic.
export const BITS = {
  int32Offset: { branchy: bitsLoop(true, false), branchless: bitsLoop(true, true) },
  int32: { branchy: bitsLoop(false, false), branchless: bitsLoop(false, true) },
  float64: { branchy: bitsLoop(false, false), branchless: bitsLoop(false, true) },
};

export function selectSet(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  n: number,
  lo: number,
  hi: number,
  set: NumberSet,
  out: Int32Array,
): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = v[i] as number;
    if (x >= lo && x <= hi && set.has(x) && (valid === null || valid[i] === 1)) out[k++] = i;
  }
  return k;
}

/** A set of numbers in an open-addressing table (linear probing; NaN marks an empty slot; never NaN keys). */
export class NumberSet {
  readonly #slots: Float64Array;
  readonly #mask: number;
  size = 0;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 4) size *= 2;
    this.#slots = new Float64Array(size).fill(Number.NaN);
    this.#mask = size - 1;
  }

  add(x: number): void {
    const slots = this.#slots;
    let i = slotOf(x, this.#mask);
    while (!Number.isNaN(slots[i] as number)) {
      if (slots[i] === x) return;
      i = (i + 1) & this.#mask;
    }
    slots[i] = x;
    this.size++;
  }

  /** The keys, ascending. */
  sortedKeys(): Float64Array {
    const out = new Float64Array(this.size);
    let k = 0;
    for (const s of this.#slots) if (!Number.isNaN(s)) out[k++] = s;
    return out.sort();
  }

  has(x: number): boolean {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = slotOf(x, mask); ; i = (i + 1) & mask) {
      const s = slots[i] as number;
      if (s === x) return true;
      if (Number.isNaN(s)) return false;
    }
  }
}

/** Mixes a number's low and high 32 bits (integers up to 2^53 and decimals' scaled values are typical keys). */
function slotOf(x: number, mask: number): number {
  const h = Math.imul((x | 0) ^ ((x / 4294967296) | 0), 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}
