// sqllogictest-style `.slt` records: parsing, running on floe engines, comparing, and rewriting (UPDATE=1).
//
// Format (one record per blank-line-separated block; `#` starts a comment line):
//
//   statement ok                    SQL runs to completion without error
//   statement error <substring>     SQL fails (at plan or run time) with a message containing <substring>
//   query <types> [rowsort]         SQL, a `----` line, then the expected rows
//   params <json>                   a line before a record: `$1…` (array) or `:name` (object) parameter values
//
// <types> has one letter per result column, checked against the result schema: I integer/bigint,
// R double precision, N numeric, T text, D date, P timestamp, B boolean, V interval, U unknown (untyped NULL).
// Expected rows hold one line per row, values separated by a single TAB (so text may hold spaces);
// NULL is `NULL`, the empty string is `(empty)`, and newline/tab inside text are written `\n`/`\t`.
// R values compare with relative tolerance FLOAT_REL_TOLERANCE (summation order may differ);
// everything else compares as exact text. `rowsort` sorts actual and expected rows before comparing.
// An EXPLAIN query's rows are the plan lines (leading spaces kept).
import { closeFloats, FLOAT_REL_TOLERANCE } from '../../bench/lib/result-rows.js';
import type { DataType, Engine, ParamValues } from '../../engine/index.js';
import { queryRows } from '../helpers/engines.js';

export { closeFloats, FLOAT_REL_TOLERANCE };

export type SltRecord =
  | { kind: 'statement'; line: number; sql: string; params?: ParamValues; error: string | null }
  | {
      kind: 'query';
      line: number;
      sql: string;
      params?: ParamValues;
      types: string;
      rowsort: boolean;
      expected: string[];
      /** 0-based line range [start, end) of the header through the last expected row, for UPDATE=1. */
      span: readonly [number, number];
    };

export function parseSlt(text: string): SltRecord[] {
  const lines = text.split('\n');
  const records: SltRecord[] = [];
  let params: ParamValues | undefined;
  let i = 0;
  const block = (): string[] => {
    const out: string[] = [];
    // Only a truly empty line ends a block: a row may be a single space (a one-column text value).
    while (i < lines.length && lines[i] !== '' && lines[i] !== '----') out.push(lines[i++]!);
    return out;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const head = line.trim();
    const start = i++;
    if (head === '' || head.startsWith('#')) continue;
    if (head.startsWith('params ')) {
      params = JSON.parse(head.slice('params '.length)) as ParamValues;
      continue;
    }
    const m = /^(statement|query)\s+(\S+)\s*(.*)$/.exec(head);
    if (!m) throw new Error(`line ${start + 1}: expected a record header, found ${JSON.stringify(line)}`);
    const sql = block().join('\n');
    const withParams = params === undefined ? {} : { params };
    params = undefined;
    if (m[1] === 'statement') {
      if (m[2] !== 'ok' && m[2] !== 'error') throw new Error(`line ${start + 1}: statement ok|error`);
      records.push({ kind: 'statement', line: start + 1, sql, error: m[2] === 'error' ? m[3]! : null, ...withParams });
      continue;
    }
    if (lines[i] !== '----') throw new Error(`line ${start + 1}: query record without ----`);
    i++;
    const expected = block();
    const rowsort = m[3] === 'rowsort';
    if (m[3] !== '' && !rowsort) throw new Error(`line ${start + 1}: unknown query option ${m[3]}`);
    records.push({
      kind: 'query',
      line: start + 1,
      sql,
      types: m[2]!,
      rowsort,
      expected,
      span: [start, i],
      ...withParams,
    });
  }
  return records;
}

export function typeLetter(t: DataType): string {
  const letters: Record<DataType['id'], string> = {
    null: 'U',
    bool: 'B',
    int32: 'I',
    int64: 'I',
    float64: 'R',
    decimal: 'N',
    utf8: 'T',
    date: 'D',
    timestamp: 'P',
    interval: 'V',
  };
  return letters[t.id];
}

/** One cell as written in an .slt file. */
export function cellSlt(v: string | null): string {
  if (v === null) return 'NULL';
  if (v === '') return '(empty)';
  return v.replaceAll('\n', '\\n').replaceAll('\t', '\\t');
}

export interface QueryOutcome {
  readonly types: string;
  /** Rows as .slt lines (already sorted for rowsort records). */
  readonly lines: string[];
}

/** Runs a query record: EXPLAIN returns plan lines, anything else its rows. */
export async function runQuery(engine: Engine, sql: string, params: ParamValues | undefined, rowsort: boolean) {
  const res = await queryRows(engine, sql, params === undefined ? {} : { params });
  const lines = res.rows.map((r) => r.map(cellSlt).join('\t'));
  if (rowsort) lines.sort();
  return { types: res.types.map(typeLetter).join(''), lines } satisfies QueryOutcome;
}

/** Runs a statement to completion; returns the error message, or null when it succeeded. */
export async function runStatement(engine: Engine, sql: string, params: ParamValues | undefined) {
  try {
    await queryRows(engine, sql, params === undefined ? {} : { params });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Why `actual` does not match the record's expectation, or null when it does. */
export function compareQuery(types: string, expected: readonly string[], actual: QueryOutcome, rowsort: boolean) {
  if (actual.types !== types) return `column types: expected ${types}, got ${actual.types}`;
  const want = rowsort ? [...expected].sort() : expected;
  if (want.length !== actual.lines.length) {
    return `row count: expected ${want.length}, got ${actual.lines.length}\n${showRows(actual.lines)}`;
  }
  for (let r = 0; r < want.length; r++) {
    if (!sameRow(types, want[r]!, actual.lines[r]!)) {
      return `row ${r + 1}:\n  expected: ${want[r]}\n  actual:   ${actual.lines[r]}\n${showRows(actual.lines)}`;
    }
  }
  return null;
}

function sameRow(types: string, want: string, got: string): boolean {
  if (want === got) return true;
  const a = want.split('\t');
  const b = got.split('\t');
  if (a.length !== b.length) return false;
  return a.every((x, c) => x === b[c] || (types[c] === 'R' && closeFloats(x, b[c]!)));
}

function showRows(lines: readonly string[]): string {
  const shown = lines.slice(0, 20).map((l) => `    ${l}`);
  return `  actual rows${lines.length > 20 ? ` (first 20 of ${lines.length})` : ''}:\n${shown.join('\n')}`;
}

/** EXPLAIN lines with the provider's detail (`files=… row_groups=…` or `chunks=… rows=…`) removed. */
export function withoutScanDetail(lines: readonly string[]): string[] {
  return lines.map((l) => l.replace(/ (files=\d+ row_groups=\d+\/\d+|chunks=\d+(\/\d+)? rows=\d+)$/, ''));
}

/** The .slt text with each updated query record's header types and expected rows replaced. */
export function rewriteSlt(text: string, updates: ReadonlyMap<SltRecord, QueryOutcome>): string {
  const lines = text.split('\n');
  const queries = [...updates.entries()].filter(([r]) => r.kind === 'query');
  queries.sort(([a], [b]) => b.line - a.line);
  for (const [rec, out] of queries) {
    if (rec.kind !== 'query') continue;
    const [start, end] = rec.span;
    const header = `query ${out.types}${rec.rowsort ? ' rowsort' : ''}`;
    const sqlLines = rec.sql.split('\n');
    lines.splice(start, end - start, header, ...sqlLines, '----', ...out.lines);
  }
  return lines.join('\n');
}
