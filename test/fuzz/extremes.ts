// Extreme literal values the fuzzer substitutes for arguments and literals: type bounds, NaN, empty, huge.

/** Integers at and past the int32/int64 bounds, zero and negatives. */
export const EXTREME_INTS = [
  '0',
  '-1',
  '1',
  '2147483647',
  '-2147483648',
  '2147483648',
  '9223372036854775807',
  '-9223372036854775808',
  '9223372036854775808',
  '99999999999999999999999999999999999999',
  '400',
  '-400',
  '1000000',
] as const;

/** Numbers with fractions and exponents at the double precision bounds. */
export const EXTREME_NUMBERS = [
  '1e308',
  '-1e308',
  '1e-308',
  '1e309',
  '0.000000000000000000001',
  '123456789012345678901234567890.123456789',
  '-0.0',
  "'NaN'::float8",
  "'Infinity'::float8",
  "'-Infinity'::double precision",
  "'NaN'::numeric",
  '2.5',
] as const;

/** Text values: empty, spaces, quotes, non-ASCII, NUL-free control characters, a long one. */
export const EXTREME_TEXTS = [
  "''",
  "' '",
  "''''",
  "'é日本🙂'",
  "'\\'",
  "'%'",
  "'_'",
  "'a\tb\nc'",
  "'NaN'",
  "'2024-02-30'",
  "'1 day'",
  `'${'x'.repeat(10_000)}'`,
] as const;

export const EXTREME_DATES = [
  "DATE '0001-01-01'",
  "DATE '9999-12-31'",
  "DATE '1970-01-01'",
  "DATE '2000-02-29'",
  "DATE '4713-11-24 BC'",
  "DATE '5874897-12-31'",
  "DATE 'infinity'",
  "DATE '-infinity'",
  "DATE '2024-13-01'",
] as const;

export const EXTREME_INTERVALS = [
  "INTERVAL '1 day'",
  "INTERVAL '-1 month'",
  "INTERVAL '1000000 years'",
  "INTERVAL '2147483647 days'",
  "INTERVAL '178000000 years'",
  "INTERVAL '1.5 months'",
  "INTERVAL '7 week'",
  "INTERVAL 'P1Y2M3DT4H5M6S'",
  "INTERVAL '0'",
  "INTERVAL '1 fortnight'",
] as const;

/** Every extreme, for a mutation that drops one anywhere a literal was. */
export const ALL_EXTREMES: readonly string[] = [
  ...EXTREME_INTS,
  ...EXTREME_NUMBERS,
  ...EXTREME_TEXTS,
  ...EXTREME_DATES,
  ...EXTREME_INTERVALS,
  'NULL',
  'TRUE',
  'CAST(NULL AS integer)',
];
