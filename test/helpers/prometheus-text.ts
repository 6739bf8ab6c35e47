// A small reader of the Prometheus text exposition format, for tests that scrape /metrics.

/** A scrape: each sample by `name{label="value",...}` (labels in the order written), and each family's TYPE. */
export interface Scrape {
  readonly samples: ReadonlyMap<string, number>;
  readonly types: ReadonlyMap<string, string>;
  /** The value of `name` with exactly these labels (in any order), or undefined. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
  /** The sum of every `name` sample whose labels include `labels`. */
  sum(name: string, labels?: Readonly<Record<string, string>>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses exposition text; throws on a line that is neither a comment nor a sample. */
export function parseExposition(text: string): Scrape {
  const rows: { name: string; labels: Record<string, string>; value: number }[] = [];
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (m === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k as string] = v as string;
    const value = m[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[3]);
    rows.push({ name: m[1] as string, labels, value });
    samples.set(`${m[1]}${m[2] === undefined ? '' : `{${m[2]}}`}`, value);
  }
  const matches = (have: Record<string, string>, want: Readonly<Record<string, string>>, exact: boolean) =>
    Object.entries(want).every(([k, v]) => have[k] === v) &&
    (!exact || Object.keys(have).length === Object.keys(want).length);
  return {
    samples,
    types,
    value: (name, labels = {}) => rows.find((r) => r.name === name && matches(r.labels, labels, true))?.value,
    sum: (name, labels = {}) =>
      rows.filter((r) => r.name === name && matches(r.labels, labels, false)).reduce((a, r) => a + r.value, 0),
  };
}
