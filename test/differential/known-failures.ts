// KNOWN_FAILURES: differential cases where floe currently disagrees with the oracle; each must still fail.

export interface KnownFailure {
  /** The suite name passed to `differentialSuite`. */
  readonly suite: string;
  /** The case's floe SQL (runs of whitespace compare as one space). */
  readonly sql: string;
  /** What floe does wrong (one line). */
  readonly bug: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    suite: 'filter',
    sql: "SELECT k FROM specials WHERE g = 'NaN' OR g > 1.5",
    bug: 'NaN comparisons follow IEEE: NaN = NaN and NaN > 1.5 are false (PostgreSQL and DuckDB: true)',
  },
];
