// VAR_SAMP / VAR_POP / STDDEV_SAMP / STDDEV_POP per group (Welford's online update), and BOOL_AND / BOOL_OR.
import { type Column, makeColumn } from '../../arrow/column.js';
import type { AggregateFn } from '../../plan/logical/index.js';
import type { Accumulator } from './accumulators.js';

type Statistic = Extract<AggregateFn, 'var_samp' | 'var_pop' | 'stddev_samp' | 'stddev_pop'>;

/**
 * Numerically stable single-pass variance (Welford), in double precision for every input type: decimals are
 * unscaled first. Sample statistics of fewer than two rows are NULL, as are population statistics of none.
 */
export class VarianceAcc implements Accumulator {
  readonly #count: number[] = [];
  readonly #mean: number[] = [];
  readonly #m2: number[] = [];
  readonly #unscale: number;
  constructor(
    readonly fn: Statistic,
    argScale: number,
  ) {
    this.#unscale = 10 ** argScale;
  }
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    while (this.#count.length < ngroups) {
      this.#count.push(0);
      this.#mean.push(0);
      this.#m2.push(0);
    }
    const col = arg!;
    if (col.type.id === 'null') return;
    const v = col.values as Int32Array | Float64Array | BigInt64Array;
    for (let i = 0; i < n; i++) {
      if (col.valid !== null && col.valid[i] === 0) continue;
      const g = groups[i]!;
      const x = Number(v[i]!) / this.#unscale;
      const c = ++this.#count[g]!;
      const delta = x - this.#mean[g]!;
      this.#mean[g]! += delta / c;
      this.#m2[g]! += delta * (x - this.#mean[g]!);
    }
  }
  finish(ngroups: number): Column {
    const out = new Float64Array(ngroups);
    const valid = new Uint8Array(ngroups);
    const sample = this.fn === 'var_samp' || this.fn === 'stddev_samp';
    const root = this.fn === 'stddev_samp' || this.fn === 'stddev_pop';
    for (let g = 0; g < ngroups; g++) {
      const c = this.#count[g] ?? 0;
      if (c === 0 || (sample && c < 2)) continue;
      // m2 can come out a hair below zero for constant input.
      const variance = Math.max(0, this.#m2[g]! / (sample ? c - 1 : c));
      out[g] = root ? Math.sqrt(variance) : variance;
      valid[g] = 1;
    }
    return makeColumn({ id: 'float64' }, out, valid, ngroups);
  }
}

/** BOOL_AND (EVERY) / BOOL_OR: NULL inputs are skipped; a group with none left is NULL. */
export class BoolAcc implements Accumulator {
  /** Per group: 0 = no input yet, 1 = true so far, 2 = false so far. */
  readonly #state: number[] = [];
  constructor(readonly isAnd: boolean) {}
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    while (this.#state.length < ngroups) this.#state.push(0);
    const col = arg!;
    if (col.type.id === 'null') return;
    const v = col.values as Uint8Array;
    const decisive = this.isAnd ? 0 : 1;
    for (let i = 0; i < n; i++) {
      if (col.valid !== null && col.valid[i] === 0) continue;
      const g = groups[i]!;
      if (v[i] === decisive) this.#state[g] = decisive === 1 ? 1 : 2;
      else if (this.#state[g] === 0) this.#state[g] = decisive === 1 ? 2 : 1;
    }
  }
  finish(ngroups: number): Column {
    while (this.#state.length < ngroups) this.#state.push(0);
    const out = Uint8Array.from(this.#state, (s) => (s === 1 ? 1 : 0));
    const valid = Uint8Array.from(this.#state, (s) => (s === 0 ? 0 : 1));
    return makeColumn({ id: 'bool' }, out, valid, ngroups);
  }
}
