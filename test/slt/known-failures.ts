// KNOWN_FAILURES: .slt records that floe currently gets wrong; each must still fail, so a fix forces its removal.

export interface KnownFailure {
  /** Path of the .slt file under test/slt, e.g. `filter.slt` or `explain/limit.slt`. */
  readonly file: string;
  /** The record's SQL text as written in the file (runs of whitespace compare as one space). */
  readonly sql: string;
  /** What floe does wrong (one line). */
  readonly bug: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    file: 'aggregate.slt',
    sql: 'SELECT sum(i64) FROM specials WHERE i64 > 0',
    bug: 'sum(bigint) is bigint and raises "out of range" past 2^63 (PostgreSQL: numeric, 9250393634618998786)',
  },
  {
    file: 'window.slt',
    sql: 'SELECT sum(k) OVER (ORDER BY k ROWS 1.5 PRECEDING) FROM specials',
    bug: 'a numeric ROWS offset is rejected (PostgreSQL casts it to bigint: 1.5 -> 2 PRECEDING)',
  },
  {
    file: 'select.slt',
    sql: 'SELECT 2.5e0, 1e3, 0.1e0 + 0.2e0',
    bug: 'exponent literals are double precision (PostgreSQL: numeric), so 0.1e0 + 0.2e0 = 0.30000000000000004',
  },
  {
    file: 'expressions.slt',
    sql: 'SELECT CAST(CAST(1e15 AS float8) AS text), CAST(CAST(123456789012345678 AS float8) AS text), CAST(CAST(0.0001 AS float8) AS text), CAST(CAST(0.00001 AS float8) AS text), CAST(CAST(123456789012345 AS float8) AS text), CAST(CAST(0.0000001 AS float8) AS text), CAST(CAST(-10000000000000000 AS float8) AS text)',
    bug: "float8 text uses JavaScript's exponent thresholds (1000000000000000, 0.00001, 1e-7); PostgreSQL: 1e+15, 1e-05, 1e-07",
  },
  {
    file: 'errors.slt',
    sql: 'SELECT id, -id AS id FROM items ORDER BY id',
    bug: 'ORDER BY a name two output columns share is not rejected as ambiguous (floe picks the first)',
  },
];
