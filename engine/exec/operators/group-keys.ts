// `GroupKeys` assigns a dense group id to each distinct key tuple (NULL is a key), in first-seen order.
import { type Column, makeColumn, strings, utf8BytesOf } from '../../arrow/column.js';
import { gatherColumns, gatherDictionary, gatheredFrom, textCodesOf } from '../../arrow/gathered-column.js';
import { take } from '../../arrow/kernels/take.js';
import { takeUtf8 } from '../../arrow/kernels/utf8-take.js';
import { attachCodes, type CodedText, type TextDictionary } from '../../arrow/text-dictionary.js';
import { type DataType, INT32 } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { CodedGroupKeys } from './coded-group-keys.js';
import { GrowingInts } from './growing-ints.js';
import { ScratchInts } from './scratch-ints.js';

/**
 * Picks its table on the first rows it sees: when some key is text and every text value there is at most two bytes
 * (flags and codes, as in TPC-H q1) or has a table dictionary, `CodedGroupKeys`; otherwise a `KeyIndex`. Longer
 * texts of few distinct values without a dictionary (q16's brands and types, gathered) were measured slower coded
 * than in a `KeyIndex`. Either table stays correct whatever later batches hold.
 */
export class GroupKeys {
  readonly #types: readonly DataType[];
  #table: KeyIndex | CodedGroupKeys | null = null;

  /** `types`: the declared type of each key column. */
  constructor(types: readonly DataType[]) {
    this.#types = types;
  }

  get size(): number {
    return this.#reps?.size ?? this.#table?.size ?? 0;
  }

  /**
   * Group ids of rows [0, n) of one batch, adding new groups as they appear: valid until the next `assign` of any
   * table of the thread (read them, or copy what you keep). With `sel`, the rows are `sel[0..n)` of whole-batch
   * `keys` (a filter's survivors): coded keys read them in place, a `KeyIndex` gets them copied.
   */
  assign(keys: readonly Column[], n: number, sel: Int32Array | null = null): Int32Array {
    const viaSource = sel === null && n > 0 ? this.#viaSource(keys, n) : null;
    if (viaSource !== null) return viaSource;
    this.#tabulate();
    return this.#viaDictionaries(keys, n, sel) ?? this.#assignRows(keys, n, sel);
  }

  #assignRows(keys: readonly Column[], n: number, sel: Int32Array | null): Int32Array {
    if (this.#table instanceof CodedGroupKeys) return this.#table.assign(keys, n, sel);
    const rows = sel === null ? keys : keys.map((k) => take(k, sel, n));
    if (this.#table === null) return n === 0 ? new Int32Array(0) : this.#first(rows, n);
    return this.#table.insert(rows, n, ROW_IDS.take(n));
  }

  /** Makes room for `more` groups beyond those so far (a hash table only; coded keys stay small anyway). */
  reserve(more: number): void {
    if (this.#table !== null && !(this.#table instanceof CodedGroupKeys)) this.#table.reserve(more);
  }

  /** The key values of every group for key column `c`, in group order, as a column of `type`. */
  column(c: number, type: DataType): Column {
    const reps = this.#reps;
    if (reps !== null) {
      return this.#source!.gathered(c, reps.values.slice(0, reps.size));
    }
    this.#table ??= makeKeyIndex(this.#types, true);
    return this.#table instanceof CodedGroupKeys ? this.#table.column(c) : this.#table.column(c, type);
  }

  /** The dictionaries of the key columns last coded by `#viaDictionaries`, and its group id per key tuple. */
  #dictionaries: readonly TextDictionary[] = [];
  #byTuple = new Int32Array(0);

  /**
   * Group ids when every key is text with a table dictionary and no NULL (Q1's l_returnflag, l_linestatus): a row's
   * dictionary codes index one table of group ids directly (their product at most 65,536), one pass over the rows;
   * a tuple's first row gets its id from the table proper. Null otherwise.
   */
  #viaDictionaries(keys: readonly Column[], n: number, sel: Int32Array | null): Int32Array | null {
    if (n === 0 || keys.length === 0) return null;
    const coded: CodedText[] = [];
    let tuples = 1;
    for (const k of keys) {
      const c = k.valid === null ? textCodesOf(k) : null;
      if (c === null) return null;
      coded.push(c);
      tuples *= c.dictionary.size;
    }
    if (tuples > MAX_TUPLES) return null;
    if (!coded.every((c, i) => c.dictionary === this.#dictionaries[i]) || this.#dictionaries.length !== keys.length) {
      this.#dictionaries = coded.map((c) => c.dictionary);
      this.#byTuple = new Int32Array(tuples).fill(-1);
    }
    const byTuple = this.#byTuple;
    // Not `ROW_IDS`: a tuple's first row gets its id from `#assignRows` while these are being filled.
    const ids = TUPLE_IDS.take(n);
    // A row's tuple: its codes folded last column first (the first column varies fastest); one or two columns
    // (the usual) in loops of their own.
    const a = coded[0]!.codes;
    const b = coded.length === 2 ? coded[1]!.codes : null;
    const stride = coded[0]!.dictionary.size;
    for (let j = 0; j < n; j++) {
      const r = sel === null ? j : sel[j]!;
      const t = b !== null ? a[r]! + stride * b[r]! : coded.length === 1 ? a[r]! : tupleOf(coded, r);
      let id = byTuple[t]!;
      if (id === -1) {
        id = this.#assignRows(keys, 1, Int32Array.of(r))[0]!;
        byTuple[t] = id;
      }
      ids[j] = id;
    }
    return ids;
  }

  #source: SourceCodes | null = null;

  /**
   * While every batch so far had its keys gathered from `#source` and coded there (the first one included), the
   * groups are the source's codes alone: group g is source row `#reps[g]`, and no key table is kept (q16 has 18k
   * groups of text keys: inserting each into a `CodedGroupKeys` cost ~12 ms a run). Null otherwise.
   */
  #reps: GrowingInts | null = null;

  /** Ends `#reps`: its groups go into a key table, in group order (the same ids: each holds its own key tuple). */
  #tabulate(): void {
    const reps = this.#reps;
    if (reps === null) return;
    this.#reps = null;
    if (reps.size === 0) return;
    const rows = reps.values.slice(0, reps.size);
    this.#assignRows(this.#source!.rows(rows), rows.length, null);
  }

  /**
   * Group ids of a batch whose key columns are all gathered by one index array from one join build side (Q16's
   * p_brand, p_type, p_size): the build side's rows are coded once (`SourceCodes`) and each batch maps its
   * indices through the codes, instead of copying and hashing every key of every row. Null when the keys are not
   * so gathered, or until the source has fed two batches with at least half its row count.
   */
  #viaSource(keys: readonly Column[], n: number): Int32Array | null {
    const first = gatheredFrom(keys[0]!);
    if (first === null || first.padded) return null;
    const sources: Column[] = [];
    for (const k of keys) {
      const g = gatheredFrom(k);
      if (g === null || g.indices !== first.indices || g.padded) return null;
      sources.push(g.source);
    }
    let s = this.#source;
    if (s === null || !s.isFor(sources)) {
      this.#tabulate();
      s = this.#source = new SourceCodes(sources);
    }
    if (!s.ready(n)) return null;
    const { local, groupOf, identity } = s.codes(this.#types);
    if (this.#table === null) this.#reps ??= new GrowingInts();
    const indices = first.indices;
    const ids = new Int32Array(n);
    const reps = this.#reps;
    if (reps !== null) {
      // A code first seen is the next group; its row stands for it.
      for (let i = 0; i < n; i++) {
        const row = indices[i]!;
        const code = identity ? row : local[row]!;
        let id = groupOf[code]!;
        if (id === -1) {
          id = groupOf[code] = reps.size;
          reps.push(row);
        }
        ids[i] = id;
      }
      return ids;
    }
    // Codes first seen in this batch get their group ids in one insert of one source row each, in row order. With
    // a key of its own on every source row (Q13's c_custkey), a row's code is the row: `local` is not read.
    const fresh: number[] = [];
    for (let i = 0; i < n; i++) {
      const code = identity ? indices[i]! : local[indices[i]!]!;
      if (groupOf[code] === -1) {
        groupOf[code] = -2;
        fresh.push(indices[i]!);
      }
    }
    if (fresh.length > 0) {
      const rows = Int32Array.from(fresh);
      const freshIds = this.assign(s.rows(rows), rows.length);
      for (let j = 0; j < rows.length; j++) groupOf[local[rows[j]!]!] = freshIds[j]!;
    }
    if (identity) for (let i = 0; i < n; i++) ids[i] = groupOf[indices[i]!]!;
    else for (let i = 0; i < n; i++) ids[i] = groupOf[local[indices[i]!]!]!;
    return ids;
  }

  /**
   * Codes the first batch; if a text key without a dictionary has a value longer than two bytes there, starts over
   * with a `KeyIndex`.
   */
  #first(keys: readonly Column[], n: number): Int32Array {
    // Text with a table dictionary (and no NULL) codes by its dictionary codes, long values or not (Q9's n_name
    // beside o_year): coded tables are kept for it.
    const dictionary = (k: Column) => k.valid === null && textCodesOf(k) !== null;
    const allCoded = keys.every((k) => k.type.id !== 'utf8' || dictionary(k));
    // A long value in the first rows ends the coded attempt anyway: look before coding (q10's names and comments).
    if (
      this.#types.some((t) => t.id === 'utf8') &&
      (allCoded || keys.every((k) => k.type.id !== 'utf8' || dictionary(k) || allShort(k, n)))
    ) {
      const coded = new CodedGroupKeys(this.#types);
      const ids = coded.assign(keys, n);
      if (allCoded || coded.hasOnlyShortTexts()) {
        this.#table = coded;
        return ids;
      }
    }
    const table = makeKeyIndex(this.#types, true);
    this.#table = table;
    return table.insert(keys, n);
  }
}

/** Row `r`'s codes folded into one tuple index, last column first. */
function tupleOf(coded: readonly CodedText[], r: number): number {
  let t = 0;
  for (let c = coded.length - 1; c >= 0; c--) t = t * coded[c]!.dictionary.size + coded[c]!.codes[r]!;
  return t;
}

/**
 * The group ids `assign` returns from a key table and from dictionary tuples: read by the caller before its next
 * batch (a group table's accumulators copy what they keep), so one buffer each serves every table of the thread.
 */
const ROW_IDS = new ScratchInts();
const TUPLE_IDS = new ScratchInts();

/** Key tuples of dictionary codes indexed directly by `#viaDictionaries` (256 KiB of ids). */
const MAX_TUPLES = 1 << 16;

/** Whether every value of rows [0, n) of a text column is at most two UTF-8 bytes (NULLs count as short). */
function allShort(col: Column, n: number): boolean {
  const bytes = utf8BytesOf(col);
  if (bytes !== null) {
    const offsets = bytes.offsets;
    for (let i = 0; i < n; i++) if (offsets[i + 1]! - offsets[i]! > 2) return false;
    return true;
  }
  // JS strings: two UTF-16 units may be up to six bytes; the coded table itself decides those exactly.
  const values = strings(col);
  for (let i = 0; i < n; i++) if (values[i]!.length > 2) return false;
  return true;
}

/**
 * Dense ids in first-seen order for the tuples of `keys` (rows [0, rows)), computed without hashing when every key
 * is an int32 column without NULLs and the product of their value ranges is small (Q16's brand and type codes and
 * p_size: 25 × 150 × 50 tuples for 30k part rows): each row's tuple is its values' offsets folded into one index
 * of a direct table. Null otherwise (the caller hashes). A 3-int32 `KeyIndex` took 4.5-10 ms for those rows warm.
 */
function directTupleCodes(keys: readonly Column[], rows: number): { local: Int32Array; size: number } | null {
  const limit = Math.min(MAX_DIRECT_TUPLES, Math.max(1 << 16, rows * 8));
  const cols: Int32Array[] = [];
  const mins: number[] = [];
  const spans: number[] = [];
  let product = 1;
  for (const k of keys) {
    const v = k.values;
    if (!(v instanceof Int32Array) || k.valid !== null) return null;
    let lo = 2 ** 31;
    let hi = -(2 ** 31);
    for (let i = 0; i < rows; i++) {
      const x = v[i]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const span = rows === 0 ? 1 : hi - lo + 1;
    product *= span;
    if (product > limit) return null;
    cols.push(v);
    mins.push(lo);
    spans.push(span);
  }
  const idOf = new Int32Array(product).fill(-1);
  const local = new Int32Array(rows);
  let size = 0;
  for (let r = 0; r < rows; r++) {
    let t = 0;
    for (let c = cols.length - 1; c >= 0; c--) t = t * spans[c]! + (cols[c]![r]! - mins[c]!);
    let id = idOf[t]!;
    if (id === -1) {
      id = size++;
      idOf[t] = id;
    }
    local[r] = id;
  }
  return { local, size };
}

/** The largest direct tuple table `directTupleCodes` fills (16 MiB of ids). */
const MAX_DIRECT_TUPLES = 1 << 22;

/**
 * Codes for the rows of the columns a join's output gathers its GROUP BY keys from (equal key tuples, one code),
 * made once that source has fed two batches and half its row count (a source seen once, such as a filter's batch,
 * is never coded), and the group id of each code (-1 until a batch holds it: only keys that occur become groups).
 */
/** Each source row's code (`local`; the row itself when `identity`) and each code's group id (-1: none yet). */
interface SourceCoding {
  readonly local: Int32Array;
  readonly groupOf: Int32Array;
  readonly identity: boolean;
}

class SourceCodes {
  readonly #sources: readonly Column[];
  /** Per source column: its codes into a table dictionary (text without NULLs), else null. */
  readonly #coded: readonly (CodedText | null)[];
  /**
   * Whether text keys are all coded (and there is one): coding the source skips hashing text, so it pays from the
   * first batch that gathers a quarter of its rows (a batch that copied and hashed the keys would cost as much).
   */
  readonly #cheap: boolean;
  #batches = 0;
  #rows = 0;
  #codes: SourceCoding | null = null;

  constructor(sources: readonly Column[]) {
    this.#sources = sources;
    this.#coded = sources.map((c) => (c.valid === null ? textCodesOf(c) : null));
    this.#cheap =
      this.#coded.some((c) => c !== null) && sources.every((c, i) => c.type.id !== 'utf8' || this.#coded[i] !== null);
  }

  isFor(sources: readonly Column[]): boolean {
    return sources.length === this.#sources.length && sources.every((c, i) => c === this.#sources[i]);
  }

  /**
   * The source's rows `rows`; coded text taken from its dictionary (the source's own text is never copied), with
   * its codes attached, so the group table codes it by them (`CodedGroupKeys`) instead of hashing the text.
   */
  rows(rows: Int32Array): Column[] {
    return this.#sources.map((c, i) => {
      const coded = this.#coded[i];
      if (coded === null || coded === undefined) return take(c, rows);
      const codes = new Uint8Array(rows.length);
      for (let j = 0; j < rows.length; j++) codes[j] = coded.codes[rows[j]!]!;
      // As bytes (take would decode a small column's strings to gather more rows than it has).
      const bytes = takeUtf8(coded.dictionary.values, Int32Array.from(codes), codes.length);
      attachCodes(bytes, coded.dictionary, codes);
      return makeColumn(c.type, bytes, null, codes.length);
    });
  }

  /**
   * Column `c` at the source's rows `rows`, copied when first read; coded text from its dictionary by code (a sort
   * ranks it by code, and a take copies from the dictionary rather than from a long source).
   */
  gathered(c: number, rows: Int32Array): Column {
    const coded = this.#coded[c];
    if (coded === null || coded === undefined) return gatherColumns([this.#sources[c]!], rows, rows.length, false)[0]!;
    const codes = new Int32Array(rows.length);
    for (let j = 0; j < rows.length; j++) codes[j] = coded.codes[rows[j]!]!;
    return gatherDictionary(coded.dictionary, codes, codes.length);
  }

  /** Counts a batch of n rows; whether coding the source pays by now. */
  ready(n: number): boolean {
    if (this.#codes !== null) return true;
    this.#batches++;
    this.#rows += n;
    if (this.#cheap && this.#rows * 4 >= this.#sources[0]!.length) return true;
    return this.#batches >= 2 && this.#rows * 2 >= this.#sources[0]!.length;
  }

  codes(types: readonly DataType[]): SourceCoding {
    if (this.#codes === null) {
      // Text with a dictionary is coded by its codes: equal codes, equal values (one value, one code).
      const rows = this.#sources[0]!.length;
      const keys = this.#sources.map((c, i) => {
        const coded = this.#coded[i];
        return coded === null || coded === undefined ? c : makeColumn(INT32, Int32Array.from(coded.codes), null, rows);
      });
      let coded = directTupleCodes(keys, rows);
      if (coded === null) {
        const index = makeKeyIndex(
          keys.map((k, i) => (k === this.#sources[i] ? types[i]! : INT32)),
          true,
        );
        coded = { local: index.insert(keys, rows), size: index.size };
      }
      // Ids are dense in insertion order: as many as rows means local[r] === r.
      const { local, size } = coded;
      this.#codes = { local, groupOf: new Int32Array(size).fill(-1), identity: size === rows };
    }
    return this.#codes;
  }
}
