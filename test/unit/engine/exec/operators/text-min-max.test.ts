// MIN/MAX of text over UTF-8 bytes (`MinMaxAcc` with `TextMinMax`): against string comparison in code point order,
// across many batches and groups (the byte arena fills with replaced values and is compacted), NULLs, '', astral
// characters, selections, gathered rows, and a batch of JS strings switching to the general path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Column, makeColumn, strings } from '../../../../../engine/arrow/column.js';
import { gatherColumns } from '../../../../../engine/arrow/gathered-column.js';
import { compareText } from '../../../../../engine/arrow/kernels/text-order.js';
import { MinMaxAcc } from '../../../../../engine/exec/operators/min-max-accumulator.js';
import { UTF8 } from '../../../../../engine/plan/types.js';

const encoder = new TextEncoder();
const ALPHABET = ['a', 'b', 'z', 'é', 'ｚ', '🚀', '\uE000', ''];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
}

function bytesColumn(values: (string | null)[]): Column {
  const encoded = values.map((v) => encoder.encode(v ?? ''));
  const offsets = new Int32Array(values.length + 1);
  for (let i = 0; i < values.length; i++) offsets[i + 1] = offsets[i]! + encoded[i]!.length;
  const bytes = new Uint8Array(offsets[values.length]!);
  for (let i = 0; i < values.length; i++) bytes.set(encoded[i]!, offsets[i]!);
  const valid = values.some((v) => v === null) ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null;
  return makeColumn(UTF8, { offsets, bytes }, valid, values.length);
}

function reference(fn: 'min' | 'max', rows: [number, string | null][], ngroups: number): (string | null)[] {
  const best: (string | null)[] = new Array(ngroups).fill(null);
  for (const [g, v] of rows) {
    if (v === null) continue;
    const b = best[g];
    if (b === null || b === undefined || (fn === 'min' ? compareText(v, b) < 0 : compareText(v, b) > 0)) best[g] = v;
  }
  return best;
}

const result = (c: Column) => strings(c).map((s, i) => (c.valid === null || c.valid[i] === 1 ? s : null));

describe('MIN/MAX over text bytes', () => {
  for (const fn of ['min', 'max'] as const) {
    it(`${fn}: batches, groups, selections and gathers agree with code point order`, () => {
      const next = rng(fn === 'min' ? 7 : 11);
      const acc = new MinMaxAcc(fn, UTF8);
      const ngroups = 700;
      const seen: [number, string | null][] = [];
      for (let batch = 0; batch < 30; batch++) {
        const n = 500;
        const values = Array.from({ length: n }, () => {
          if (next() < 0.1) return null;
          const len = Math.floor(next() * 6);
          return Array.from({ length: len }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
        });
        const groups = Int32Array.from({ length: n }, () => Math.floor(next() * ngroups));
        const col = bytesColumn(values);
        const mode = batch % 3;
        if (mode === 0) {
          acc.update(groups, n, col, ngroups);
          for (let i = 0; i < n; i++) seen.push([groups[i]!, values[i]!]);
        } else if (mode === 1) {
          const sel = Int32Array.from({ length: n >> 1 }, (_, i) => i * 2);
          acc.updateSelected(groups, sel.length, col, ngroups, sel);
          for (let i = 0; i < sel.length; i++) seen.push([groups[i]!, values[sel[i]!]!]);
        } else {
          const idx = Int32Array.from({ length: n }, (_, i) => n - 1 - i);
          const [gathered] = gatherColumns([col], idx, n, false);
          acc.update(groups, n, gathered!, ngroups);
          for (let i = 0; i < n; i++) seen.push([groups[i]!, values[idx[i]!]!]);
        }
      }
      assert.deepEqual(result(acc.finish(ngroups + 3)), reference(fn, seen, ngroups + 3));
    });

    it(`${fn}: a batch of JS strings continues from the byte state`, () => {
      const acc = new MinMaxAcc(fn, UTF8);
      const groups = Int32Array.from([0, 1, 0, 1]);
      acc.update(groups, 4, bytesColumn(['b', null, '🚀', 'ｚ']), 2);
      acc.update(groups, 4, makeColumn(UTF8, ['a', 'é', '\uE000', ''], null, 4), 2);
      const rows: [number, string | null][] = [
        [0, 'b'],
        [1, null],
        [0, '🚀'],
        [1, 'ｚ'],
        [0, 'a'],
        [1, 'é'],
        [0, '\uE000'],
        [1, ''],
      ];
      assert.deepEqual(result(acc.finish(2)), reference(fn, rows, 2));
    });
  }
});
