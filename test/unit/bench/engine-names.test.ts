// `--engines`: floe and DuckDB are required, polars and alasql optional, unknown names refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEngines } from '../../../bench/tpch/engine-names.js';

describe('parseEngines', () => {
  it('returns the extra engines in a fixed order, without repeats', () => {
    const cases: [string, string[]][] = [
      ['floe,duckdb', []],
      ['floe,duckdb,polars', ['polars']],
      ['alasql, polars ,DuckDB,floe', ['polars', 'alasql']],
      ['floe,duckdb,polars,polars,', ['polars']],
    ];
    for (const [list, expected] of cases) assert.deepEqual(parseEngines(list), expected, list);
  });

  it('refuses unknown engines and lists without floe or DuckDB', () => {
    const cases: [string, RegExp][] = [
      ['floe,duckdb,sqlite', /unknown engine sqlite/],
      ['duckdb,polars', /must include floe$/],
      ['polars', /must include floe and duckdb/],
      ['', /must include floe and duckdb/],
    ];
    for (const [list, message] of cases) assert.throws(() => parseEngines(list), message, list);
  });
});
