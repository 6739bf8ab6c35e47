// The fuzz loop: cases in batches against a FuzzTarget, /health after each batch, crashes bisected to a case.
import { type FuzzCase, makeCase } from './fuzz-case.js';
import type { FuzzTarget } from './fuzz-target.js';
import { knownFailure } from './known-failures.js';
import { type FailureKind, judge, type Verdict } from './oracle.js';
import { sendRaw } from './raw-send.js';

export interface FuzzOptions {
  readonly seed: number;
  /** Stop after this many cases … */
  readonly cases?: number;
  /** … or at this time (ms since the epoch), whichever comes first. */
  readonly until?: number;
  readonly concurrency: number;
  /** Per-request deadline: no answer and no close by then is a hang. */
  readonly deadlineMs: number;
  readonly batch: number;
  readonly allows: (form: string) => boolean;
  readonly progress?: (report: FuzzReport) => void;
}

export interface Failure {
  readonly kind: FailureKind;
  readonly signature: string;
  count: number;
  /** The shortest case with this signature so far. */
  shortest: FuzzCase;
  detail: string;
  /** Set when KNOWN_FAILURES lists it (fixed on another branch). */
  readonly known: string | null;
}

export interface FuzzReport {
  readonly seed: number;
  readonly counts: { cases: number; ok200: number; client4xx: number; closed: number; other: number } & Record<
    FailureKind,
    number
  >;
  readonly failures: Map<string, Failure>;
  elapsedMs: number;
}

function emptyReport(seed: number): FuzzReport {
  const counts = { cases: 0, ok200: 0, client4xx: 0, closed: 0, other: 0 };
  const failures = { '5xx': 0, hang: 0, crash: 0, stack: 0, 'empty-message': 0, 'no-answer': 0, 'bad-response': 0 };
  return { seed, counts: { ...counts, ...failures }, failures: new Map(), elapsedMs: 0 };
}

function record(report: FuzzReport, c: FuzzCase, v: Verdict): void {
  if (v.ok) {
    const s = v.status;
    if (s === 'closed') report.counts.closed++;
    else if (s >= 200 && s < 300) report.counts.ok200++;
    else if (s >= 400 && s < 500) report.counts.client4xx++;
    else report.counts.other++;
    return;
  }
  report.counts[v.kind]++;
  const f = report.failures.get(v.signature);
  if (!f) {
    const known = knownFailure(v.signature)?.note ?? null;
    report.failures.set(v.signature, {
      kind: v.kind,
      signature: v.signature,
      count: 1,
      shortest: c,
      detail: v.detail,
      known,
    });
  } else {
    f.count++;
    if (c.raw.bytes.length < f.shortest.raw.bytes.length) {
      f.shortest = c;
      f.detail = v.detail;
    }
  }
}

async function runOne(target: FuzzTarget, c: FuzzCase, deadlineMs: number): Promise<Verdict> {
  const outcome = await sendRaw(target.port, c.raw, deadlineMs);
  const body5xx = outcome.responses.find((r) => r.status >= 500)?.body;
  if (body5xx !== undefined) await target.waitForRef(body5xx);
  return judge(c, outcome, (body) => target.internalMessage(body));
}

/** Runs `cases` `concurrency` at a time; returns their verdicts in order. */
async function runBatch(target: FuzzTarget, cases: readonly FuzzCase[], o: FuzzOptions): Promise<Verdict[]> {
  const verdicts: Verdict[] = new Array(cases.length);
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const i = next++;
      verdicts[i] = await runOne(target, cases[i]!, o.deadlineMs);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  return verdicts;
}

/** After a dead server: replays `cases` one at a time on a fresh one to find the case that kills it. */
async function findKiller(target: FuzzTarget, cases: readonly FuzzCase[], o: FuzzOptions): Promise<FuzzCase | null> {
  for (const c of cases) {
    await target.restart();
    await runOne(target, c, o.deadlineMs);
    if (!(await target.healthy())) return c;
  }
  return null;
}

function crashSignature(target: FuzzTarget): { signature: string; detail: string } {
  const tail = target.logTail();
  const fatal = tail.find((l) => /FATAL|out of memory|Aborted|Segmentation/i.test(l));
  const why = fatal ?? (target.exit === null ? 'server alive but /health unanswered' : `server ${target.exit}`);
  return { signature: `crash: ${why.slice(0, 160)}`, detail: tail.slice(-8).join('\n') };
}

export async function runFuzz(target: FuzzTarget, o: FuzzOptions): Promise<FuzzReport> {
  const report = emptyReport(o.seed);
  const started = Date.now();
  for (let index = 0; ; ) {
    const left = o.cases === undefined ? o.batch : Math.min(o.batch, o.cases - index);
    if (left <= 0 || (o.until !== undefined && Date.now() >= o.until)) break;
    const cases = Array.from({ length: left }, (_, i) => makeCase(o.seed, index + i, o.allows));
    index += left;
    const verdicts = await runBatch(target, cases, o);
    for (const [i, c] of cases.entries()) record(report, c, verdicts[i]!);
    report.counts.cases += cases.length;
    if (!(await target.healthy())) {
      const killer = await findKiller(target, cases, o);
      const { signature, detail } = crashSignature(target);
      if (killer) record(report, killer, { ok: false, kind: 'crash', signature, detail });
      else
        record(report, cases[0]!, {
          ok: false,
          kind: 'crash',
          signature: `${signature} (no single case reproduces it)`,
          detail,
        });
      await target.restart();
    }
    report.elapsedMs = Date.now() - started;
    o.progress?.(report);
  }
  report.elapsedMs = Date.now() - started;
  return report;
}

/** The report as text: counts, then one shortest reproducer per distinct failure (known ones marked). */
export function formatReport(r: FuzzReport): string {
  const c = r.counts;
  const lines = [
    `seed ${r.seed}: ${c.cases} cases in ${(r.elapsedMs / 1000).toFixed(1)} s: ${c.ok200} answered 2xx, ${c.client4xx} 4xx, ${c.closed} closed (malformed), ${c.other} other`,
    `failures: ${c['5xx']} 5xx, ${c.hang} hangs, ${c.crash} crashes, ${c.stack} stack traces, ${c['empty-message']} empty 4xx messages, ${c['no-answer']} unanswered queries, ${c['bad-response']} bad responses`,
  ];
  const failures = [...r.failures.values()].sort((a, b) => Number(a.known !== null) - Number(b.known !== null));
  if (failures.length > 0) lines.push(`${failures.length} distinct failures (shortest reproducer each):`);
  for (const f of failures) {
    lines.push(`- [${f.kind}] ${f.signature} ×${f.count}${f.known ? `  (known: ${f.known})` : ''}`);
    lines.push(
      `    case #${f.shortest.index} (${f.shortest.source}/${f.shortest.label}): ${f.shortest.text.slice(0, 600)}`,
    );
    if (f.detail && f.detail !== f.signature) lines.push(`    ${f.detail.replaceAll('\n', '\n    ').slice(0, 600)}`);
  }
  return lines.join('\n');
}
