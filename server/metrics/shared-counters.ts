// The layout of the query counters that worker threads keep in shared memory, and the main thread's read of them.

/**
 * Error kinds `query_failures{err_code}` distinguishes (the `WireError` kinds); any other kind counts as `other`.
 * A new kind is one more name here: the slots are laid out from this list.
 */
export const FAILURE_KINDS = [
  'parse',
  'plan',
  'exec',
  'not_supported',
  'cancelled',
  'internal',
  'timeout',
  'memory',
  'other',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * Upper bounds (ms) of the duration histograms' buckets: OpenTelemetry's default boundaries (what Spice exports),
 * with sub-millisecond bounds first, since a point lookup takes well under 1 ms, and longer ones last.
 */
export const DURATION_BUCKETS_MS = [
  0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10_000, 30_000, 60_000,
] as const;

// Float64 offsets within one worker's slot.
export const STARTED = 0;
export const ENDED = 1;
export const ROWS = 2;
export const DURATION_SUM = 3;
export const FAILURES = 4;
export const BUCKETS = FAILURES + FAILURE_KINDS.length;
/** One count per bucket (not cumulative), the last for durations above every bound. */
const BUCKET_COUNT = DURATION_BUCKETS_MS.length + 1;
/** Doubles per slot, rounded up to whole 64-byte cache lines so two workers never write the same line. */
export const SLOT_DOUBLES = Math.ceil((BUCKETS + BUCKET_COUNT) / 8) * 8;
/**
 * Slots: one per worker thread ever started (a replaced worker's counts stay in its slot). Past this many starts
 * the slots are shared (see `claimSlot`).
 */
export const SLOTS = 1024;
/** The header: an Int32 with the number of slots claimed, alone on its cache line. */
const HEADER_BYTES = 64;

/** Made on the main thread and handed to every worker (through the pool's workerData). */
export function createCounterBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + SLOTS * SLOT_DOUBLES * 8);
}

/** The buffer's slots as one Float64Array (slot i starts at `i * SLOT_DOUBLES`). */
export function slotsOf(buffer: SharedArrayBuffer): Float64Array {
  return new Float64Array(buffer, HEADER_BYTES, SLOTS * SLOT_DOUBLES);
}

/**
 * Claims the next slot for the calling thread; returns its first index in `slotsOf`. Each slot has one writer
 * until more than `SLOTS` threads have claimed one; then slots are reused round robin and two writers may
 * occasionally lose an increment (counts become approximate, never wrong by more than those lost races).
 */
export function claimSlot(buffer: SharedArrayBuffer): number {
  const n = Atomics.add(new Int32Array(buffer, 0, 1), 0, 1);
  return (n % SLOTS) * SLOT_DOUBLES;
}

/** The query counters summed over every worker at one moment (a scrape). */
export interface QueryTotals {
  readonly started: number;
  readonly ended: number;
  readonly rows: number;
  readonly durationSumMs: number;
  /** By `FAILURE_KINDS` index. */
  readonly failures: readonly number[];
  /** Per bucket (not cumulative), the last above every bound; their sum is `ended`. */
  readonly buckets: readonly number[];
}

/** Sums the claimed slots. Reads without locks: a query ending during the read may be half counted. */
export function readTotals(buffer: SharedArrayBuffer): QueryTotals {
  const slots = slotsOf(buffer);
  const claimed = Math.min(Atomics.load(new Int32Array(buffer, 0, 1), 0), SLOTS);
  const sum = new Float64Array(SLOT_DOUBLES);
  for (let s = 0; s < claimed; s++) {
    const base = s * SLOT_DOUBLES;
    for (let i = 0; i < SLOT_DOUBLES; i++) sum[i] = (sum[i] as number) + (slots[base + i] as number);
  }
  return {
    started: sum[STARTED] as number,
    ended: sum[ENDED] as number,
    rows: sum[ROWS] as number,
    durationSumMs: sum[DURATION_SUM] as number,
    failures: Array.from(sum.subarray(FAILURES, BUCKETS)),
    buckets: Array.from(sum.subarray(BUCKETS, BUCKETS + BUCKET_COUNT)),
  };
}

/** The bucket index of a duration: the first bound it does not exceed, or the last bucket. */
export function bucketOf(ms: number): number {
  let i = 0;
  while (i < DURATION_BUCKETS_MS.length && ms > (DURATION_BUCKETS_MS[i] as number)) i++;
  return i;
}
